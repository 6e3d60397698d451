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
/** The common namespace's prefix, declared on every operation element. */
export const C = 'eudrCommon';

/** `<prefix:name>text</prefix:name>`, text escaped; nothing when the value is absent. */
export function el(
	prefix: string,
	name: string,
	value: string | number | boolean | undefined,
): string {
	if (value === undefined) return '';
	return `<${prefix}:${name}>${escapeXml(String(value))}</${prefix}:${name}>`;
}

/** `<prefix:name>…children…</prefix:name>` around already written XML. */
export function wrap(prefix: string, name: string, inner: string): string {
	return `<${prefix}:${name}>${inner}</${prefix}:${name}>`;
}

/** An operation element of a service (`prefix` bound to `ns`) with both namespace declarations on it. */
export function operationElement(prefix: string, ns: string, name: string, inner: string): string {
	return `<${prefix}:${name} xmlns:${prefix}="${ns}" xmlns:${C}="${COMMON_NS}">${inner}</${prefix}:${name}>`;
}

const operation = (name: string, inner: string) => operationElement(D, DDS_NS, name, inner);

/** representedOperator: the wrapper in the service namespace (`prefix`), its children common. */
function representedOperatorXml(prefix: string, o: RepresentedOperator): string {
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
		prefix,
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

/**
 * A commodity's opening, shared by the DDS and the SD commodity types: position?,
 * descriptors (children common), hsHeading; `rest` is what the type has after it.
 */
export function commodityXml(
	prefix: string,
	c: Pick<Commodity, 'position' | 'descriptors' | 'hsHeading'>,
	rest: string,
): string {
	return wrap(
		prefix,
		'commodities',
		el(prefix, 'position', c.position) +
			wrap(
				prefix,
				'descriptors',
				el(C, 'descriptionOfGoods', c.descriptors.descriptionOfGoods) +
					goodsMeasureXml(c.descriptors.goodsMeasure),
			) +
			el(prefix, 'hsHeading', c.hsHeading) +
			rest,
	);
}

/**
 * The `statement` element of the DDS (DueDiligenceStatementBaseType) and of the SD
 * (SimplifiedDeclarationBaseType): the same sequence in each service's namespace (`prefix`),
 * the commodities written by the caller (`commodities`, already XML).
 */
export function declarationXml(
	prefix: string,
	s: Omit<Statement, 'commodities'>,
	commodities: string,
): string {
	return wrap(
		prefix,
		'statement',
		el(prefix, 'internalReferenceNumber', s.internalReferenceNumber) +
			el(prefix, 'activityType', s.activityType) +
			(s.representedOperator ? representedOperatorXml(prefix, s.representedOperator) : '') +
			el(prefix, 'countryOfActivity', s.countryOfActivity) +
			el(prefix, 'borderCrossCountry', s.borderCrossCountry) +
			el(prefix, 'comment', s.comment) +
			commodities +
			el(prefix, 'geoLocationConfidential', s.geoLocationConfidential ? 'true' : 'false') +
			(s.groupedDeclarations ?? [])
				.map((reference) =>
					wrap(prefix, 'groupedDeclarations', el(C, 'groupedDeclaration', reference)),
				)
				.join(''),
	);
}

/** The `statement` element (DueDiligenceStatementBaseType), in the XSD's order. */
export function statementXml(s: Statement): string {
	const commodities = s.commodities
		.map((c) =>
			commodityXml(
				D,
				c,
				(c.speciesInfo ?? []).map(speciesXml).join('') +
					(c.producers ?? []).map(producerXml).join(''),
			),
		)
		.join('');
	return declarationXml(D, s, commodities);
}

/** `<prefix:name>…</prefix:name>` of a referenceAndVerificationNumber (children common). */
export function referenceAndVerificationXml(
	prefix: string,
	referenceNumber: string,
	verificationNumber: string,
): string {
	return wrap(
		prefix,
		'referenceAndVerificationNumber',
		el(C, 'referenceNumber', referenceNumber) + el(C, 'verificationNumber', verificationNumber),
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
		referenceAndVerificationXml(D, referenceNumber, verificationNumber),
	);
}

/**
 * The echo service's request (its schema is in no source: the element names follow the EU's
 * V3 sample, operator-api-reference-v3.md §3.6: `echo:EudrEchoRequest` / `echo:query`).
 */
export function echoBody(query: string): string {
	return `<echo:EudrEchoRequest xmlns:echo="${ECHO_NS}">${el('echo', 'query', query)}</echo:EudrEchoRequest>`;
}
