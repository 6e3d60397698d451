/**
 * The business rules the fake enforces on a submitted or amended statement (pack README §6,
 * validation-rules-v1.3.txt, CF4 codes of README §7). Each returns the EU code, a message and
 * the field; all problems of a statement are reported together in one fault.
 */
import { whereAlpha2 } from 'iso-3166-1';

import type { FaultError } from './faults';
import type { FakeEuUser } from './security';
import type { El } from './xml';
import { COMMON_NS, DDS_NS, SD_NS, kid, kidText, kids } from './xml';

/**
 * Where a statement's parts are: the DDS (pack §4.1) or the SD (pack §4.2: no speciesInfo;
 * producers as producerCountry/producerName/producerLocation with a choice of geometry, postal
 * addresses or cadastral identifiers; roles MICRO_OPERATOR / REPRESENTATIVE_MSPO / MEMBER_STATE).
 */
export interface StatementDialect {
	ns: string;
	/** The role that imports/exports on its own account (needs an EORI for IMPORT/EXPORT). */
	ownRole: string;
	/** The role acting for another operator (needs representedOperator). */
	representativeRole: string;
	/** speciesInfo exists (DDS only): wood needs a scientific and a common name. */
	species: boolean;
	/**
	 * DOMESTIC: a net weight needs its percentage estimate or deviation (DDS: seen live on V3
	 * acceptance, pack §12, and the UOM guidance for DDS, pack §6; not stated for the SD).
	 */
	domesticPercentage: boolean;
	/** The producer's country element: `country` (DDS), `producerCountry` (SD). */
	producerCountry: string;
	/** The producer's Base64 GeoJSON, undefined when located otherwise, and its field path. */
	geometry(producer: El): { base64: string | undefined; path: string } | null;
}

export const DDS_DIALECT: StatementDialect = {
	ns: DDS_NS,
	ownRole: 'OPERATOR',
	representativeRole: 'REPRESENTATIVE_OPERATOR',
	species: true,
	domesticPercentage: true,
	producerCountry: 'country',
	geometry: (producer) => ({
		base64: kidText(producer, DDS_NS, 'geometryGeojson'),
		path: 'geometryGeojson',
	}),
};

export const SD_DIALECT: StatementDialect = {
	ns: SD_NS,
	ownRole: 'MICRO_OPERATOR',
	representativeRole: 'REPRESENTATIVE_MSPO',
	species: false,
	domesticPercentage: false,
	producerCountry: 'producerCountry',
	geometry: (producer) => {
		const location = kid(producer, SD_NS, 'producerLocation');
		const geometry = kid(location, SD_NS, 'geometryGeojson');
		// a postal address or a cadastral identifier has no geometry to check (the XSD checks them)
		return geometry
			? { base64: geometry.textContent ?? '', path: 'producerLocation.geometryGeojson' }
			: null;
	},
};

/**
 * Annex I of Regulation (EU) 2023/1115 as HS prefixes. The pack has no Annex I list (README §6
 * only says the code must be an Annex I code); this list is the fake's reading of the
 * regulation's annex: a heading is accepted when it is a prefix of an entry or an entry is a
 * prefix of it.
 */
export const ANNEX_I = [
	// cattle
	'0102',
	'0201',
	'0202',
	'020610',
	'020622',
	'020629',
	'4101',
	'4104',
	'4107',
	// cocoa
	'1801',
	'1802',
	'1803',
	'1804',
	'1805',
	'1806',
	// coffee
	'0901',
	// oil palm
	'120710',
	'1511',
	'151321',
	'151329',
	'230660',
	'290545',
	'291570',
	'291590',
	'291615',
	'3401',
	'382311',
	'382312',
	'382319',
	'382370',
	// rubber
	'4001',
	'4005',
	'4006',
	'4007',
	'4008',
	'4010',
	'4011',
	'4012',
	'4013',
	'4015',
	'4016',
	'4017',
	// soya
	'1201',
	'120810',
	'1507',
	'2304',
	// wood
	...Array.from({ length: 21 }, (_, i) => String(4401 + i)),
	'47',
	'48',
	'49',
	'940330',
	'940340',
	'940350',
	'940360',
	'940391',
	'940610',
	'9401',
];

