/**
 * A due-diligence statement as the node holds it: the EU Information System's V3
 * `DueDiligenceStatementBaseType` (xsd4-due-diligence-statement-v3.xsd and the common
 * schema), in the XSD's element names and order, as plain data. The request builders
 * (requests.ts) write it as XML in exactly this order; the pre-flight (rules.ts) checks it
 * against the XSD's facets and the EU's validation rules before anything is sent.
 * Pure: no n8n imports.
 */

export const DDS_NS = 'http://ec.europa.eu/tracesnt/certificate/eudr/due-diligence-statement/v3';
export const COMMON_NS = 'http://ec.europa.eu/tracesnt/certificate/eudr/common/v3';
export const BASE_NS = 'http://ec.europa.eu/sanco/tracesnt/base/v4';
export const BODY_NS = 'http://ec.europa.eu/tracesnt/body/v3';
export const ERROR_NS = 'http://ec.europa.eu/sanco/tracesnt/error/v01';
export const ECHO_NS = 'http://ec.europa.eu/tracesnt/eudr/echo';

export const ACTIVITY_TYPES = ['DOMESTIC', 'IMPORT', 'EXPORT'] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

export const OPERATOR_ROLES = ['OPERATOR', 'REPRESENTATIVE_OPERATOR'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** EconomicOperatorReferenceNumberType's identifierType enumeration (common schema). */
export const IDENTIFIER_TYPES = [
	'eori',
	'vat',
	'gln',
	'tin',
	'cbr',
	'cin',
	'duns',
	'comp_num',
	'comp_reg',
	'oni',
] as const;
export type IdentifierType = (typeof IDENTIFIER_TYPES)[number];

/** EudrStatusType (common schema); any other value the service sends is passed through. */
export const KNOWN_STATUSES = [
	'SUBMITTED',
	'AVAILABLE',
	'REJECTED',
	'WITHDRAWN',
	'ARCHIVED',
	'SUSPENDED',
	'UPDATED',
	'GROUPED',
	'OBSOLETE',
] as const;

export interface OperatorAddress {
	country: string;
	street: string;
	postalCode: string;
	city: string;
	fullAddress?: string;
}

export interface RepresentedOperator {
	operatorReferenceNumber?: Array<{ identifierType: IdentifierType; identifierValue: string }>;
	operatorAddress?: OperatorAddress;
	operatorEmail?: string;
	operatorPhone?: string;
	operatorName: string;
}

/** goodsMeasure: a sequence, in this order. Numbers as decimal text (≤ 6 decimals). */
export interface GoodsMeasure {
	percentageEstimationOrDeviation?: string;
	netWeight?: string;
	supplementaryUnit?: string;
	supplementaryUnitQualifier?: string;
}

export interface Producer {
	position?: number;
	/** ISO 3166-1 alpha-2. */
	country: string;
	name?: string;
	/** The EU GeoJSON as UTF-8 text; the builder base64-encodes it into geometryGeojson. */
	geometryGeojson: string;
}

export interface Species {
	scientificName?: string;
	commonName?: string;
}

export interface Commodity {
	/** The package's commodity name (cocoa, wood, …): checked against the HS heading, never sent. */
	commodity?: string;
	position?: number;
	descriptors: { descriptionOfGoods: string; goodsMeasure: GoodsMeasure };
	/** 2–6 digits. */
	hsHeading: string;
	speciesInfo?: Species[];
	producers?: Producer[];
}

export interface Statement {
	internalReferenceNumber?: string;
	activityType: ActivityType;
	representedOperator?: RepresentedOperator;
	countryOfActivity?: string;
	borderCrossCountry?: string;
	comment?: string;
	commodities: Commodity[];
	geoLocationConfidential: boolean;
	/** Reference numbers of the statements this one groups (one wrapper each on the wire). */
	groupedDeclarations?: string[];
}

/** An overview entry (OverviewType) as the node outputs it; unknown fields pass through. */
export interface StatementOverview {
	uuid: string;
	internalReferenceNumber: string | null;
	referenceNumber: string | null;
	verificationNumber: string | null;
	status: string;
	rejectionReason: string | null;
	communicationToOperator: { date: string | null; content: string | null } | null;
	date: string | null;
	updatedBy: string | null;
	version: string | null;
	[other: string]: unknown;
}
