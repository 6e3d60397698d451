import { centroid } from '@turf/centroid';

import { isObject } from '../values/answerValues';
import { findCountry, isInBox, type CountryBox } from './countries';
import { crsMessage, isWgs84Crs } from './crs';
import { round6, type Add } from './featureProblems';
import { decimalPlaces, hasDecimalPlaces } from './looseNumbers';
import {
	EUDR_POINT_MAX_HA,
	SERVICE_POINT_HA_BELOW,
	describeFrom,
	readPointArea,
} from './pointArea';
import { checkPolygons } from './polygonChecks';
import { repairGeometry } from './repair';
import {
	checkGeometryShape,
	forEachPosition,
	isAcceptedGeometryType,
	kindOf,
	polygonsOf,
	positionLocation,
	showPosition,
	showValue,
} from './shape';
import type {
	Feature,
	Location,
	PlotFeature,
	Position,
	Problem,
	Repair,
	ValidateOptions,
	ValidationResult,
} from './geoJsonTypes';

/*
 * Decisions
 * - Winding order is NOT a problem when Repair is off: RFC 7946 says parsers
 *   should not reject polygons that do not follow the right-hand rule, and the
 *   service accepts either winding. Repair rewinds to RFC 7946 order (and
 *   lists it), nothing else does.
 * - Z values are accepted by the service and passed through untouched; only
 *   Repair drops them.
 * - Unclosed rings and duplicate consecutive vertices are errors when Repair
 *   is off (the service rejects unclosed rings; repeated vertices give
 *   zero-length edges). Repair fixes both.
 * - Self-intersections, rings with too few positions, zero-area rings, and
 *   swapped, projected or out-of-range coordinates cannot be repaired without
 *   guessing: they stay errors after Repair.
 * - Fewer than six decimal places, a plot centre outside the given country
 *   and duplicate features are warnings: the service would take them.
 * - Self-intersections are found with a sweep line over the edges
 *   (`findCrossings`, crossings.ts: one sort, then a few tests per edge for a
 *   real outline), not with @turf/kinks, which compares every pair of edges
 *   and takes seconds on a 20,000-vertex ring, nor with sweepline-intersections,
 *   whose object heap grew as n^1.4 (BENCHMARKS.md, "Pre-flight growth"). It
 *   reports what sweepline-intersections reports, plus the touches that library
 *   missed between vertical edges. It is bounded: at most CROSSING_LIMIT
 *   crossings ("at least N, first near …") within a budget of edge tests per
 *   feature; a feature the budget cannot cover is an error
 *   (crossing_check_incomplete), never valid.
 * - A polygon edge whose ends are more than 180° of longitude apart crosses the
 *   antimeridian: an error (split the plot at 180°, RFC 7946 §3.1.9).
 * - Two 4 ha rules (pointArea.ts): EUDR allows a point for a plot of up to 4 ha
 *   (point_requires_polygon above); the service takes point_ha only below 4.0
 *   (point_ha_not_below_4, checked unless `serviceLimits` is false, as in Export).
 */

/** EUDR asks for at least six decimal digits. */
export const MIN_DECIMALS = 6;

/** Structure: a Feature whose geometry is a well-formed Point, Polygon or MultiPolygon. */
function structureIssue(
	value: unknown,
): { code: string; message: string; where?: Location } | null {
	if (!isObject(value)) {
		return {
			code: 'not_a_feature',
			message: `the feature is ${kindOf(value)} (${showValue(value)}), not a GeoJSON Feature. Give {"type": "Feature", "geometry": ..., "properties": {...}}.`,
		};
	}
	if (value.type === 'FeatureCollection') {
		return {
			code: 'nested_feature_collection',
			message:
				'the feature is itself a FeatureCollection; FeatureCollections cannot be nested. Move its features into the outer list.',
		};
	}
	if (value.type !== 'Feature') {
		const found = isAcceptedGeometryType(value.type)
			? `a bare ${value.type} geometry`
			: typeof value.type === 'string'
				? `of type ${showValue(value.type)}`
				: 'an object without "type": "Feature"';
		return {
			code: 'not_a_feature',
			message: `the feature is ${found}, not a Feature. Wrap it as {"type": "Feature", "geometry": ..., "properties": {}}.`,
		};
	}
	return checkGeometryShape(value.geometry);
}

