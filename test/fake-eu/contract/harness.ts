/** Shared pieces of the fake's contract tests: fixtures of the pack's samples, calls, answer reading. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EnvelopeOptions } from '../client';
import { ddsAction, envelope, post, securityHeader } from '../client';
import type { FakeEu, FakeEuOptions } from '../index';
import { startFakeEu } from '../index';
import {
	DDS_NS,
	ERROR_NS,
	SOAP_ENV_NS,
	elementChildren,
	kid,
	kidText,
	kids,
	parseDocument,
} from '../xml';
import type { El } from '../xml';

export const REQUESTS_DIR = join(
	__dirname,
	'..',
	'..',
	'fixtures',
	'eu-information-system',
	'requests',
);

/** A fixture (EU sample of OPREF §5, see its first line) with our header and the given values. */
export function fixture(
	name: string,
	values: Record<string, string>,
	security: EnvelopeOptions,
): string {
	const text = readFileSync(join(REQUESTS_DIR, `${name}.xml`), 'utf8').replace(
		/^<!--[\s\S]*?-->\n/,
		'',
	);
	return text
		.replace('{{wsse_security}}', securityHeader(security))
		.replace('{{client_id}}', security.clientId)
		.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => values[key] ?? whole);
}

export function userOf(eu: FakeEu, extra: Partial<EnvelopeOptions> = {}): EnvelopeOptions {
	const { username, key, clientId } = eu.users[0];
	return { username, key, clientId, ...extra };
}

export interface Read {
	status: number;
	body: El | undefined;
	fault?: {
		code: string;
		string: string;
		name: string | null;
		errors: Array<{ id: string; message: string; field: string | null }>;
	};
	requestId: string | null;
}

export function readAnswer(status: number, text: string): Read {
	const env = parseDocument(text);
	const body = kid(env, SOAP_ENV_NS, 'Body');
	const first = body ? elementChildren(body)[0] : undefined;
	const header = kid(env, SOAP_ENV_NS, 'Header');
	const message = header
		? elementChildren(header).find((e) => e.localName === 'Message')
		: undefined;
	const requestId = message
		? (elementChildren(message).find((e) => e.localName === 'Value')?.textContent ?? null)
		: null;
	if (first && first.localName === 'Fault' && first.namespaceURI === SOAP_ENV_NS) {
		const detail = kid(first, null, 'detail');
		const named = detail ? elementChildren(detail)[0] : undefined;
		return {
			status,
			body: undefined,
			requestId,
			fault: {
				code: kidText(first, null, 'faultcode') ?? '',
				string: kidText(first, null, 'faultstring') ?? '',
				name: named?.localName ?? null,
				errors: named
					? kids(named, ERROR_NS, 'Error').map((e) => ({
							id: kidText(e, ERROR_NS, 'ID') ?? '',
							message: kidText(e, ERROR_NS, 'Message') ?? '',
							field: kidText(e, ERROR_NS, 'Field') ?? null,
						}))
					: [],
			},
		};
	}
	return { status, body: first, requestId };
}

/** Posts a whole envelope to the DDS service with the operation's SOAPAction. */
export async function callDds(
	eu: FakeEu,
	operation: string,
	text: string,
	action: string | null = ddsAction(operation),
): Promise<Read> {
	const answer = await post(`${eu.url}ws/EUDRDueDiligenceStatementServiceV3`, text, action);
	return readAnswer(answer.status, answer.text);
}

export const textIn = (el: El | undefined, name: string, ns = DDS_NS) =>
	el ? kidText(el, ns, name) : undefined;

/** Submits the §5.1.1 sample and returns its uuid. */
export async function submitSample(eu: FakeEu, comment?: string): Promise<string> {
	let text = fixture('submitDds', {}, userOf(eu));
	if (comment !== undefined)
		text = text.replace(
			'<dds:commodities>',
			`<dds:comment>${comment}</dds:comment> <dds:commodities>`,
		);
	const read = await callDds(eu, 'submitDds', text);
	if (!read.body) throw new Error(`submit refused: ${JSON.stringify(read.fault)}`);
	return textIn(read.body, 'uuid') as string;
}

export interface StatementSpec {
	role?: string;
	internalReference?: string;
	activity?: string;
	comment?: string;
	hs?: string;
	/** goodsMeasure children, in XSD order. */
	measure?: { percentage?: string; netWeight?: string; unit?: string; qualifier?: string };
	species?: Array<{ scientific?: string; common?: string }>;
	/** Base64 GeoJSON of each producer (default one Point). */
	producers?: string[];
	grouped?: string[];
	represented?: boolean;
}

const POINT = Buffer.from(
	JSON.stringify({ type: 'Point', coordinates: [-47.882778, -15.793889] }),
).toString('base64');

