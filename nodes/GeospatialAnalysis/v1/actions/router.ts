import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import * as account from './account';
import * as analysisRun from './analysisRun';
import * as capability from './capability';
import * as job from './job';
import type { ResourceModule } from './operation';
import * as plot from './plot';
import * as protectedArea from './protectedArea';

export const resources: Record<string, ResourceModule> = {
	plot,
	job,
	analysisRun,
	protectedArea,
	capability,
	account,
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const module = resources[resource]?.operations[operation];
	if (!module) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of resource "${resource}" is not supported by this version of the node`,
			{ description: 'Choose a resource and an operation from the lists.' },
		);
	}
	return [await module.execute.call(this, items)];
}
