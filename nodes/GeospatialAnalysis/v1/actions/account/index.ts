import { resourceDescription } from '../../../../shared/descriptions/operationSelector';
import type { OperationsOf } from '../node.type';
import * as getTokenBalance from './getTokenBalance.operation';

export const operations: OperationsOf<'account'> = { getTokenBalance };

export const description = resourceDescription(
	'account',
	'getTokenBalance',
	[
		{
			name: 'Get Token Balance',
			value: 'getTokenBalance',
			description:
				"Get the account's analysis token balance: total, reserved (held by jobs that are still running) and free (available for new jobs and checks), plus the service's raw fields. Free of charge (uses no tokens).",
			action: 'Get the token balance — free — returns the total and reserved and free tokens',
		},
	],
	operations,
);