const CATTLE = ['0102', '0201', '0202', '0206', '4101', '4104', '4107'];
export const isCattle = (hs: string) => CATTLE.some((c) => hs.startsWith(c));

export function isAnnexI(hs: string): boolean {
	return ANNEX_I.some((e) => e.startsWith(hs) || hs.startsWith(e));
}

/** Supplementary unit required (and only allowed) for IMPORT/EXPORT of these codes [UOM §1]. */
const UNIT_FOR: Array<[string, string]> = [
	['010221', 'NAR'],
	['010229', 'NAR'],
	['4011', 'NAR'],
	['4013', 'NAR'],
	['4104', 'NAR'],
	['4403', 'MTQ'],
	['4406', 'MTQ'],
	['4408', 'MTQ'],
	['4410', 'MTQ'],
	['4411', 'MTQ'],
	['4412', 'MTQ'],
	['4413', 'MTQ'],
	['4701', 'KSD'],
	['4702', 'KSD'],
	['4704', 'KSD'],
	['4705', 'KSD'],
];

export function unitFor(hs: string): string | undefined {
	return UNIT_FOR.find(([code]) => (code.length === 6 ? hs === code : hs.startsWith(code)))?.[1];
}

const DOMESTIC_UNITS = ['KSD', 'MTK', 'MTQ', 'MTR', 'NAR', 'NPR'];
const GEO_TYPES = ['Point', 'MultiPoint', 'Polygon', 'MultiPolygon', 'GeometryCollection'];

export const MAX_PRODUCERS_PER_COMMODITY = 1000;
export const MAX_PRODUCERS_PER_STATEMENT = 10_000;

