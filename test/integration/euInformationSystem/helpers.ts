/**
 * The EU Information System node through n8n's engine against the EU fake: the node and its
 * credential registered with the harness, a credential store for a fake user, and the check
 * that the Authentication Key appears nowhere in a run (as typed, Base64, Base64URL or
 * URL-encoded).
 */
import type { IDataObject, INodeParameters, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { EuInformationSystemApi } from '../../../credentials/EuInformationSystemApi.credentials';
import { EuInformationSystem } from '../../../nodes/EuInformationSystem/EuInformationSystem.node';
import { resetEuRateLimit } from '../../../nodes/shared/transport/euRateLimit';
import type { RunNodeOptions, RunNodeResult } from '../../helpers/engine';
import type { UsedFakeEu } from '../../helpers/fakeEu';
import { useFakeEu } from '../../helpers/fakeEu';
import { squarePlot } from '../../helpers/square';
import {
	CredentialStore,
	registerCredentialType,
	registerNodeType,
	runNode,
} from '../../helpers/engine';

export const EU_NODE_TYPE = 'n8n-nodes-geospatial-analysis.euInformationSystem';
export const EU_TOOL_TYPE = 'n8n-nodes-geospatial-analysis.euInformationSystemTool';
export const EU_CREDENTIAL = 'euInformationSystemApi';

registerNodeType(EU_NODE_TYPE, new EuInformationSystem());
registerCredentialType(EU_CREDENTIAL, new EuInformationSystemApi());

/**
 * The tool variant as n8n names it (what n8n makes of a usableAsTool node: its type named
 * "…Tool"; n8n also swaps its connections for ai_tool: not needed here).
 */
const v1 = new EuInformationSystem().nodeVersions[1] as INodeType;
const toolDescription = structuredClone(v1.description) as INodeTypeDescription;
toolDescription.name += 'Tool';
toolDescription.displayName += ' Tool';
delete toolDescription.usableAsTool;
registerNodeType(EU_TOOL_TYPE, { description: toolDescription, execute: v1.execute });

export interface FakeEuUser {
	username: string;
	key: string;
	clientId: string;
}

/** A credential store holding the fake user's EU credential (Custom URL: the fake). */
export function euStore(url: string, user: FakeEuUser): CredentialStore {
	return new CredentialStore({
		[EU_CREDENTIAL]: {
			environment: 'custom',
			customUrl: url,
			username: user.username,
			authKey: user.key,
			clientId: user.clientId,
			checkedAt: '2026-01-01T00:00:00.000Z',
		},
	});
}

export type EuRunOptions = Omit<RunNodeOptions, 'credentialType' | 'parameters'> & {
	parameters: INodeParameters;
};

/** Runs Input → the EU Information System's tool variant (version 1) with the EU credential. */
export async function runEuTool(options: EuRunOptions): Promise<RunNodeResult> {
	return await runEu({ ...options, nodeType: EU_TOOL_TYPE });
}

/** Runs Input → EU Information System (version 1, or `typeVersion`) with the EU credential. */
export async function runEu(options: EuRunOptions): Promise<RunNodeResult> {
	return await runNode({
		...options,
		parameters: { resource: 'dueDiligenceStatement', ...options.parameters },
		nodeType: options.nodeType ?? EU_NODE_TYPE,
		credentialType: EU_CREDENTIAL,
		typeVersion: options.typeVersion ?? 1,
	});
}

/** Every form the key could leak in: as typed, Base64, Base64URL, URL-encoded. */
export function keyForms(key: string): string[] {
	const bytes = Buffer.from(key, 'utf8');
	return [
		key,
		bytes.toString('base64'),
		bytes.toString('base64').replace(/=+$/, ''),
		bytes.toString('base64url'),
		encodeURIComponent(key),
	];
}

/** The serialized run result (items, error with its description and context, run data). */
export function serializedRun(result: RunNodeResult): string {
	const { error } = result;
	const errorText = error
		? JSON.stringify({
				message: error.message,
				description: error.description,
				context: error.context,
				stack: error.stack,
			})
		: '';
	return `${JSON.stringify(result.items)}\n${errorText}\n${JSON.stringify(result.run)}`;
}

/** The forms of the key found in the run (none expected). */
export function keyLeaks(result: RunNodeResult, key: string): string[] {
	const text = serializedRun(result);
	return keyForms(key).filter((form) => text.includes(form));
}

export const jsonOf = (result: RunNodeResult): IDataObject[] => result.items.map((i) => i.json);

/** A square plot of `side` degrees (0.003: about 330 m) from (x, y): a polygon the fake accepts. */
export { squarePlot };

/**
 * A DDS Submit with every required field (cocoa imported into France, 12,000 kg), the Internal
 * Reference from the input's `referenceField` and the producer's name from its `producer`.
 */
export const ddsSubmitParameters = (
	referenceField: string,
	over: INodeParameters = {},
): INodeParameters => ({
	operation: 'submit',
	internalReference: `={{ $json.${referenceField} }}`,
	activityType: 'IMPORT',
	countryOfActivity: 'FR',
	commodity: 'cocoa',
	hsHeading: '1801',
	descriptionOfGoods: 'Cocoa beans',
	netWeight: '12000',
	producerName: '={{ $json.producer }}',
	...over,
});

/* ── Until the EU fake (test/fake-eu) is merged: answers scripted per operation over loopback ── */

export const DDS_NS = 'http://ec.europa.eu/tracesnt/certificate/eudr/due-diligence-statement/v3';
export const COMMON_NS = 'http://ec.europa.eu/tracesnt/certificate/eudr/common/v3';

export const soap = (body: string) =>
	`<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body>${body}</S:Body></S:Envelope>`;

export interface OverviewXml {
	uuid: string;
	internalReferenceNumber?: string;
	referenceNumber?: string;
	verificationNumber?: string;
	status: string;
	date?: string;
}

export function overviewXml(o: OverviewXml): string {
	const field = (name: string, value?: string) =>
		value === undefined ? '' : `<c:${name}>${value}</c:${name}>`;
	return `<d:ddsOverviewList>${field('uuid', o.uuid)}${field('internalReferenceNumber', o.internalReferenceNumber ?? 'REF-1')}${field('referenceNumber', o.referenceNumber)}${field('verificationNumber', o.verificationNumber)}${field('status', o.status)}${field('date', o.date)}</d:ddsOverviewList>`;
}

export function listXml(element: string, overviews: OverviewXml[]): string {
	return soap(
		`<d:${element} xmlns:d="${DDS_NS}" xmlns:c="${COMMON_NS}">${overviews.map(overviewXml).join('')}</d:${element}>`,
	);
}

/** The SOAP operation a request named (from its SOAPAction). */
export const operationOf = (headers: Record<string, unknown>) =>
	String(headers.soapaction ?? '')
		.replace(/^"|"$/g, '')
		.split('/')
		.pop();

/** The UUIDs a getDds request asked for. */
export const uuidsAsked = (body: string) =>
	[...body.matchAll(/<[^>]*uuidList[^>]*>([^<]+)</g)].map((m) => m[1]);

/** Simplified Declaration → Submit of French oak from plot rows (`ref`, `producer`), with `over` on top. */
export const sdParameters = (over: INodeParameters = {}): INodeParameters => ({
	resource: 'simplifiedDeclaration',
	operation: 'submit',
	internalReference: '={{ $json.ref }}',
	activityType: 'DOMESTIC',
	countryOfActivity: 'FR',
	commodity: 'wood',
	hsHeading: '4403',
	descriptionOfGoods: 'Oak logs',
	netWeight: '25000',
	producerName: '={{ $json.producer }}',
	...over,
});

/** Due Diligence Statement → Submit of cocoa from plot rows (`ref`, `producer`), with `over` on top. */
export const ddsParameters = (over: INodeParameters = {}): INodeParameters => ({
	resource: 'dueDiligenceStatement',
	...ddsSubmitParameters('ref', over),
});

/** A DDS's plot row (Côte d'Ivoire cocoa, a small square from `x`) with its reference in `ref`. */
export const ddsPlotRow = (ref: string, x = -5.3): IDataObject => ({
	geometry: squarePlot(x, 6.5),
	country: 'CI',
	producer: 'Coop A',
	ref,
});

/** An SD's plot row (French oak, a small square) with its reference in `ref`. */
export const sdPlotRow = (ref: string): IDataObject => ({
	geometry: squarePlot(2.5, 44.5),
	country: 'FR',
	producer: 'Ferme A',
	ref,
});

/**
 * The EU fake of a test file, at the pace these tests want (no rate limit; a statement
 * AVAILABLE after 60 s of the fake's clock), with its first user's credential store and the
 * requests it received by operation. Before each test: the node's EU rate limit reset and the
 * fake's faults cleared. After all: every body the node sent validated against the EU's XSDs
 * (the fake refuses others as SCHEMA).
 */
export function useEuFake(): {
	eu: UsedFakeEu;
	store: () => CredentialStore;
	sent: (operation: string) => ReturnType<UsedFakeEu['fake']['requests']>;
} {
	const eu = useFakeEu({ ratePerSecond: 0, availableAfterMs: 60_000 });
	beforeEach(() => {
		resetEuRateLimit();
		eu.fake.faults.clear();
	});
	afterAll(() => {
		const schema = eu.fake.requests().filter((r) => /SCHEMA/i.test(r.outcome));
		expect(schema).toEqual([]);
	});
	return {
		eu,
		store: () => euStore(eu.fake.url, eu.fake.users[0]),
		sent: (operation) => eu.fake.requests().filter((r) => r.operation === operation),
	};
}