function checkCrs(feature: PlotFeature, add: Add): void {
	const own = (feature as unknown as Record<string, unknown>).crs;
	if (!isWgs84Crs(own)) add('error', 'crs_not_wgs84', crsMessage(own, 'the feature'));
	const geometryCrs = (feature.geometry as unknown as Record<string, unknown>).crs;
	if (!isWgs84Crs(geometryCrs))
		add('error', 'crs_not_wgs84', crsMessage(geometryCrs, 'the geometry'));
}

/** Coordinate ranges, projected metres and (when latitude is beyond ±90) swapped axes. Returns true when all positions are in range. */
function checkRanges(feature: PlotFeature, add: Add): boolean {
	let outside = 0;
	let first: Position | undefined;
	let where: Location | undefined;
	let metres = false;
	let swappable = true;
	forEachPosition(feature.geometry, (position, ring, index, polygon) => {
		const x = Math.abs(position[0]);
		const y = Math.abs(position[1]);
		if (x <= 180 && y <= 90) return;
		outside++;
		if (!first) {
			first = position;
			where = positionLocation(ring, index, polygon);
		}
		if (x >= 1000 || y >= 1000) metres = true;
		if (!(y > 90 && x <= 90)) swappable = false;
	});
	if (outside === 0 || !first) return true;
	const count = `${outside} position${outside === 1 ? ' is' : 's are'} out of range`;
	if (metres) {
		add(
			'error',
			'projected_coordinates',
			`the coordinates look like projected metres, not WGS84 degrees (e.g. ${showPosition(first)}; ${count}). Reproject to WGS84 (EPSG:4326) longitude/latitude degrees before registering.`,
			where,
		);
	} else if (swappable) {
		add(
			'error',
			'swapped_lat_lon',
			`latitude and longitude look swapped: position ${showPosition(first)} has latitude ${first[1]} outside -90..90 but longitude ${first[0]} within -90..90 (${count}). GeoJSON positions are [longitude, latitude]: swap the two values.`,
			where,
		);
	} else {
		add(
			'error',
			'coordinate_out_of_range',
			`position ${showPosition(first)} is outside the WGS84 range (longitude -180..180, latitude -90..90; ${count}). Give coordinates in decimal degrees, [longitude, latitude].`,
			where,
		);
	}
	return false;
}

/**
 * An edge from one side of the antimeridian (180° longitude) to the other: its two ends more
 * than 180° of longitude apart. GeoJSON draws an edge the short way in longitude only within
 * -180..180, so such an edge runs the long way round the Earth (a 100 m plot across 180° in
 * Fiji becomes a strip around the globe of over 400,000 ha). RFC 7946 §3.1.9: cut it in two.
 * Call only when every position is in range.
 */
function checkAntimeridian(feature: PlotFeature, add: Add): boolean {
	const polygons = polygonsOf(feature.geometry);
	const multi = feature.geometry.type === 'MultiPolygon';
	let edges = 0;
	let first: { a: Position; b: Position; where: Location } | undefined;
	polygons.forEach((rings, p) =>
		rings.forEach((ring, r) => {
			for (let i = 1; i < ring.length; i++) {
				if (Math.abs(ring[i][0] - ring[i - 1][0]) <= 180) continue;
				edges++;
				first ??= {
					a: ring[i - 1],
					b: ring[i],
					where: positionLocation(r, i - 1, multi ? p : undefined),
				};
			}
		}),
	);
	if (!first) return false;
	add(
		'error',
		'crosses_antimeridian',
		`the polygon crosses the antimeridian (180° longitude): the edge from ${showPosition(first.a)} to ${showPosition(first.b)}${edges > 1 ? ` and ${edges - 1} other edge${edges === 2 ? '' : 's'}` : ''} jump${edges > 1 ? '' : 's'} from one side to the other, so GeoJSON reads it as going the long way round the Earth and the area comes out as a band around the globe. Split the plot at 180° into two polygons of a MultiPolygon (one ending at longitude 180, the other starting at -180), as RFC 7946 (§3.1.9) asks; longitudes beyond ±180 are not valid either (the service takes -180..180).`,
		first.where,
	);
	return true;
}

