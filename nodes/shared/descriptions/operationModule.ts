import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

/** What every operation module exports. */
export interface OperationModule {
	description: INodeProperties[];
	execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]>;
}

/** What every resource folder's index exports. */
export interface ResourceModule {
	/** The operation selector plus every operation's fields. */
	description: INodeProperties[];
	operations: Record<string, OperationModule>;
}
