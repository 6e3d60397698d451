/**
 * SD and Verify pieces of the fake's contract tests: request bodies in the shape of the EU
 * samples [OPREF §5.2], [DSREF §5.1] (sd/eudrCommon/verify prefixes declared on the envelope),
 * posted with the SOAPAction each WSDL binds (pack §2).
 */
import type { EnvelopeOptions } from '../client';
import { envelope, geo, post } from '../client';
import type { FakeEu } from '../index';
import { DEFAULT_AVAILABLE_AFTER_MS, SD_PATH, VERIFY_PATH } from '../index';
import { COMMON_NS, DDS_NS, SD_NS, VERIFY_ACTION, VERIFY_NS } from '../xml';
import type { Read } from './harness';
import { readAnswer, textIn, userOf } from './harness';

const SD_READS = ['getSd', 'getSdByInternalReference', 'getSdByIdentifiers'];
/** The SOAPAction the SD WSDL binds: writes in the SD namespace, reads in the DDS one. */
export const sdAction = (operation: string) =>
	`${SD_READS.includes(operation) ? DDS_NS : SD_NS}/${operation}`;

const NS_DECLS = ` xmlns:sd="${SD_NS}" xmlns:eudrCommon="${COMMON_NS}" xmlns:verify="${VERIFY_NS}"`;

export async function callSd(
	eu: FakeEu,
	operation: string,
	body: string,
	o: { security?: Partial<EnvelopeOptions>; action?: string | null } = {},
): Promise<Read> {
	const answer = await post(
		`${eu.url}${SD_PATH}`,
		envelope(body, userOf(eu, o.security), NS_DECLS),
		o.action === undefined ? sdAction(operation) : o.action,
	);
	return readAnswer(answer.status, answer.text);
}

export async function callVerify(
	eu: FakeEu,
	reference: string,
	verification: string,
	o: { security?: Partial<EnvelopeOptions>; action?: string | null } = {},
): Promise<Read & { text: string }> {
	const body = `<verify:VerifyDeclarationRequest><verify:referenceNumber>${reference}</verify:referenceNumber><verify:verificationNumber>${verification}</verify:verificationNumber></verify:VerifyDeclarationRequest>`;
	const answer = await post(
		`${eu.url}${VERIFY_PATH}`,
		envelope(body, userOf(eu, o.security), NS_DECLS),
		o.action === undefined ? VERIFY_ACTION : o.action,
	);
	return { ...readAnswer(answer.status, answer.text), text: answer.text };
}

export const POINT = geo({ type: 'Point', coordinates: [4.351721, 50.850346] });

export type SdProducer =
	| { geometry: string }
	| { addresses: Array<{ street?: string; postalCode: string; city: string }> }
	| { cadastral: string[] };

export interface SdSpec {
	role?: string;
	/** '' = an empty element (the system generates one). */
	internalReference?: string;
	activity?: string;
	comment?: string;
	hs?: string;
	measure?: { netWeight?: string; unit?: string; qualifier?: string };
	producers?: SdProducer[];
	grouped?: string[];
	represented?: boolean;
}

function producerXml(p: SdProducer, i: number): string {
	let location: string;
	if ('geometry' in p) location = `<sd:geometryGeojson>${p.geometry}</sd:geometryGeojson>`;
	else if ('addresses' in p)
		location = p.addresses
			.map(
				(a) =>
					`<sd:postalAddress>${a.street !== undefined ? `<sd:producerStreet>${a.street}</sd:producerStreet>` : ''}<sd:producerPostalCode>${a.postalCode}</sd:producerPostalCode><sd:producerCity>${a.city}</sd:producerCity></sd:postalAddress>`,
			)
			.join('');
	else
		location = p.cadastral
			.map((c) => `<sd:cadastralIdentifier>${c}</sd:cadastralIdentifier>`)
			.join('');
	return `<sd:producers><sd:producerPosition>${i + 1}</sd:producerPosition><sd:producerCountry>BE</sd:producerCountry><sd:producerName>Producer ${i + 1}</sd:producerName><sd:producerLocation>${location}</sd:producerLocation></sd:producers>`;
}

