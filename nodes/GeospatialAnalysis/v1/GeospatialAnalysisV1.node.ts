import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeBaseDescription,
	INodeTypeDescription,
} from 'n8n-workflow';

import { router } from './actions/router';
import { versionDescription } from './actions/versionDescription';
import { loadOptions } from './methods';

// The icon is declared on the versioned wrapper (GeospatialAnalysis.node.ts, checked by the
// same rule there) and passed in as baseDescription; this rule only recognises a literal
// `description = {…}` field, which a versioned node's inner class cannot have.
// eslint-disable-next-line @n8n/community-nodes/icon-validation
export class GeospatialAnalysisV1 implements INodeType {
	description: INodeTypeDescription;

	constructor(baseDescription: INodeTypeBaseDescription) {
		this.description = {
			...baseDescription,
			...versionDescription,
		};
	}

	methods = { loadOptions };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
