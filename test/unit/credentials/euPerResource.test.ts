/**
 * The EU Information System node's credential per resource (as perOperation.test.ts for the
 * action node): Due Diligence Record sends nothing, so n8n's editor may neither show nor ask for
 * the credential there (nor its Request Timeout); every other operation asks for it.
 */
import type { INodeCredentialDescription, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { EuInformationSystem } from '../../../nodes/EuInformationSystem/EuInformationSystem.node';
import { resources } from '../../../nodes/EuInformationSystem/v1/actions/router';
import { RESOURCES_WITHOUT_REQUESTS } from '../../../nodes/EuInformationSystem/v1/actions/versionDescription';

const description = new EuInformationSystem().nodeVersions[1].description;
const credentials = description.credentials as INodeCredentialDescription[];
const timeout = description.properties.find((p) => p.name === 'requestTimeout') as INodeProperties;

const operations = Object.entries(resources).flatMap(([resource, module]) =>
	Object.keys(module.operations).map((operation) => ({ resource, operation })),
);

describe('EU Information System: credential per resource', () => {
	it.each(operations)('$resource → $operation', ({ resource, operation }) => {
		const sendsNothing = RESOURCES_WITHOUT_REQUESTS.includes(resource);
		const parameters = { resource, operation };
		const asked = credentials
			.filter((c) => c.required && NodeHelpers.displayParameter(parameters, c, null, description))
			.map((c) => c.name);
		expect(asked).toEqual(sendsNothing ? [] : ['euInformationSystemApi']);
		expect(timeout).toBeDefined();
		expect(NodeHelpers.displayParameter(parameters, timeout, null, description)).toBe(
			!sendsNothing,
		);
	});

	it('Due Diligence Record is the resource without requests', () => {
		expect(RESOURCES_WITHOUT_REQUESTS).toEqual(['dueDiligenceRecord']);
	});
});
