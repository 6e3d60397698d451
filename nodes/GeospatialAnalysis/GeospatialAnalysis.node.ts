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
import { versionDescription as versionDescriptionV2 } from './v2/actions/versionDescription';
import { versionDescription as versionDescriptionV3 } from './v3/actions/versionDescription';

const icon = {
	light: 'file:../../icons/geospatialAnalysis.svg',
	dark: 'file:../../icons/geospatialAnalysis.dark.svg',
} as const;

const subtitle = '={{$parameter["operation"] + ": " + $parameter["resource"]}}';

/** What the nodes panel and the node's settings say of the node (every version). */
const nodeDescription =
	'Register plots of land, run EUDR deforestation, protected-area, Indigenous-land, climate and site analyses on them and get the results';

/** What every version says of the node (each class adds its own part). */
const common: Pick<INodeTypeDescription, 'displayName' | 'name' | 'group' | 'description'> = {
	displayName: 'Geospatial Analysis',
	name: 'geospatialAnalysis',
	group: ['transform'],
	description: nodeDescription,
};

/** What every version runs: version 1's router and operations, and the Checks list. */
abstract class GeospatialAnalysisVersion {
	abstract description: INodeTypeDescription;

	methods = { loadOptions };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}

/**
 * Version 1 of the action node, with its whole description. It lives in this file, beside
 * the versioned wrapper, because n8n resolves the icon of every version relative to the file
 * it loads (this one), and n8n's lint and scanner check a node class's icon relative to the
 * file that declares it: here both agree. (n8n's scanner also wants every *.node.ts file
 * registered in package.json, which a v1/…V1.node.ts file cannot be.) Everything else of
 * version 1 is in v1/.
 */
export class GeospatialAnalysisV1 extends GeospatialAnalysisVersion implements INodeType {
	description: INodeTypeDescription = {
		...common,
		icon,
		subtitle,
		usableAsTool: true,
		...versionDescription,
	};
}

/**
 * Version 2: version 1's operations (the same router; each operation reads a moved field
 * where the node's version keeps it) with the editor of v2/actions/versionDescription.ts:
 * short actions, Max Tokens at the top of Job → Create with a limit by default, Wait for
 * Completion outputting Per-Plot Results by default, Request Timeout inside Options. Saved
 * workflows keep version 1 (n8n stores only non-default values, so changed defaults need a
 * new version).
 */
export class GeospatialAnalysisV2 extends GeospatialAnalysisVersion implements INodeType {
	description: INodeTypeDescription = {
		...common,
		icon,
		subtitle,
		usableAsTool: true,
		...versionDescriptionV2,
	};
}

/**
 * Version 3: version 2 with Geometry Source "Found in the Item" by default (the item's
 * `geometry`, as Read File outputs it, else `geojson`, `wkt`, or `latitude` and `longitude`),
 * so that Read File → Validate / Register / Export connect at defaults
 * (v3/actions/versionDescription.ts). Nodes added from the nodes panel get version 3.
 */
export class GeospatialAnalysisV3 extends GeospatialAnalysisVersion implements INodeType {
	description: INodeTypeDescription = {
		...common,
		icon,
		subtitle,
		usableAsTool: true,
		...versionDescriptionV3,
	};
}

export class GeospatialAnalysis extends VersionedNodeType {
	constructor() {
		const v3 = new GeospatialAnalysisV3();
		// The node's name, icon and texts are those of its default (newest) version.
		const { displayName, name, group } = v3.description;
		const baseDescription: INodeTypeBaseDescription = {
			displayName,
			name,
			icon,
			group,
			subtitle,
			description: nodeDescription,
			defaultVersion: 3,
		};

		const nodeVersions: IVersionedNodeType['nodeVersions'] = {
			1: new GeospatialAnalysisV1(),
			2: new GeospatialAnalysisV2(),
			3: v3,
		};

		super(nodeVersions, baseDescription);
	}
}
