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
import { operationSubtitle } from './v1/actions/subtitle';
import { versionDescription } from './v1/actions/versionDescription';
import { versionDescription as versionDescriptionV1_1 } from './v1_1/actions/versionDescription';

const icon = {
	light: 'file:../../icons/euInformationSystem.svg',
	dark: 'file:../../icons/euInformationSystem.dark.svg',
} as const;

/** "Submit: Due Diligence Statement", … (the same operations and names in every version). */
const subtitle = operationSubtitle(versionDescription.properties);

/** What the nodes panel and the node's settings say of the node (every version). */
const nodeDescription =
	"File and read EUDR due-diligence statements and simplified declarations, and verify a supplier's reference, in the EU Information System (TRACES, SOAP API V3)";

/** What every version runs: version 1's router and operations. */
abstract class EuInformationSystemVersion {
	abstract description: INodeTypeDescription;

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}

/** What every version says of the node (each class adds its icon and its version's part). */
const common: Pick<INodeTypeDescription, 'displayName' | 'name' | 'group' | 'description'> = {
	displayName: 'EU Information System',
	name: 'euInformationSystem',
	group: ['output'],
	description: nodeDescription,
};

/**
 * Version 1 of the EU Information System node, with its whole description. It lives in this
 * file, beside the versioned wrapper, for the reason GeospatialAnalysis.node.ts gives (n8n
 * resolves every version's icon relative to the file it loads). An AI Agent tool: reads and
 * Verify as they are; filing, amending or withdrawing (legal value) only with the tool's
 * "Allow Filing Statements" setting, off by default (v1/actions/toolGate.ts).
 */
export class EuInformationSystemV1 extends EuInformationSystemVersion implements INodeType {
	description: INodeTypeDescription = {
		...common,
		icon,
		subtitle,
		// Writes are gated in the tool variant (v1/actions/toolGate.ts).
		usableAsTool: true,
		...versionDescription,
	};
}

/**
 * Version 1.1: version 1's operations with the statement fields laid out anew (a Represented
 * Operator group shown only for representatives, Additional Fields, Net Weight required for
 * import and export, the Simplified Declaration's Activity Type Domestic by default:
 * v1_1/actions/versionDescription.ts). Saved workflows keep version 1; nodes added from the
 * nodes panel get 1.1.
 */
export class EuInformationSystemV1_1 extends EuInformationSystemVersion implements INodeType {
	description: INodeTypeDescription = {
		...common,
		icon,
		subtitle,
		// Writes are gated in the tool variant (v1/actions/toolGate.ts).
		usableAsTool: true,
		...versionDescriptionV1_1,
	};
}

export class EuInformationSystem extends VersionedNodeType {
	constructor() {
		const v1_1 = new EuInformationSystemV1_1();
		const { displayName, name, group } = v1_1.description;
		const baseDescription: INodeTypeBaseDescription = {
			displayName,
			name,
			icon,
			group,
			subtitle,
			description: nodeDescription,
			defaultVersion: 1.1,
		};
		const nodeVersions: IVersionedNodeType['nodeVersions'] = {
			1: new EuInformationSystemV1(),
			1.1: v1_1,
		};
		super(nodeVersions, baseDescription);
	}
}
