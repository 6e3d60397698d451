import type { AllEntities } from 'n8n-workflow';

import type { OperationModule } from '../../../shared/descriptions/operationModule';

/**
 * Every resource of the action node with the names of its operations, as n8n's Airtable v2
 * keeps them (`node.type.ts`). Each resource folder's `operations` is typed by it
 * (`OperationsOf`), and the router dispatches through it: an operation added to a folder but
 * not here, or named here but missing there, fails to compile.
 */
type NodeMap = {
	plot: 'register' | 'get' | 'getMany' | 'validate' | 'exportEu' | 'readFile' | 'drawMap';
	job: 'create' | 'getQuote' | 'get' | 'getMany' | 'waitForCompletion' | 'getResults';
	analysisRun: 'get' | 'getMany';
	protectedArea: 'check' | 'get';
	capability: 'getMany';
	account: 'getTokenBalance';
};

/** A resource with one of its operations: `{ resource: 'plot', operation: 'register' }`, … */
export type GeospatialAnalysisType = AllEntities<NodeMap>;

export type Resource = keyof NodeMap;

/** The operation modules of one resource, exactly one for each of its operation names. */
export type OperationsOf<R extends Resource> = { [O in NodeMap[R]]: OperationModule };
