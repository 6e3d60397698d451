/**
 * The SOAP body elements of the Simplified Declaration service V3, one function per operation
 * (xsd4-simplified-declaration-v3.xsd). Each returns ONE element carrying its own namespace
 * declarations, in the XSD's sequence order, written with requests.ts's writer (the statement
 * sequence is the DDS's, in the SD namespace); absent optional elements are left out. The
 * SD's own parts: commodities without species, producers `producerPosition?, producerCountry,
 * producerName?, producerLocation` (geometryGeojson | postalAddress ×1–100 |
 * cadastralIdentifier ×1–100), and getSd's `uuidAndVersionNumberList` (a version asks for that
 * version). No business rule is checked here (sdRules.ts does that); every text is escaped.
 * Pure: no n8n imports.
 */
import {
	C,
	MAX_UUIDS_PER_GET,
	commodityXml,
	declarationXml,
	el,
	geojsonBase64,
	operationElement,
	referenceAndVerificationXml,
	wrap,
} from './requests';
import type { SdProducer, SdRole, SimplifiedDeclaration } from './simplified';
import { SD_NS } from './simplified';

/** The operations of the SD service, as the WSDL names them. */
export const SD_OPERATIONS = [
	'submitSd',
	'updateSd',
	'withdrawSd',
	'getSd',
	'getSdByInternalReference',
	'getSdByIdentifiers',
] as const;
export type SdOperation = (typeof SD_OPERATIONS)[number];

/** getSd takes at most this many entries (uuidAndVersionNumberList maxOccurs="100"). */
export const MAX_SD_PER_GET = MAX_UUIDS_PER_GET;

const S = 'sd';
const operation = (name: string, inner: string) => operationElement(S, SD_NS, name, inner);

function locationXml(p: SdProducer): string {
	const l = p.producerLocation;
	let inner: string;
	if ('geometryGeojson' in l) inner = el(S, 'geometryGeojson', geojsonBase64(l.geometryGeojson));
	else if ('postalAddress' in l)
		inner = l.postalAddress
			.map((a) =>
				wrap(
					S,
					'postalAddress',
					el(S, 'producerStreet', a.producerStreet) +
						el(S, 'producerPostalCode', a.producerPostalCode) +
						el(S, 'producerCity', a.producerCity),
				),
			)
			.join('');
	else inner = l.cadastralIdentifier.map((id) => el(S, 'cadastralIdentifier', id)).join('');
	return wrap(S, 'producerLocation', inner);
}

function producerXml(p: SdProducer): string {
	return wrap(
		S,
		'producers',
		el(S, 'producerPosition', p.producerPosition) +
			el(S, 'producerCountry', p.producerCountry) +
			el(S, 'producerName', p.producerName) +
			locationXml(p),
	);
}

/** The `statement` element (SimplifiedDeclarationBaseType), in the XSD's order. */
export function sdStatementXml(d: SimplifiedDeclaration): string {
	const commodities = d.commodities
		.map((c) => commodityXml(S, c, (c.producers ?? []).map(producerXml).join('')))
		.join('');
	return declarationXml(S, d, commodities);
}

export function submitSdBody(role: SdRole, declaration: SimplifiedDeclaration): string {
	return operation('SubmitSdRequest', el(S, 'operatorRole', role) + sdStatementXml(declaration));
}

/** Update sends the complete declaration; the EU keeps it as a new version. */
export function updateSdBody(uuid: string, declaration: SimplifiedDeclaration): string {
	return operation('UpdateSdRequest', el(S, 'sdIdentifier', uuid) + sdStatementXml(declaration));
}

export function withdrawSdBody(uuid: string): string {
	return operation('WithdrawSdRequest', el(S, 'sdIdentifier', uuid));
}

/** 1 to MAX_SD_PER_GET entries (the caller batches); more or none is a programming error. */
export function getSdBody(wanted: ReadonlyArray<{ uuid: string; version?: number }>): string {
	if (wanted.length < 1 || wanted.length > MAX_SD_PER_GET)
		throw new RangeError(`getSd takes 1 to ${MAX_SD_PER_GET} UUIDs, not ${wanted.length}`);
	return operation(
		'GetSdRequest',
		wanted
			.map((w) =>
				wrap(
					S,
					'uuidAndVersionNumberList',
					el(C, 'uuid', w.uuid) + el(C, 'versionNumber', w.version),
				),
			)
			.join(''),
	);
}

export function getSdByInternalReferenceBody(internalReference: string): string {
	return operation(
		'GetSdByInternalReferenceRequest',
		el(S, 'internalReference', internalReference),
	);
}

export function getSdByIdentifiersBody(
	referenceNumber: string,
	verificationNumber: string,
): string {
	return operation(
		'GetSdByIdentifiersRequest',
		referenceAndVerificationXml(S, referenceNumber, verificationNumber),
	);
}
