import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import * as account from './account';
import * as analysisRun from './analysisRun';
import * as capability from './capability';
import * as job from './job';
import type { OperationsOf, Resource } from './node.type';
import type { ResourceModule } from '../../../shared/descriptions/operationModule';
import { routeOperation } from '../../../shared/descriptions/operationRouter';
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

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await routeOperation(this, resources);
}
