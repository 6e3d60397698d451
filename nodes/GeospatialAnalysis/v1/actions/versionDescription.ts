import type { INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import {
	authenticationProperty,
	credentialsDescription,
	requestTimeoutProperty,
} from '../../../shared/transport/authenticationFields';
import * as account from './account';
import * as analysisRun from './analysisRun';
import * as capability from './capability';
import * as job from './job';
import * as plot from './plot';
import * as protectedArea from './protectedArea';

/**
 * Operations that send no request (Plot → Validate, Export for EU Information System, Read File):
 * no credential is shown or needed for them. n8n's editor flags a credential that is
 * `required` and shown for the node's current parameters, and refuses to run the workflow
 * until one is chosen; hiding both credentials (and the Authentication choice) for these
 * operations lets them run without any (test/unit/credentials/perOperation.test.ts).
 */
export const OPERATIONS_WITHOUT_REQUESTS = ['validate', 'exportEu', 'readFile'];

const withoutRequests = { operation: OPERATIONS_WITHOUT_REQUESTS };

/** What a version of the node describes beyond the texts all versions share (GeospatialAnalysis.node.ts). */
export type VersionDescription = Omit<
	INodeTypeDescription,
	'displayName' | 'name' | 'description' | 'group'
> & {
	displayName?: string;
};

export const versionDescription: VersionDescription = {
	version: 1,
	defaults: { name: 'Geospatial Analysis' },
	inputs: [NodeConnectionTypes.Main],
	outputs: [NodeConnectionTypes.Main],
	credentials: credentialsDescription.map((credential) => ({
		...credential,
		displayOptions: { ...credential.displayOptions, hide: withoutRequests },
	})),
	properties: [
		{ ...authenticationProperty, displayOptions: { hide: withoutRequests } },
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: [
				{ name: 'Account', value: 'account', description: 'Token balance of the account' },
				{
					name: 'Analysis Run',
					value: 'analysisRun',
					description: 'One check of one plot in one job, with its output',
				},
				{
					name: 'Capability',
					value: 'capability',
					description: 'The live catalog of analyses the service offers',
				},
				{ name: 'Job', value: 'job', description: 'A paid analysis of a list of plots' },
				{ name: 'Plot', value: 'plot', description: 'A plot of land registered as GeoJSON' },
				{
					name: 'Protected Area',
					value: 'protectedArea',
					description: 'Protected-area overlap checks and boundaries',
				},
			],
			default: 'plot',
		},
		...plot.description,
		...job.description,
		...analysisRun.description,
		...protectedArea.description,
		...capability.description,
		...account.description,
		// Not for the operations that send nothing.
		{ ...requestTimeoutProperty, displayOptions: { hide: withoutRequests } },
	],
};
