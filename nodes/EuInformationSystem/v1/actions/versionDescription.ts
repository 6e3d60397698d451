import type { INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { requestTimeoutProperty } from '../../../shared/transport/authenticationFields';
import { EU_CREDENTIAL_TYPE } from '../../../shared/transport/euCredential';
import * as declaration from './declaration';
import * as dueDiligenceRecord from './dueDiligenceRecord';
import * as dueDiligenceStatement from './dueDiligenceStatement';
import * as simplifiedDeclaration from './simplifiedDeclaration';
import { withToolGate } from './toolGate';

/** What version 1 describes beyond the texts of EuInformationSystem.node.ts. */
export type VersionDescription = Omit<
	INodeTypeDescription,
	'displayName' | 'name' | 'description' | 'group'
>;

/** The resources that send no request (the credential and Request Timeout are hidden for them). */
export const RESOURCES_WITHOUT_REQUESTS = ['dueDiligenceRecord'];
const withoutRequests = { resource: RESOURCES_WITHOUT_REQUESTS };

export const versionDescription: VersionDescription = {
	version: 1,
	defaults: { name: 'EU Information System' },
	inputs: [NodeConnectionTypes.Main],
	outputs: [NodeConnectionTypes.Main],
	// Due Diligence Record sends nothing: no credential is shown or needed for it (n8n's editor
	// flags a required credential only where it shows).
	credentials: [
		{ name: EU_CREDENTIAL_TYPE, required: true, displayOptions: { hide: withoutRequests } },
	],
	// As an AI Agent tool: the filing gate and each operation's Tool Description (toolGate.ts).
	properties: withToolGate([
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: [
				{
					name: 'Declaration',
					value: 'declaration',
					description:
						"Any declaration (a due diligence statement or a simplified declaration) by its reference and verification numbers, e.g. a supplier's",
				},
				{
					name: 'Due Diligence Record',
					value: 'dueDiligenceRecord',
					description:
						"A shipment's due-diligence record: what was collected, assessed, decided and filed (kept by your storage; nothing is sent)",
				},
				{
					name: 'Due Diligence Statement',
					value: 'dueDiligenceStatement',
					description: 'An EUDR due-diligence statement (DDS) filed in the EU Information System',
				},
				{
					name: 'Simplified Declaration',
					value: 'simplifiedDeclaration',
					description:
						'A simplified declaration (SD) of a micro or small primary operator in a low-risk country',
				},
			],
			default: 'dueDiligenceStatement',
		},
		...dueDiligenceStatement.description,
		...simplifiedDeclaration.description,
		...declaration.description,
		...dueDiligenceRecord.description,
		// Read by soapRequest (the node's Request Timeout) for every call of every operation.
		{ ...requestTimeoutProperty, displayOptions: { hide: withoutRequests } },
	]),
};
