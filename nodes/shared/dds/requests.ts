/**
 * The SOAP body elements of the Due Diligence Statement service V3, one function per
 * operation. Each returns ONE element carrying its own namespace declarations, so that it is
 * well-formed and valid on its own (tests validate every one against the EU's XSD). Elements
 * are written in the XSD's sequence order (xsd4-due-diligence-statement-v3.xsd and the
 * common schema); absent optional elements are left out, never written empty. Statement
 * elements are in the service namespace; the children of descriptors, goodsMeasure,
 * representedOperator, groupedDeclarations and referenceAndVerificationNumber in the common
 * one (pack README §4.1). No business rule is checked here (rules.ts does that); every text is
 * escaped, so any string gives well-formed XML. Pure: no n8n imports.
 */
import { escapeXml } from '../soap/escape';
import type {
	Commodity,
	GoodsMeasure,
	OperatorRole,
	Producer,
	RepresentedOperator,
	Species,
	Statement,
} from './statement';
import { COMMON_NS, DDS_NS, ECHO_NS } from './statement';

/** getDds takes at most this many UUIDs (uuidList maxOccurs="100"). */
export const MAX_UUIDS_PER_GET = 100;

/** The operations of the DDS service, as the WSDL names them (and their SOAPAction suffix). */
export const DDS_OPERATIONS = [
	'submitDds',
	'amendDds',
	'withdrawDds',
	'getDds',
	'getDdsByInternalReference',
	'getDdsByIdentifiers',
] as const;
export type DdsOperation = (typeof DDS_OPERATIONS)[number];

const D = 'dds';
const C = 'eudrCommon';

/** `<prefix:name>text</prefix:name>`, text escaped; nothing when the value is absent. */
function el(prefix: string, name: string, value: string | number | boolean | undefined): string {
	if (value === undefined) return '';
	return `<${prefix}:${name}>${escapeXml(String(value))}</${prefix}:${name}>`;
}

/** `<prefix:name>…children…</prefix:name>` around already written XML. */
function wrap(prefix: string, name: string, inner: string): string {
	return `<${prefix}:${name}>${inner}</${prefix}:${name}>`;
}

/** The operation element with both namespace declarations on it. */
function operation(name: string, inner: string): string {
	return `<${D}:${name} xmlns:${D}="${DDS_NS}" xmlns:${C}="${COMMON_NS}">${inner}</${D}:${name}>`;
}

function representedOperatorXml(o: RepresentedOperator): string {
	const ids = (o.operatorReferenceNumber ?? [])
		.map((r) =>
			wrap(
				C,
				'operatorReferenceNumber',
				el(C, 'identifierType', r.identifierType) + el(C, 'identifierValue', r.identifierValue),
			),
		)
		.join('');
	const a = o.operatorAddress;
	const address = a
		? wrap(
				C,
				'operatorAddress',
				el(C, 'country', a.country) +
					el(C, 'street', a.street) +
					el(C, 'postalCode', a.postalCode) +
					el(C, 'city', a.city) +
					el(C, 'fullAddress', a.fullAddress),
			)
		: '';
	return wrap(
		D,
		'representedOperator',
		ids +
			address +
			el(C, 'operatorEmail', o.operatorEmail) +
			el(C, 'operatorPhone', o.operatorPhone) +
			el(C, 'operatorName', o.operatorName),
	);
}

function goodsMeasureXml(m: GoodsMeasure): string {
	return wrap(
		C,
		'goodsMeasure',
		el(C, 'percentageEstimationOrDeviation', m.percentageEstimationOrDeviation) +
			el(C, 'netWeight', m.netWeight) +
			el(C, 'supplementaryUnit', m.supplementaryUnit) +
			el(C, 'supplementaryUnitQualifier', m.supplementaryUnitQualifier),
	);
}

function speciesXml(s: Species): string {
	return wrap(
		D,
		'speciesInfo',
		el(D, 'scientificName', s.scientificName) + el(D, 'commonName', s.commonName),
	);
}

