/**
 * A Simplified Declaration (SD) as the node holds it: the EU Information System's V3
 * `SimplifiedDeclarationBaseType` (xsd4-simplified-declaration-v3.xsd and the common schema),
 * in the XSD's element names and order, as plain data. An SD is filed by micro or small
 * primary operators (and their representatives) instead of a DDS; unlike the DDS its
 * internal reference is mandatory (≤ 14 characters), its commodities carry no species, and a
 * producer is located by GeoJSON, by postal address(es) or by cadastral identifier(s).
 * sdRequests.ts writes it in this order; sdRules.ts checks it before anything is sent.
 * Pure: no n8n imports.
 */
import type { ActivityType, GoodsMeasure, RepresentedOperator } from './statement';

export const SD_NS = 'http://ec.europa.eu/tracesnt/certificate/eudr/simplified-declaration/v3';

/** SdOperatorRoleType. */
export const SD_ROLES = ['MICRO_OPERATOR', 'REPRESENTATIVE_MSPO', 'MEMBER_STATE'] as const;
export type SdRole = (typeof SD_ROLES)[number];

/** ReferenceNumberType: the SD's internal reference is at most 14 characters. */
export const MAX_SD_INTERNAL_REFERENCE = 14;

/** SdProducerPostalAddressType, in the XSD's order. */
export interface SdPostalAddress {
	producerStreet?: string;
	producerPostalCode: string;
	producerCity: string;
}

/** SdProducerLocationType: exactly one of the three. */
export type SdProducerLocation =
	| { geometryGeojson: string }
	| { postalAddress: SdPostalAddress[] }
	| { cadastralIdentifier: string[] };

/** SdProducerType. */
export interface SdProducer {
	producerPosition?: number;
	/** ISO 3166-1 alpha-2. */
	producerCountry: string;
	producerName?: string;
	/** geometryGeojson is the EU GeoJSON as UTF-8 text; the builder base64-encodes it. */
	producerLocation: SdProducerLocation;
}

/** SdCommodityType. */
export interface SdCommodity {
	/** The package's commodity name (cocoa, wood, …): checked against the HS heading, never sent. */
	commodity?: string;
	position?: number;
	descriptors: { descriptionOfGoods: string; goodsMeasure: GoodsMeasure };
	/** 2–6 digits. */
	hsHeading: string;
	producers?: SdProducer[];
}

/** SimplifiedDeclarationBaseType. */
export interface SimplifiedDeclaration {
	/** Mandatory in the XSD (≤ 14); the node always fills it (it files each SD once by it). */
	internalReferenceNumber: string;
	activityType: ActivityType;
	representedOperator?: RepresentedOperator;
	countryOfActivity?: string;
	borderCrossCountry?: string;
	comment?: string;
	commodities: SdCommodity[];
	geoLocationConfidential: boolean;
	/** Reference numbers of the SDs this one groups (SD only; one wrapper each on the wire). */
	groupedDeclarations?: string[];
}