/** A statement element (dds/eudrCommon prefixes, declared by the envelope built by `request`). */
export function statementXml(s: StatementSpec = {}): string {
	const m = { netWeight: '1000', ...s.measure };
	const measure =
		(m.percentage !== undefined
			? `<eudrCommon:percentageEstimationOrDeviation>${m.percentage}</eudrCommon:percentageEstimationOrDeviation>`
			: '') +
		(m.netWeight !== undefined && m.netWeight !== ''
			? `<eudrCommon:netWeight>${m.netWeight}</eudrCommon:netWeight>`
			: '') +
		(m.unit !== undefined
			? `<eudrCommon:supplementaryUnit>${m.unit}</eudrCommon:supplementaryUnit>`
			: '') +
		(m.qualifier !== undefined
			? `<eudrCommon:supplementaryUnitQualifier>${m.qualifier}</eudrCommon:supplementaryUnitQualifier>`
			: '');
	const species = (s.species ?? [])
		.map(
			(x) =>
				`<dds:speciesInfo>${x.scientific !== undefined ? `<dds:scientificName>${x.scientific}</dds:scientificName>` : ''}${x.common !== undefined ? `<dds:commonName>${x.common}</dds:commonName>` : ''}</dds:speciesInfo>`,
		)
		.join('');
	const producers = (s.producers ?? [POINT])
		.map(
			(g) =>
				`<dds:producers><dds:country>BR</dds:country><dds:geometryGeojson>${g}</dds:geometryGeojson></dds:producers>`,
		)
		.join('');
	const represented = s.represented
		? '<dds:representedOperator><eudrCommon:operatorReferenceNumber><eudrCommon:identifierType>eori</eudrCommon:identifierType><eudrCommon:identifierValue>BE0123456789</eudrCommon:identifierValue></eudrCommon:operatorReferenceNumber><eudrCommon:operatorName>Represented SA</eudrCommon:operatorName></dds:representedOperator>'
		: '';
	return (
		'<dds:statement>' +
		`<dds:internalReferenceNumber>${s.internalReference ?? 'REF-1'}</dds:internalReferenceNumber>` +
		`<dds:activityType>${s.activity ?? 'IMPORT'}</dds:activityType>${represented}` +
		'<dds:countryOfActivity>FR</dds:countryOfActivity>' +
		(s.comment !== undefined ? `<dds:comment>${s.comment}</dds:comment>` : '') +
		`<dds:commodities><dds:descriptors><eudrCommon:descriptionOfGoods>Goods</eudrCommon:descriptionOfGoods><eudrCommon:goodsMeasure>${measure}</eudrCommon:goodsMeasure></dds:descriptors>` +
		`<dds:hsHeading>${s.hs ?? '1801'}</dds:hsHeading>${species}${producers}</dds:commodities>` +
		'<dds:geoLocationConfidential>false</dds:geoLocationConfidential>' +
		(s.grouped ?? [])
			.map(
				(r) =>
					`<dds:groupedDeclarations><eudrCommon:groupedDeclaration>${r}</eudrCommon:groupedDeclaration></dds:groupedDeclarations>`,
			)
			.join('') +
		'</dds:statement>'
	);
}

const NS_DECLS = ` xmlns:dds="${DDS_NS}" xmlns:eudrCommon="http://ec.europa.eu/tracesnt/certificate/eudr/common/v3"`;

/** Posts one operation element (dds/eudrCommon prefixes declared on the envelope). */
export async function request(
	eu: FakeEu,
	operation: string,
	body: string,
	security: Partial<EnvelopeOptions> = {},
): Promise<Read> {
	return callDds(eu, operation, envelope(body, userOf(eu, security), NS_DECLS));
}

export const submitBody = (s: StatementSpec = {}) =>
	`<dds:SubmitDdsRequest><dds:operatorRole>${s.role ?? 'OPERATOR'}</dds:operatorRole>${statementXml(s)}</dds:SubmitDdsRequest>`;
export const amendBody = (uuid: string, s: StatementSpec = {}) =>
	`<dds:AmendDdsRequest><dds:uuid>${uuid}</dds:uuid>${statementXml(s)}</dds:AmendDdsRequest>`;
export const withdrawBody = (uuid: string) =>
	`<dds:WithdrawDdsRequest><dds:uuid>${uuid}</dds:uuid></dds:WithdrawDdsRequest>`;
export const getDdsBody = (uuids: string[]) =>
	`<dds:GetDdsRequest>${uuids.map((u) => `<dds:uuidList>${u}</dds:uuidList>`).join('')}</dds:GetDdsRequest>`;
export const byReferenceBody = (ref: string) =>
	`<dds:GetDdsByInternalReferenceRequest><dds:internalReference>${ref}</dds:internalReference></dds:GetDdsByInternalReferenceRequest>`;
export const byIdentifiersBody = (ref: string, ver: string) =>
	`<dds:GetDdsByIdentifiersRequest><dds:referenceAndVerificationNumber><eudrCommon:referenceNumber>${ref}</eudrCommon:referenceNumber><eudrCommon:verificationNumber>${ver}</eudrCommon:verificationNumber></dds:referenceAndVerificationNumber></dds:GetDdsByIdentifiersRequest>`;

/** Submits a statement and returns its uuid (throws on a fault). */
export async function submit(eu: FakeEu, s: StatementSpec = {}): Promise<string> {
	const read = await request(eu, 'submitDds', submitBody(s));
	if (!read.body) throw new Error(`submit refused: ${JSON.stringify(read.fault)}`);
	return textIn(read.body, 'uuid') as string;
}

export const codes = (read: Read) => read.fault?.errors.map((e) => e.id) ?? [];

/**
 * A contract test file's fakes: `fake(options)` starts one (no rate limit, then `defaults`,
 * then `options`); every fake started is stopped after each test. Call once, at the top level.
 */
export function useFakes(defaults: FakeEuOptions = {}): (o?: FakeEuOptions) => Promise<FakeEu> {
	const started: FakeEu[] = [];
	afterEach(async () => {
		for (const eu of started.splice(0)) await eu.stop();
	});
	return async (o = {}) => {
		const eu = await startFakeEu({ ratePerSecond: 0, ...defaults, ...o });
		started.push(eu);
		return eu;
	};
}
