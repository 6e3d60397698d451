import type { INodePropertyOptions, INodeProperties } from 'n8n-workflow';

import type { OperationModule } from './operationModule';

/**
 * A resource folder's `description`: its Operation selector (the list of its operations, each
 * with the action an AI Agent is told) followed by every operation's fields.
 */
export function resourceDescription(
	resource: string,
	defaultOperation: string,
	options: INodePropertyOptions[],
	operations: Record<string, OperationModule>,
): INodeProperties[] {
	const selector: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options,
		default: defaultOperation,
	};
	return [selector, ...Object.values(operations).flatMap((operation) => operation.description)];
}
