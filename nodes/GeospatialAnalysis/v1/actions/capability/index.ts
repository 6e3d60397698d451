import { resourceDescription } from '../../../../shared/descriptions/operationSelector';
import type { OperationsOf } from '../node.type';
import * as getMany from './getMany.operation';

export const operations: OperationsOf<'capability'> = { getMany };

export const description = resourceDescription(
	'capability',
	'getMany',
	[
		{
			name: 'Get Many',
			value: 'getMany',
			description:
				"List the live catalog of analyses the service offers: one item per capability with its name (the value for a job check's type), label, description, accepted configuration (input_schema) and indicative token cost (cost_hint). Free of charge (uses no tokens).",
			action: 'Get many capabilities — free — returns the checks a job can run',
		},
	],
	operations,
);
