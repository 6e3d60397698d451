import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import * as account from './account';
import * as analysisRun from './analysisRun';
import * as capability from './capability';
import * as job from './job';
import type { GeospatialAnalysisType, Resource } from './node.type';
import type { OperationModule, ResourceModule } from './operation';
import * as plot from './plot';
import * as protectedArea from './protectedArea';

export const resources: Record<Resource, ResourceModule> = {
	plot,
	job,
	analysisRun,
	protectedArea,
	capability,
	account,
};

/** The module of a resource's operation (type-checked against node.type.ts), if it has one. */
function operationModule({
	resource,
	operation,
}: GeospatialAnalysisType): OperationModule | undefined {
	const own = <T extends object>(operations: T, name: keyof T) =>
		Object.hasOwn(operations, name) ? (operations[name] as OperationModule) : undefined;
	switch (resource) {
		case 'plot':
			return own(plot.operations, operation);
		case 'job':
			return own(job.operations, operation);
		case 'analysisRun':
			return own(analysisRun.operations, operation);
		case 'protectedArea':
			return own(protectedArea.operations, operation);
		case 'capability':
			return own(capability.operations, operation);
		case 'account':
			return own(account.operations, operation);
		default:
			return undefined;
	}
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