function checkCountry(feature: PlotFeature, box: CountryBox, add: Add): void {
	const [lon, lat] = centroid(feature).geometry.coordinates;
	if (isInBox(box, lon, lat)) return;
	const centre = `[${round6(lon)}, ${round6(lat)}]`;
	if (isInBox(box, lat, lon)) {
		add(
			'error',
			'swapped_lat_lon',
			`latitude and longitude look swapped: the plot's centre ${centre} (longitude, latitude) lies outside ${box.name}, but with the two values swapped it lies inside. GeoJSON positions are [longitude, latitude]: swap the two values (or map the latitude and longitude fields the other way round).`,
		);
		return;
	}
	add(
		'warning',
		'outside_country',
		`the plot's centre ${centre} (longitude, latitude) lies outside ${box.name}, the country given for the plot. Check the coordinates and the country.`,
	);
}

function checkPointHa(
	feature: PlotFeature,
	opts: Pick<ValidateOptions, 'pointHa' | 'pointHaField' | 'serviceLimits'>,
	add: Add,
): void {
	if (feature.geometry.type !== 'Point') return;
	const read = readPointArea(feature.properties, opts.pointHa, opts.pointHaField);
	if (read.kind === 'missing') return;
	const from = describeFrom(read.from);
	const leave = read.from.kind === 'field' ? 'leave it empty' : 'leave it out';
	if (read.kind === 'invalid') {
		// the field's reason is the input layer's (what to give); a property's says what it holds
		const message =
			read.from.kind === 'field'
				? `${from}${read.reason.startsWith('"') ? ' ' : ': '}${read.reason} Or ${leave} for the default circle of about 4 ha.`
				: `${from} ${read.reason} Give the plot area in hectares as a number (e.g. 2.5), or ${leave} for the default circle of about 4 ha.`;
		add('error', 'point_ha_invalid', message);
		return;
	}
	const value = read.value;
	if (value <= 0) {
		add(
			'error',
			'point_ha_invalid',
			`${from} is ${value}; it must be a positive number of hectares (e.g. 2.5). Fix it, or ${leave} for the default circle of about 4 ha.`,
		);
	} else if (value > EUDR_POINT_MAX_HA) {
		add(
			'error',
			'point_requires_polygon',
			`${from} is ${value} ha: a plot of more than ${EUDR_POINT_MAX_HA} ha must be given as a polygon (EUDR; a point stands for a plot of up to ${EUDR_POINT_MAX_HA} ha). Give the plot boundary as a Polygon instead of a point.`,
		);
	} else if (value >= SERVICE_POINT_HA_BELOW && opts.serviceLimits !== false) {
		add(
			'error',
			'point_ha_not_below_4',
			`${from} is ${value} ha: that meets the EUDR 4 ha rule (a point for a plot of up to ${EUDR_POINT_MAX_HA} ha; Export writes it), but the service takes point_ha only below ${SERVICE_POINT_HA_BELOW}.0, so Plot → Register would be refused. Give the plot boundary as a polygon, or the real area if it is below ${SERVICE_POINT_HA_BELOW} ha.`,
		);
	}
}