export function statementRuleErrors(
	statement: El,
	role: string,
	user: FakeEuUser,
	dialect: StatementDialect = DDS_DIALECT,
): FaultError[] {
	const errors: FaultError[] = [];
	const add = (id: string, message: string, field: string) => errors.push({ id, message, field });
	const NS = dialect.ns;
	const activity = (kidText(statement, NS, 'activityType') ?? '').trim();
	if (
		(activity === 'IMPORT' || activity === 'EXPORT') &&
		role === dialect.ownRole &&
		!user.operator.hasEori
	)
		add(
			'EUDR_OPERATOR_EORI_FOR_ACTIVITY_MISSING',
			'An EORI number is required for IMPORT or EXPORT',
			'activityType',
		);
	if (!user.operator.euEstablished && activity !== 'IMPORT')
		add(
			'EUDR_ACTIVITY_TYPE_NOT_ALLOWED_FOR_NON_EU_OPERATOR',
			'A non-EU operator may only declare IMPORT',
			'activityType',
		);
	if (user.operator.activities && !user.operator.activities.includes(activity))
		add(
			'EUDR_WEBSERVICE_USER_ACTIVITY_NOT_ALLOWED',
			`The user's profile does not allow the activity ${activity}`,
			'activityType',
		);
	if (role === dialect.representativeRole && !kid(statement, NS, 'representedOperator'))
		add(
			'EUDR_BEHALF_OPERATOR_NOT_PROVIDED',
			'The represented operator must be given',
			'representedOperator',
		);
	const commodities = kids(statement, NS, 'commodities');
	const hasGroups = kids(statement, NS, 'groupedDeclarations').length > 0;
	let producersTotal = 0;
	commodities.forEach((commodity, ci) => {
		const at = `commodities[${ci + 1}]`;
		const hs = (kidText(commodity, NS, 'hsHeading') ?? '').trim();
		if (!isAnnexI(hs))
			add('EUDR_COMMODITIES_HS_CODE_INVALID', `HS code ${hs} is not in Annex I`, `${at}.hsHeading`);
		const measure = kid(kid(commodity, NS, 'descriptors'), COMMON_NS, 'goodsMeasure');
		const num = (name: string) => {
			const t = kidText(measure, COMMON_NS, name);
			return t === undefined ? undefined : Number(t.trim());
		};
		const net = num('netWeight');
		const pct = num('percentageEstimationOrDeviation');
		const unit = num('supplementaryUnit');
		const qualifier = kidText(measure, COMMON_NS, 'supplementaryUnitQualifier')?.trim();
		const m = `${at}.descriptors.goodsMeasure`;
		if (activity === 'IMPORT' || activity === 'EXPORT') {
			if (net === undefined)
				add(
					'EUDR_COMMODITIES_DESCRIPTOR_NET_MASS_EMPTY',
					'Net weight is required for IMPORT and EXPORT',
					`${m}.netWeight`,
				);
			if (pct !== undefined)
				add(
					'EUDR_COMMODITIES_DESCRIPTOR_PERCENTAGE_ESTIMATION_NOT_ALLOWED',
					'A percentage estimate is not allowed for IMPORT and EXPORT',
					`${m}.percentageEstimationOrDeviation`,
				);
			const needed = unitFor(hs);
			if (needed && (unit === undefined || !qualifier))
				add(
					'EUDR_COMMODITIES_DESCRIPTOR_SUPPLEMENTARY_UNIT_MISSING',
					`A supplementary unit (${needed}) is required for HS ${hs}`,
					`${m}.supplementaryUnit`,
				);
			else if (needed && qualifier !== needed)
				add(
					'EUDR_COMMODITIES_DESCRIPTOR_SUPPLEMENTARY_UNIT_QUALIFIER_NOT_COMPATIBLE',
					`The supplementary unit of HS ${hs} is ${needed}`,
					`${m}.supplementaryUnitQualifier`,
				);
			else if (!needed && (unit !== undefined || qualifier))
				add(
					'EUDR_COMMODITIES_DESCRIPTOR_SUPPLEMENTARY_UNIT_NOT_ALLOWED',
					`No supplementary unit is allowed for HS ${hs}`,
					`${m}.supplementaryUnit`,
				);
		} else {
			if (net === undefined && unit === undefined)
				add(
					'EUDR_COMMODITIES_DESCRIPTOR_QUANTITY_MISSING',
					'Give a net weight or a supplementary unit',
					m,
				);
			if (pct !== undefined && net === undefined)
				add(
					'EUDR_COMMODITIES_DESCRIPTOR_NET_MASS_EMPTY',
					'A percentage estimate needs a net weight',
					`${m}.netWeight`,
				);
			if (dialect.domesticPercentage && net !== undefined && pct === undefined)
				add(
					'EUDR_COMMODITIES_DESCRIPTOR_PERCENTAGE_ESTIMATION_MISSING',
					'A net weight needs its percentage estimation or deviation',
					`${m}.percentageEstimationOrDeviation`,
				);
			if (pct !== undefined && (pct < 0 || pct > 50))
				add(
					'EUDR_COMMODITIES_DESCRIPTOR_PERCENTAGE_ESTIMATION_INVALID',
					'The percentage estimate must be between 0 and 50',
					`${m}.percentageEstimationOrDeviation`,
				);
			if (unit !== undefined && !qualifier)
				add(
					'EUDR_COMMODITIES_DESCRIPTOR_SUPPLEMENTARY_UNIT_QUALIFIER_MISSING',
					'A supplementary unit needs its type',
					`${m}.supplementaryUnitQualifier`,
				);
			if (qualifier && unit === undefined)
				add(
					'EUDR_COMMODITIES_DESCRIPTOR_SUPPLEMENTARY_UNIT_MISSING',
					'A supplementary unit type needs its value',
					`${m}.supplementaryUnit`,
				);
			if (qualifier && !DOMESTIC_UNITS.includes(qualifier))
				add(
					'EUDR_COMMODITIES_DESCRIPTOR_SUPPLEMENTARY_UNIT_QUALIFIER_INVALID',
					`Unknown supplementary unit ${qualifier}`,
					`${m}.supplementaryUnitQualifier`,
				);
		}
		for (const [name, value] of [
			['netWeight', net],
			['supplementaryUnit', unit],
		] as const)
			if (value !== undefined && !(value > 0))
				add(
					'EUDR_COMMODITIES_DESCRIPTOR_QUANTITY_MISSING',
					`${name} must be positive`,
					`${m}.${name}`,
				);
		if (
			dialect.species &&
			(hs.startsWith('44') ||
				hs.startsWith('47') ||
				hs.startsWith('48') ||
				hs.startsWith('49') ||
				hs.startsWith('94'))
		) {
			const species = kids(commodity, DDS_NS, 'speciesInfo');
			if (!species.some((s) => (kidText(s, DDS_NS, 'scientificName') ?? '').trim()))
				add(
					'EUDR_COMMODITIES_SPECIES_INFORMATION_SCIENTIFIC_NAME_EMPTY',
					'Wood needs a scientific name',
					`${at}.speciesInfo.scientificName`,
				);
			if (!species.some((s) => (kidText(s, DDS_NS, 'commonName') ?? '').trim()))
				add(
					'EUDR_COMMODITIES_SPECIES_INFORMATION_COMMON_NAME_EMPTY',
					'Wood needs a common name',
					`${at}.speciesInfo.commonName`,
				);
		}
		const producers = kids(commodity, NS, 'producers');
		producersTotal += producers.length;
		if (producers.length > MAX_PRODUCERS_PER_COMMODITY)
			add(
				'EUDR_COMMODITIES_PRODUCER_GEO_INVALID',
				`At most ${MAX_PRODUCERS_PER_COMMODITY} producers per commodity`,
				`${at}.producers`,
			);
		if (producers.length === 0 && !hasGroups)
			add(
				'EUDR_COMMODITIES_PRODUCER_GEO_EMPTY',
				dialect.species
					? 'Each commodity needs at least one producer with geolocation'
					: 'Each commodity needs at least one producer with a location',
				`${at}.producers`,
			);
		producers.forEach((producer, pi) => {
			// an assigned ISO 3166-1 alpha-2 code (the XSD checks two letters only): VR "every
			// production place must contain a valid country", GEO item 12; letter case not stated
			const country = (kidText(producer, NS, dialect.producerCountry) ?? '').trim();
			if (!whereAlpha2(country.toUpperCase()))
				add(
					'EUDR_COMMODITITY_PRODUCER_COUNTRY_CODE_INVALID',
					`${country} is not an ISO 3166-1 alpha-2 country code`,
					`${at}.producers[${pi + 1}].${dialect.producerCountry}`,
				);
			const geometry = dialect.geometry(producer);
			if (!geometry) return;
			const problem = geoProblem(geometry.base64, hs);
			if (problem) add(problem.id, problem.message, `${at}.producers[${pi + 1}].${geometry.path}`);
		});
	});
	if (producersTotal > MAX_PRODUCERS_PER_STATEMENT)
		add(
			'EUDR_MAXIMUM_GEO_SIZE_REACHED',
			`At most ${MAX_PRODUCERS_PER_STATEMENT} producers per statement`,
			'commodities',
		);
	return errors;
}