/** An SD statement element (the order of SimplifiedDeclarationBaseType). */
export function sdStatementXml(s: SdSpec = {}): string {
	const m = { netWeight: '200', ...s.measure };
	const measure =
		(m.netWeight !== undefined
			? `<eudrCommon:netWeight>${m.netWeight}</eudrCommon:netWeight>`
			: '') +
		(m.unit !== undefined
			? `<eudrCommon:supplementaryUnit>${m.unit}</eudrCommon:supplementaryUnit>`
			: '') +
		(m.qualifier !== undefined
			? `<eudrCommon:supplementaryUnitQualifier>${m.qualifier}</eudrCommon:supplementaryUnitQualifier>`
			: '');
	const represented = s.represented
		? '<sd:representedOperator><eudrCommon:operatorReferenceNumber><eudrCommon:identifierType>eori</eudrCommon:identifierType><eudrCommon:identifierValue>BE0123456789</eudrCommon:identifierValue></eudrCommon:operatorReferenceNumber><eudrCommon:operatorName>Small Farm BV</eudrCommon:operatorName></sd:representedOperator>'
		: '';
	return (
		'<sd:statement>' +
		`<sd:internalReferenceNumber>${s.internalReference ?? 'SD-1'}</sd:internalReferenceNumber>` +
		`<sd:activityType>${s.activity ?? 'IMPORT'}</sd:activityType>${represented}` +
		'<sd:countryOfActivity>BE</sd:countryOfActivity><sd:borderCrossCountry>BE</sd:borderCrossCountry>' +
		(s.comment !== undefined ? `<sd:comment>${s.comment}</sd:comment>` : '') +
		'<sd:commodities><sd:position>1</sd:position><sd:descriptors><eudrCommon:descriptionOfGoods>Cocoa beans</eudrCommon:descriptionOfGoods>' +
		`<eudrCommon:goodsMeasure>${measure}</eudrCommon:goodsMeasure></sd:descriptors>` +
		`<sd:hsHeading>${s.hs ?? '1801'}</sd:hsHeading>` +
		(s.producers ?? [{ geometry: POINT }]).map(producerXml).join('') +
		'</sd:commodities><sd:geoLocationConfidential>false</sd:geoLocationConfidential>' +
		(s.grouped ?? [])
			.map(
				(r) =>
					`<sd:groupedDeclarations><eudrCommon:groupedDeclaration>${r}</eudrCommon:groupedDeclaration></sd:groupedDeclarations>`,
			)
			.join('') +
		'</sd:statement>'
	);
}

export const submitSdBody = (s: SdSpec = {}) =>
	`<sd:SubmitSdRequest><sd:operatorRole>${s.role ?? 'MICRO_OPERATOR'}</sd:operatorRole>${sdStatementXml(s)}</sd:SubmitSdRequest>`;
export const updateSdBody = (uuid: string, s: SdSpec = {}) =>
	`<sd:UpdateSdRequest><sd:sdIdentifier>${uuid}</sd:sdIdentifier>${sdStatementXml(s)}</sd:UpdateSdRequest>`;
export const withdrawSdBody = (uuid: string) =>
	`<sd:WithdrawSdRequest><sd:sdIdentifier>${uuid}</sd:sdIdentifier></sd:WithdrawSdRequest>`;
export const getSdBody = (wanted: Array<{ uuid: string; version?: number }>) =>
	`<sd:GetSdRequest>${wanted
		.map(
			(w) =>
				`<sd:uuidAndVersionNumberList><eudrCommon:uuid>${w.uuid}</eudrCommon:uuid>${w.version !== undefined ? `<eudrCommon:versionNumber>${w.version}</eudrCommon:versionNumber>` : ''}</sd:uuidAndVersionNumberList>`,
		)
		.join('')}</sd:GetSdRequest>`;
export const sdByReferenceBody = (ref: string) =>
	`<sd:GetSdByInternalReferenceRequest><sd:internalReference>${ref}</sd:internalReference></sd:GetSdByInternalReferenceRequest>`;
export const sdByIdentifiersBody = (ref: string, ver: string) =>
	`<sd:GetSdByIdentifiersRequest><sd:referenceAndVerificationNumber><eudrCommon:referenceNumber>${ref}</eudrCommon:referenceNumber><eudrCommon:verificationNumber>${ver}</eudrCommon:verificationNumber></sd:referenceAndVerificationNumber></sd:GetSdByIdentifiersRequest>`;

/** Submits an SD and returns its identifier (throws on a fault). */
export async function submitSd(eu: FakeEu, s: SdSpec = {}): Promise<string> {
	const read = await callSd(eu, 'submitSd', submitSdBody(s));
	if (!read.body) throw new Error(`submitSd refused: ${JSON.stringify(read.fault)}`);
	return textIn(read.body, 'sdIdentifier', SD_NS) as string;
}

/** Submits an SD and lets the lifecycle make it AVAILABLE; returns the stored statement. */
export async function availableSd(eu: FakeEu, s: SdSpec = {}) {
	const uuid = await submitSd(eu, s);
	eu.clock.advance(DEFAULT_AVAILABLE_AFTER_MS);
	return eu.statements().find((x) => x.uuid === uuid)!;
}
