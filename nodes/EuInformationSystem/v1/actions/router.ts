import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import * as declaration from './declaration';
import * as dueDiligenceRecord from './dueDiligenceRecord';
import * as dueDiligenceStatement from './dueDiligenceStatement';
import type { OperationsOf, Resource } from './node.type';
import * as simplifiedDeclaration from './simplifiedDeclaration';
import { refuseUngatedWrite, ungatedWriteReason } from './toolGate';
import type { ResourceModule } from '../../../shared/descriptions/operationModule';
import { routeOperation } from '../../../shared/descriptions/operationRouter';

/** Every resource folder, each with exactly the operations node.type.ts names for it. */
export const resources: { [R in Resource]: ResourceModule & { operations: OperationsOf<R> } } = {
	dueDiligenceStatement,
	simplifiedDeclaration,
	declaration,
	dueDiligenceRecord,
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	// As an AI Agent tool, a write needs the tool's "Allow Filing Statements" (before any request).
	const refusal = ungatedWriteReason(
		this,
		this.getNodeParameter('resource', 0) as string,
		this.getNodeParameter('operation', 0) as string,
	);
	if (refusal !== undefined) return [await refuseUngatedWrite(this, refusal)];
	return await routeOperation(this, resources);
}