/** geometryGeojson is xs:base64Binary: Base64 of the GeoJSON's UTF-8 text. */
export function geojsonBase64(geojson: string): string {
	return Buffer.from(geojson, 'utf8').toString('base64');
}

function producerXml(p: Producer): string {
	return wrap(
		D,
		'producers',
		el(D, 'position', p.position) +
			el(D, 'country', p.country) +
			el(D, 'name', p.name) +
			el(D, 'geometryGeojson', geojsonBase64(p.geometryGeojson)),
	);
}

function commodityXml(c: Commodity): string {
	return wrap(
		D,
		'commodities',
		el(D, 'position', c.position) +
			wrap(
				D,
				'descriptors',
				el(C, 'descriptionOfGoods', c.descriptors.descriptionOfGoods) +
					goodsMeasureXml(c.descriptors.goodsMeasure),
			) +
			el(D, 'hsHeading', c.hsHeading) +
			(c.speciesInfo ?? []).map(speciesXml).join('') +
			(c.producers ?? []).map(producerXml).join(''),
	);
}

/** The `statement` element (DueDiligenceStatementBaseType), in the XSD's order. */
export function statementXml(s: Statement): string {
	return wrap(
		D,
		'statement',
		el(D, 'internalReferenceNumber', s.internalReferenceNumber) +
			el(D, 'activityType', s.activityType) +
			(s.representedOperator ? representedOperatorXml(s.representedOperator) : '') +
			el(D, 'countryOfActivity', s.countryOfActivity) +
			el(D, 'borderCrossCountry', s.borderCrossCountry) +
			el(D, 'comment', s.comment) +
			s.commodities.map(commodityXml).join('') +
			el(D, 'geoLocationConfidential', s.geoLocationConfidential ? 'true' : 'false') +
			(s.groupedDeclarations ?? [])
				.map((reference) => wrap(D, 'groupedDeclarations', el(C, 'groupedDeclaration', reference)))
				.join(''),
	);
}

export function submitDdsBody(role: OperatorRole, statement: Statement): string {
	return operation('SubmitDdsRequest', el(D, 'operatorRole', role) + statementXml(statement));
}

/** Amend sends the complete statement: it replaces the previous content (pack §4.1). */
export function amendDdsBody(uuid: string, statement: Statement): string {
	return operation('AmendDdsRequest', el(D, 'uuid', uuid) + statementXml(statement));
}

export function withdrawDdsBody(uuid: string): string {
	return operation('WithdrawDdsRequest', el(D, 'uuid', uuid));
}

/** 1 to MAX_UUIDS_PER_GET UUIDs (the caller batches); more is a programming error. */
export function getDdsBody(uuids: readonly string[]): string {
	if (uuids.length < 1 || uuids.length > MAX_UUIDS_PER_GET)
		throw new RangeError(`getDds takes 1 to ${MAX_UUIDS_PER_GET} UUIDs, not ${uuids.length}`);
	return operation('GetDdsRequest', uuids.map((u) => el(D, 'uuidList', u)).join(''));
}

export function getDdsByInternalReferenceBody(internalReference: string): string {
	return operation(
		'GetDdsByInternalReferenceRequest',
		el(D, 'internalReference', internalReference),
	);
}

export function getDdsByIdentifiersBody(
	referenceNumber: string,
	verificationNumber: string,
): string {
	return operation(
		'GetDdsByIdentifiersRequest',
		wrap(
			D,
			'referenceAndVerificationNumber',
			el(C, 'referenceNumber', referenceNumber) + el(C, 'verificationNumber', verificationNumber),
		),
	);
}

/**
 * The echo service's request (its schema is in no source: the element names follow the EU's
 * V3 sample, operator-api-reference-v3.md §3.6: `echo:EudrEchoRequest` / `echo:query`).
 */
export function echoBody(query: string): string {
	return `<echo:EudrEchoRequest xmlns:echo="${ECHO_NS}">${el('echo', 'query', query)}</echo:EudrEchoRequest>`;
}
