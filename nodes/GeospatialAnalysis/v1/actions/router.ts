import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import * as account from './account';
import * as analysisRun from './analysisRun';
import * as capability from './capability';
import * as job from './job';
import type { GeospatialAnalysisType, OperationsOf, Resource } from './node.type';
import type { OperationModule, ResourceModule } from '../../../shared/descriptions/operationModule';
import * as plot from './plot';
import * as protectedArea from './protectedArea';

/** Every resource folder, each with exactly the operations node.type.ts names for it. */
export const resources: { [R in Resource]: ResourceModule & { operations: OperationsOf<R> } } = {
	plot,
	job,
	analysisRun,
	protectedArea,
	capability,
	account,
};

/** The module of a resource's operation (typed by node.type.ts), if it has one. */
function operationModule({
	resource,
	operation,
}: GeospatialAnalysisType): OperationModule | undefined {
	if (!Object.hasOwn(resources, resource)) return undefined;
	const operations: Record<string, OperationModule> = resources[resource].operations;
	return Object.hasOwn(operations, operation) ? operations[operation] : undefined;
}

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const module = operationModule({ resource, operation } as GeospatialAnalysisType);
	if (!module) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of resource "${resource}" is not supported by this version of the node`,
			{ description: 'Choose a resource and an operation from the lists.' },
		);
	}
	return [await module.execute.call(this, items)];
}
