import { resourceDescription } from '../../../../shared/descriptions/operationSelector';
import type { OperationsOf } from '../node.type';
import * as create from './create.operation';

export const operations: OperationsOf<'dueDiligenceRecord'> = { create };

export const description = resourceDescription(
	'dueDiligenceRecord',
	'create',
	[
		{
			name: 'Create',
			value: 'create',
			description:
				'Make the record of each shipment from the input rows: the plots as filed, their validation and analysis outcomes, the risk decision and its rule, and the statement, as JSON and as an HTML page with a map. Sends nothing.',
			action: 'Create a due diligence record',
		},
	],
	operations,
);
