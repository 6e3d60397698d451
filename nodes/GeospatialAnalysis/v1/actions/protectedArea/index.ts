import { resourceDescription } from '../../../../shared/descriptions/operationSelector';
import type { OperationsOf } from '../node.type';
import * as check from './check.operation';
import * as get from './get.operation';

export const operations: OperationsOf<'protectedArea'> = { check, get };

export const description = resourceDescription(
	'protectedArea',
	'check',
	[
		{
			name: 'Check',
			value: 'check',
			description:
				'Check registered plots (by ID) and/or raw geometries against protected-area boundaries without running a job. Costs analysis tokens per checked plot or geometry (1 each on the reference service). Returns the overlap and the overlapping areas with their legality.',
			action:
				'Check plots against protected areas — spends tokens per plot — returns overlap and legality per plot',
		},
		{
			name: 'Get',
			value: 'get',
			description:
				"Get one protected area's boundary and properties (GeoJSON FeatureCollection) by its area ID. Free of charge.",
			action: 'Get a protected area — free — returns its boundary',
		},
	],
	operations,
);
