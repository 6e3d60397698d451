import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeBaseDescription,
	INodeTypeDescription,
	IVersionedNodeType,
} from 'n8n-workflow';
import { VersionedNodeType } from 'n8n-workflow';

import { router } from './v1/actions/router';
import { versionDescription } from './v1/actions/versionDescription';
import { loadOptions } from './v1/methods';

/**
 * Version 1 of the action node, with its whole description. It lives in this file, beside
 * the versioned wrapper, because n8n resolves the icon of every version relative to the file
 * it loads (this one), and n8n's lint and scanner check a node class's icon relative to the
 * file that declares it: here both agree. (n8n's scanner also wants every *.node.ts file
 * registered in package.json, which a v1/…V1.node.ts file cannot be.) Everything else of
 * version 1 is in v1/.
 */
export class GeospatialAnalysisV1 implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Geospatial Analysis',
		name: 'geospatialAnalysis',
		icon: {
			light: 'file:../../icons/geospatialAnalysis.svg',
			dark: 'file:../../icons/geospatialAnalysis.dark.svg',
		},
		group: ['transform'],
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Register plots of land and run EUDR deforestation, protected-area, Indigenous-land, climate and site analyses on them',
		usableAsTool: true,
		...versionDescription,
	};

	methods = { loadOptions };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}

export class GeospatialAnalysis extends VersionedNodeType {
	constructor() {
		const v1 = new GeospatialAnalysisV1();
		// The node's name, icon and texts are those of its default version.
		const { displayName, name, icon, group, subtitle, description } = v1.description;
		const baseDescription: INodeTypeBaseDescription = {
			displayName,
			name,
			icon,
			group,
			subtitle,
			description,
			defaultVersion: 1,
		};

		const nodeVersions: IVersionedNodeType['nodeVersions'] = {
			1: v1,
		};

		super(nodeVersions, baseDescription);
	}
}
