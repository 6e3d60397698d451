import type { AllEntities } from 'n8n-workflow';

import type { OperationModule } from '../../../shared/descriptions/operationModule';

/**
 * Every resource of the EU Information System node with the names of its operations (as
 * nodes/GeospatialAnalysis/v1/actions/node.type.ts): the router dispatches through it.
 */
type NodeMap = {
	dueDiligenceStatement:
		| 'submit'
		| 'amend'
		| 'withdraw'
		| 'get'
		| 'getByInternalReference'
		| 'getContent';
	simplifiedDeclaration:
		| 'submit'
		| 'update'
		| 'withdraw'
		| 'get'
		| 'getByInternalReference'
		| 'getContent';
	declaration: 'verify';
	dueDiligenceRecord: 'create';
};

export type EuInformationSystemType = AllEntities<NodeMap>;

export type Resource = keyof NodeMap;

export type OperationsOf<R extends Resource> = { [O in NodeMap[R]]: OperationModule };