type GeoProblem = { id: string; message: string } | undefined;

/** Base64 GeoJSON: decodable, an accepted type, coordinates in range [GEO §3, §6], [X-DDS]. */
export function geoProblem(base64: string | undefined, hs = ''): GeoProblem {
	if (base64 === undefined || !base64.trim())
		return { id: 'EUDR_COMMODITIES_PRODUCER_GEO_EMPTY', message: 'Geolocation is empty' };
	let value: unknown;
	try {
		value = JSON.parse(Buffer.from(base64.replace(/\s+/g, ''), 'base64').toString('utf8'));
	} catch {
		return {
			id: 'EUDR_COMMODITIES_PRODUCER_GEO_INVALID',
			message: 'The geolocation is not Base64 GeoJSON',
		};
	}
	const geometries: Array<Record<string, unknown>> = [];
	const areas: unknown[] = [];
	const collect = (g: unknown): boolean => {
		if (!g || typeof g !== 'object') return false;
		const o = g as Record<string, unknown>;
		if (o.type === 'FeatureCollection')
			return Array.isArray(o.features) && o.features.every(collect);
		if (o.type === 'Feature') {
			const geometry = o.geometry as Record<string, unknown> | null;
			const props = o.properties as Record<string, unknown> | null;
			if (geometry && /Point$/.test(String(geometry.type)) && props && 'Area' in props)
				areas.push(props.Area);
			return collect(o.geometry);
		}
		if (o.type === 'GeometryCollection')
			return Array.isArray(o.geometries) && o.geometries.every(collect);
		geometries.push(o);
		return true;
	};
	if (!collect(value) || geometries.length === 0)
		return { id: 'EUDR_COMMODITIES_PRODUCER_GEO_INVALID', message: 'The GeoJSON has no geometry' };
	// a Point's Area (hectares): a number ≥ 0.0001; over 4 ha needs a polygon, except cattle (pack §6)
	for (const area of areas)
		if (typeof area !== 'number' || area < 0.0001 || (area > 4 && !isCattle(hs)))
			return {
				id: 'EUDR_COMMODITIES_PRODUCER_GEO_AREA_INVALID',
				message: `A point's Area must be a number of hectares from 0.0001 to 4 (a larger plot needs a polygon), not ${JSON.stringify(area)}`,
			};
	for (const g of geometries) {
		if (!GEO_TYPES.includes(String(g.type)))
			return {
				id: 'EUDR_COMMODITIES_PRODUCER_GEO_INVALID_GEOMETRY',
				message: `Geometry type ${String(g.type)} is not accepted`,
			};
		const positions: unknown[] = [];
		const flat = (c: unknown) => {
			if (Array.isArray(c) && typeof c[0] === 'number') positions.push(c);
			else if (Array.isArray(c)) c.forEach(flat);
		};
		flat(g.coordinates);
		if (positions.length === 0)
			return {
				id: 'EUDR_COMMODITIES_PRODUCER_GEO_INVALID',
				message: 'A geometry has no coordinates',
			};
		for (const p of positions as number[][]) {
			if (!(p[0] >= -180 && p[0] <= 180))
				return {
					id: 'EUDR_COMMODITIES_PRODUCER_GEO_LONGITUDE_INVALID',
					message: `Longitude ${p[0]} is out of range`,
				};
			if (!(p[1] >= -90 && p[1] <= 90))
				return {
					id: 'EUDR_COMMODITIES_PRODUCER_GEO_LATITUDE_INVALID',
					message: `Latitude ${p[1]} is out of range`,
				};
		}
		if (g.type === 'Polygon' || g.type === 'MultiPolygon') {
			const polys = (g.type === 'Polygon' ? [g.coordinates] : g.coordinates) as number[][][][];
			for (const poly of polys) {
				if (poly.length !== 1)
					return {
						id: 'EUDR_COMMODITIES_PRODUCER_GEO_INVALID_GEOMETRY',
						message: 'Polygons with holes are not accepted',
					};
				const ring = poly[0];
				const first = ring[0],
					last = ring[ring.length - 1];
				if (ring.length < 4 || first[0] !== last[0] || first[1] !== last[1])
					return {
						id: 'EUDR_COMMODITIES_PRODUCER_GEO_INVALID_GEOMETRY',
						message: 'A polygon ring must be closed with at least 4 positions',
					};
			}
		}
	}
	return undefined;
}