function checkPrecision(feature: PlotFeature, add: Add): void {
	let total = 0;
	let low = 0;
	let fewest = Infinity;
	let example: number | undefined;
	forEachPosition(feature.geometry, (position) => {
		for (let i = 0; i < 2; i++) {
			total++;
			if (hasDecimalPlaces(position[i], MIN_DECIMALS)) continue;
			const places = decimalPlaces(position[i]);
			if (places < MIN_DECIMALS) {
				low++;
				if (places < fewest) {
					fewest = places;
					example = position[i];
				}
			}
		}
	});
	// A single short coordinate may just have lost trailing zeros (12.34560 → 12.3456),
	// so warn only when most coordinates are short.
	if (example === undefined || low * 2 <= total) return;
	add(
		'warning',
		'low_precision',
		`${low} of ${total} coordinates have fewer than ${MIN_DECIMALS} decimal places (as few as ${fewest}, e.g. ${example}); EUDR asks for at least six decimal digits (about 10 cm). Export the coordinates at full precision if the source has them.`,
	);
}

/**
 * Validates features before registration, and repairs them on copies when
 * `opts.repair` is on (then re-validates the copies: whatever repair cannot
 * fix stays an error). The input is never modified. See the decisions above.
 */
export function validateFeatures(
	features: readonly unknown[],
	opts: ValidateOptions = {},
): ValidationResult {
	const problems: Problem[] = [];
	const repairs: Repair[] = [];
	const out: Feature[] = [];
	if (!isWgs84Crs(opts.crs)) {
		problems.push({
			severity: 'error',
			featureIndex: -1,
			code: 'crs_not_wgs84',
			message: crsMessage(opts.crs, 'the GeoJSON'),
		});
	}
	if (features.length === 0) {
		problems.push({
			severity: 'error',
			featureIndex: -1,
			code: 'no_features',
			message:
				'there are no features to register. Give at least one Feature with a Point, Polygon or MultiPolygon geometry.',
		});
	}
	const countryName = typeof opts.country === 'string' ? opts.country.trim() : '';
	const country = countryName === '' ? undefined : findCountry(countryName);
	const seen = new Map<string, number>();

	features.forEach((input, featureIndex) => {
		const add: Add = (severity, code, message, where) =>
			problems.push(
				where
					? { severity, featureIndex, code, message, where }
					: { severity, featureIndex, code, message },
			);
		const issue = structureIssue(input);
		if (issue) {
			add('error', issue.code, issue.message, issue.where);
			out.push((opts.repair ? structuredClone(input) : input) as Feature);
			return;
		}
		let feature = input as PlotFeature;
		if (opts.repair) {
			const { geometry, ...rest } = feature;
			const { coordinates, changes } = repairGeometry(geometry);
			const otherMembers: Record<string, unknown> = { ...geometry };
			delete otherMembers.coordinates;
			feature = {
				...structuredClone(rest),
				geometry: { ...structuredClone(otherMembers), coordinates } as PlotFeature['geometry'],
			};
			for (const change of changes) repairs.push({ featureIndex, ...change });
		}
		out.push(feature);

		checkCrs(feature, add);
		const inRange = checkRanges(feature, add);
		// the centre of a plot read the long way round the Earth says nothing about its country
		const across = inRange && checkAntimeridian(feature, add);
		if (inRange && !across && country) checkCountry(feature, country, add);
		checkPolygons(feature, add);
		checkPointHa(feature, opts, add);
		if (inRange) checkPrecision(feature, add);

		const key = `${feature.geometry.type}:${JSON.stringify(feature.geometry.coordinates)}`;
		const twin = seen.get(key);
		if (twin === undefined) {
			seen.set(key, featureIndex);
		} else {
			add(
				'warning',
				'duplicate_feature',
				`the geometry is identical to feature ${twin}'s. Remove the duplicate so that the plot is not registered twice.`,
			);
		}
	});

	return { features: out, problems, repairs, valid: !problems.some((p) => p.severity === 'error') };
}
