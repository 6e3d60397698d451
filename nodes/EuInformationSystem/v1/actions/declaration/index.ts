import { resourceDescription } from '../../../../shared/descriptions/operationSelector';
import type { OperationsOf } from '../node.type';
import * as verify from './verify.operation';

export const operations: OperationsOf<'declaration'> = { verify };

export const description = resourceDescription(
	'declaration',
	'verify',
	[
		{
			name: 'Verify',
			value: 'verify',
			description:
				"Check that a supplier's reference number and verification number name a due diligence statement or simplified declaration that exists and can be used",
			action: 'Verify a declaration',
		},
	],
	operations,
);
