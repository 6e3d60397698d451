import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import * as dueDiligenceStatement from './dueDiligenceStatement';
import type { EuInformationSystemType, OperationsOf, Resource } from './node.type';
import type { OperationModule, ResourceModule } from '../../../shared/descriptions/operationModule';

/** Every resource folder, each with exactly the operations node.type.ts names for it. */
export const resources: { [R in Resource]: ResourceModule & { operations: OperationsOf<R> } } = {
	dueDiligenceStatement,
};

function operationModule({
	resource,
	operation,
}: EuInformationSystemType): OperationModule | undefined {
	if (!Object.hasOwn(resources, resource)) return undefined;
	const operations: Record<string, OperationModule> = resources[resource].operations;
	return Object.hasOwn(operations, operation) ? operations[operation] : undefined;
}

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const module = operationModule({ resource, operation } as EuInformationSystemType);
	if (!module) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of resource "${resource}" is not supported by this version of the node`,
			{ description: 'Choose a resource and an operation from the lists.' },
		);
	}
	return [await module.execute.call(this, items)];
}
