/**
 * Operations that send no request (Plot → Validate, Export for EU Information System, Read File)
 * need no credential. n8n's editor marks a node whose credential is `required` and shown for
 * its parameters (NodeHelpers.displayParameter on the credential description) as having an
 * issue, and will not run the workflow until one is chosen: so for those operations no
 * credential may be shown, and for every other operation the chosen one must be.
 */
import type { INodeCredentialDescription, INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { GeospatialAnalysis } from '../../../nodes/GeospatialAnalysis/GeospatialAnalysis.node';
import { resources } from '../../../nodes/GeospatialAnalysis/v1/actions/router';
import { OPERATIONS_WITHOUT_REQUESTS } from '../../../nodes/GeospatialAnalysis/v1/actions/versionDescription';

const node = new GeospatialAnalysis();
const description = node.nodeVersions[1].description;
const credentials = description.credentials as INodeCredentialDescription[];
const authentication = description.properties.find(
	(p) => p.name === 'authentication',
) as INodeProperties;

const operations = Object.entries(resources).flatMap(([resource, module]) =>
	Object.keys(module.operations).map((operation) => ({ resource, operation })),
);

/** The credentials n8n's editor would ask for, for these parameters. */
function required(parameters: INodeParameters): string[] {
	return credentials
		.filter((c) => c.required && NodeHelpers.displayParameter(parameters, c, null, description))
		.map((c) => c.name);
}

describe('credentials per operation', () => {
	it('Validate, Export for EU Information System and Read File are the operations without requests', () => {
		expect(OPERATIONS_WITHOUT_REQUESTS.sort()).toEqual(['exportEu', 'readFile', 'validate']);
		for (const op of OPERATIONS_WITHOUT_REQUESTS)
			expect(resources.plot.operations[op]).toBeDefined();
	});

	it.each(operations)('$resource → $operation', ({ resource, operation }) => {
		const sendsNothing = OPERATIONS_WITHOUT_REQUESTS.includes(operation);
		for (const [auth, type] of [
			['apiKey', 'geospatialAnalysisApi'],
			['login', 'geospatialAnalysisLoginApi'],
		]) {
			const parameters = { resource, operation, authentication: auth };
			expect(required(parameters)).toEqual(sendsNothing ? [] : [type]);
		}
		// the Authentication choice is shown only where a credential is used
		expect(
			NodeHelpers.displayParameter({ resource, operation }, authentication, null, description),
		).toBe(!sendsNothing);
	});
});
