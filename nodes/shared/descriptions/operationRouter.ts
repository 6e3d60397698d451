import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { OperationModule, ResourceModule } from './operationModule';

/**
 * The router of an action node (each node's v1/actions/router.ts): the operation module of
 * the node's resource and operation parameters, run over the input items.
 */
export async function routeOperation(
	ctx: IExecuteFunctions,
	resources: Record<string, ResourceModule>,
): Promise<INodeExecutionData[][]> {
	const items = ctx.getInputData();
	const resource = ctx.getNodeParameter('resource', 0) as string;
	const operation = ctx.getNodeParameter('operation', 0) as string;
	const operations: Record<string, OperationModule> | undefined = Object.hasOwn(resources, resource)
		? resources[resource].operations
		: undefined;
	const module =
		operations && Object.hasOwn(operations, operation) ? operations[operation] : undefined;
	if (!module) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The operation "${operation}" of resource "${resource}" is not supported by this version of the node`,
			{ description: 'Choose a resource and an operation from the lists.' },
		);
	}
	return [await module.execute.call(ctx, items)];
}
