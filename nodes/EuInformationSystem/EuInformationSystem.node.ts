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

const icon = {
	light: 'file:../../icons/euInformationSystem.svg',
	dark: 'file:../../icons/euInformationSystem.dark.svg',
} as const;

const subtitle = '={{$parameter["operation"]}}';

/** What the nodes panel and the node's settings say of the node (every version). */
const nodeDescription =
	"File and read EUDR due-diligence statements and simplified declarations, and verify a supplier's reference, in the EU Information System (TRACES, SOAP API V3)";

/**
 * Version 1 of the EU Information System node, with its whole description. It lives in this
 * file, beside the versioned wrapper, for the reason GeospatialAnalysis.node.ts gives (n8n
 * resolves every version's icon relative to the file it loads). An AI Agent tool: reads and
 * Verify as they are; filing, amending or withdrawing (legal value) only with the tool's
 * "Allow Filing Statements" setting, off by default (v1/actions/toolGate.ts).
 */
export class EuInformationSystemV1 implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'EU Information System',
		name: 'euInformationSystem',
		group: ['output'],
		description: nodeDescription,
		icon,
		subtitle,
		// Writes are gated in the tool variant (v1/actions/toolGate.ts).
		usableAsTool: true,
		...versionDescription,
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}

export class EuInformationSystem extends VersionedNodeType {
	constructor() {
		const v1 = new EuInformationSystemV1();
		const { displayName, name, group } = v1.description;
		const baseDescription: INodeTypeBaseDescription = {
			displayName,
			name,
			icon,
			group,
			subtitle,
			description: nodeDescription,
			defaultVersion: 1,
		};
		const nodeVersions: IVersionedNodeType['nodeVersions'] = { 1: v1 };
		super(nodeVersions, baseDescription);
	}
}
