import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { router } from './actions/router';
import { versionDescription } from './actions/versionDescription';
import { loadOptions } from './methods';

/**
 * Version 1 of the action node, with its whole description (the versioned wrapper takes its
 * name, icon and texts from here). The icon paths are relative to this file, where n8n's
 * lint checks them (icons/ at the repository root). At run time n8n resolves every version's
 * icon relative to the file it loaded, the wrapper's bundle in dist/nodes/GeospatialAnalysis/,
 * which lies as deep under the package root as this file under the repository root: the same
 * paths land on icons/ at the package root, which the package ships (package.json `files`).
 */
export class GeospatialAnalysisV1 implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Geospatial Analysis',
		name: 'geospatialAnalysis',
		icon: {
			light: 'file:../../../icons/geospatialAnalysis.svg',
			dark: 'file:../../../icons/geospatialAnalysis.dark.svg',
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
