/**
 * Validate's messages in the user's terms: one plain sentence that names the fields the user
 * mapped (the input column when a field is mapped from one, e.g. `latitude`, else the field's
 * label, e.g. Point Area (Hectares)), then the technical detail (the geometry layer's message, with
 * the place: feature, ring, position). The problem codes stay as they are for machines.
 *
 * The message is what goes to whoever fixes the plot (a supplier, in a fix list): it holds no
 * advice about the workflow (a field to map, a geometry source to choose, an option to turn on).
 * That advice, where the geometry layer's technical message carries it (Register's errors go to
 * the workflow builder and keep it), is moved out into the problem's `hint` (BUILDER_HINTS). Pure.
 */
import type { PointAreaFrom } from '../geometry/pointArea';
import type { ProblemWhere } from './plotReports';

/** What the user mapped. */
export interface UserTerms {
	/** Where the geometry comes from: `latLon`, `geoJson` or `wkt`. */
	source?: string;
	/** Field label (e.g. `Latitude`) → the input column it is mapped from (e.g. `latitude`). */
	columns?: Record<string, string>;
	/** Field labels by role, as the node shows them. */
	labels?: Partial<Record<'latitude' | 'longitude' | 'pointHa' | 'country', string>>;
}

/**
 * The input column of a parameter mapped as a plain `{{ $json.name }}` or
 * `{{ $json["name"] }}` expression; undefined for anything else.
 */
export function columnOfExpression(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	const m =
		/^=\s*\{\{\s*\$json(?:\.([A-Za-z_$][\w$]*)|\[\s*(["'])((?:(?!\2).)+)\2\s*\])\s*\}\}\s*$/.exec(
			value,
		);
	if (!m) return undefined;
	return m[1] ?? m[3];
}

const simple = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** How a field is named to the user: its column (with the field's label when they differ). */
export function fieldName(label: string, terms: UserTerms): string {
	const column = terms.columns?.[label];
	if (column === undefined || column === '') return label;
	return simple(column) === simple(label) ? column : `${column} (${label})`;
}

const DEFAULT_LABELS = {
	latitude: 'Latitude',
	longitude: 'Longitude',
	pointHa: 'Point Area (Hectares)',
	country: 'Country',
};

interface PlainInput {
	code: string;
	message: string;
	where: ProblemWhere;
	/** The point's area, when it is a number (from Point Area (Hectares) or the feature's property). */
	pointHa?: number;
	/** Where that area came from (readPointArea): a feature property is named as such. */
	pointHaFrom?: PointAreaFrom;
}

/**
 * Codes whose technical message is deliberately all there is: they are about the structure of
 * a GeoJSON value the user gave as GeoJSON (so GeoJSON's words are the user's terms), and the
 * message already says what to fix. Every other code the validators emit has a plain sentence
 * (test/unit/plots/userTerms.test.ts enumerates the emitters and checks both lists).
 */
export const WITHOUT_PLAIN_SENTENCE: ReadonlySet<string> = new Set([
	'not_geojson',
	'not_a_feature',
	'nested_feature_collection',
	'empty_object',
	'invalid_coordinates',
	'invalid_position',
	'invalid_geometry',
]);

/** A number the technical message states (`overlaps 12 other plots`), else undefined. */
function countIn(message: string, pattern: RegExp): string | undefined {
	return pattern.exec(message)?.[1];
}

/** One plain sentence for a problem, or undefined when the technical message is all there is. */
export function plainSentence(p: PlainInput, terms: UserTerms): string | undefined {
	const label = { ...DEFAULT_LABELS, ...(terms.labels ?? {}) };
	const lat = fieldName(label.latitude, terms);
	const lon = fieldName(label.longitude, terms);
	const areaField = fieldName(label.pointHa, terms);
	// where the point's area came from: the mapped field, or the feature's own property
	const area =
		p.pointHaFrom?.kind === 'property' ? `The plot's "${p.pointHaFrom.name}" property` : areaField;
	const latLon = terms.source === 'latLon';
	const coordinates = latLon ? `${lat} and ${lon}` : 'The coordinates';
	const other = p.where.other_item;
	switch (p.code) {
		case 'swapped_lat_lon':
			return latLon
				? `${lat} and ${lon} look swapped: swap the two values.`
				: 'Latitude and longitude look swapped in the geometry: each position must be longitude first, then latitude.';
		case 'latitude_missing':
			return /both empty/.test(p.message) ? `${lat} and ${lon} are empty.` : `${lat} is empty.`;
		case 'longitude_missing':
			return `${lon} is empty.`;
		case 'latitude_not_a_number':
			return `${lat} is not a number.`;
		case 'longitude_not_a_number':
			return `${lon} is not a number.`;
		case 'latitude_out_of_range':
			return `${lat} must be between -90 and 90.`;
		case 'longitude_out_of_range':
			return `${lon} must be between -180 and 180.`;
		case 'projected_coordinates':
		case 'crs_not_wgs84':
			return `${coordinates} are not in degrees: give them in decimal degrees (WGS84).`;
		case 'coordinate_out_of_range':
			return latLon
				? `${lat} or ${lon} is out of range.`
				: 'A coordinate is out of range (longitude -180 to 180, latitude -90 to 90).';
		case 'outside_country':
			return `The plot lies outside the country given in ${fieldName(label.country, terms)}: check ${latLon ? `${lat}, ${lon}` : 'the coordinates'} and the country.`;
		case 'point_requires_polygon':
			return `${area} is ${p.pointHa !== undefined ? `${p.pointHa} ha` : 'more than 4 ha'}: a plot of more than 4 ha needs its boundary (a polygon), not a single point.`;
		case 'point_ha_not_below_4':
			return `${area} is ${p.pointHa !== undefined ? `${p.pointHa} ha` : '4 ha'}: the service registers a point only below 4 ha, so Register would refuse it; give the boundary (a polygon) or the real area.`;
		case 'point_ha_invalid':
			return `${area} must be a positive number of hectares (e.g. 2.5), or empty.`;
		case 'empty_input':
			return 'The geometry field is empty.';
		case 'not_json':
			return 'The geometry field does not hold GeoJSON: it is not valid JSON.';
		case 'looks_like_wkt':
			return 'The geometry holds WKT, not GeoJSON.';
		case 'invalid_wkt':
			return 'The geometry field could not be read as WKT.';
		case 'unsupported_geometry':
			return 'Only points, polygons and multipolygons can be plots.';
		case 'too_many_features':
			return 'The row holds too many plots for one item: split them across several rows.';
		case 'empty_feature_collection':
		case 'no_features':
			return 'The row holds no plot.';
		case 'missing_geometry':
		case 'empty_geometry':
			return 'The plot has no geometry.';
		case 'non_finite_coordinate':
		case 'non_numeric_coordinate':
			return latLon ? `${lat} or ${lon} is not a number.` : 'A coordinate is not a number.';
		case 'unknown_geometry_source':
			return 'The geometry could not be read: the workflow asks for a geometry format Validate does not know.';
		case 'unreadable_geometry':
			return 'The geometry could not be read.';
		case 'crosses_antimeridian':
			return 'The plot crosses the 180° meridian: split it there into two parts (a MultiPolygon).';
		case 'json_too_deep':
			return 'The geometry value is nested too deeply to be read.';
		case 'crossing_check_incomplete':
			return 'The plot boundary is too complex to check fully: simplify it or split it into smaller plots.';
		case 'point_without_area':
			return `${area} is empty: give the plot's area in hectares (below 4), or its boundary.`;
		case 'low_precision':
			return `${coordinates} have fewer than six decimals, which EUDR asks for.`;
		case 'self_intersection':
			return 'The plot boundary crosses itself.';
		case 'ring_not_closed':
			return 'The plot boundary is not closed.';
		case 'ring_too_few_positions':
			return 'The plot boundary has too few corners.';
		case 'ring_zero_area':
			return 'The plot boundary encloses no area.';
		case 'duplicate_vertices':
			return 'The plot boundary repeats a corner.';
		case 'polygons_overlap':
			return 'Parts of the plot overlap each other.';
		case 'duplicate_feature':
			return 'The row holds the same plot twice.';
		case 'duplicate_geometry':
			return other !== undefined
				? `The same plot as item ${other}.`
				: 'The same plot as another item.';
		case 'overlapping_plots': {
			if (other !== undefined) return `The plot overlaps the plot of item ${other}.`;
			// the capped warning: one for the row, the count in the message
			const some =
				/overlaps (at least [\d,]+ of (?:more than )?[\d,]+ plots it may overlap \([\d,]+ measured\))/.exec(
					p.message,
				)?.[1];
			if (some) return `The plot overlaps ${some}.`;
			const n = countIn(p.message, /overlaps ([\d,]+) other plots/);
			return `The plot overlaps ${n ?? 'many'} other plots.`;
		}
		case 'overlap_not_measured':
			return other !== undefined
				? `The overlap with the plot of item ${other} was not measured: the two boundaries are too large to compare within Validate's limits.`
				: 'The overlap with more plots was not measured within the limits of one run.';
		case 'overlaps_not_measured':
			return 'Some other plots that lie over this one were not checked for overlap with it.';
		case 'overlap_not_computed': {
			if (other !== undefined)
				return `The overlap with the plot of item ${other} could not be computed.`;
			// the capped summary: the plots beyond those listed one by one
			const n = countIn(p.message, /with (\d+) more plots/);
			return `The overlap with ${n ?? 'more'} more plots could not be computed.`;
		}
		default:
			return undefined;
	}
}

/**
 * Advice for the workflow builder inside the geometry layer's technical messages (written for
 * Register's errors, which the builder reads): each pattern, what the supplier's text keeps in
 * its place, and the hint it becomes. test/unit/plots/userTerms.test.ts checks every emitted
 * message shape against the list of workflow words (`WORKFLOW_WORDS`).
 */
const BUILDER_HINTS: ReadonlyArray<{ pattern: RegExp; keep: string; hint: string }> = [
	{
		pattern: / \(or map the latitude and longitude fields the other way round\)/,
		keep: '',
		hint: 'Or map the latitude and longitude fields the other way round.',
	},
	{
		pattern: / or turn on "Repair Geometry"\./,
		keep: '.',
		hint: 'Turn on "Repair Geometry" to have this fixed in the output.',
	},
	{
		pattern: /; "Repair Geometry" cannot invent them\./,
		keep: '.',
		hint: '"Repair Geometry" cannot fix this.',
	},
	{
		pattern: / "Repair Geometry" cannot fix this\./,
		keep: '',
		hint: '"Repair Geometry" cannot fix this.',
	},
	{
		pattern: / Set the geometry source to WKT, or give GeoJSON such as /,
		keep: ' Give GeoJSON such as ',
		hint: 'Set the geometry source to WKT.',
	},
	{
		pattern: / Use the Latitude\/Longitude geometry source, or give /,
		keep: ' Give ',
		hint: 'Use the Latitude/Longitude geometry source.',
	},
	{
		pattern: / Map the fields holding the plot's latitude and longitude in decimal degrees\./,
		keep: '',
		hint: "Map the fields holding the plot's latitude and longitude in decimal degrees.",
	},
	{
		pattern: / Choose GeoJSON, Latitude\/Longitude or WKT\./,
		keep: '',
		hint: 'Choose GeoJSON, Latitude/Longitude or WKT as the geometry source.',
	},
];

/** Advice for the workflow builder that a code always carries (its plain sentence leaves it out). */
const CODE_HINTS: Readonly<Record<string, string>> = {
	looks_like_wkt: 'Set the geometry source to WKT.',
	json_too_deep: 'Check what the geometry field is mapped to.',
	unknown_geometry_source: 'Choose GeoJSON, Latitude/Longitude or WKT as the geometry source.',
};

/** Words that name the workflow, not the plot: none may reach a supplier's text. */
export const WORKFLOW_WORDS =
	/\bmap (the|a)\b|\bmapped\b|Repair Geometry|geometry source|\bthe (node|workflow)\b|\boption\b|\bexpression\b/i;

/** The technical message without advice for the workflow builder, and that advice. */
export function splitBuilderHints(message: string): { message: string; hints: string[] } {
	const hints: string[] = [];
	let text = message;
	for (const { pattern, keep, hint } of BUILDER_HINTS) {
		if (!pattern.test(text)) continue;
		text = text.replace(pattern, keep);
		hints.push(hint);
	}
	return { message: text, hints };
}

/**
 * The message for whoever fixes the plot — the plain sentence, then the technical detail —
 * and the advice for the workflow builder, apart (undefined when none).
 */
export function forSupplier(p: PlainInput, terms: UserTerms): { message: string; hint?: string } {
	// a field's reason is already a plain sentence: the field's name goes first
	if (p.code === 'invalid_field' && p.where.field !== undefined)
		return { message: `${fieldName(p.where.field, terms)}: ${p.message}` };
	const { message, hints } = splitBuilderHints(p.message);
	const plain = plainSentence(p, terms);
	const byCode = CODE_HINTS[p.code];
	if (byCode && !hints.includes(byCode)) hints.push(byCode);
	const hint = hints.length > 0 ? hints.join(' ') : undefined;
	return {
		message: plain === undefined ? message : `${plain} Detail: ${message}`,
		...(hint ? { hint } : {}),
	};
}

/** The message: the plain sentence, then the technical detail (builder advice left out: `forSupplier`). */
export function inUserTerms(p: PlainInput, terms: UserTerms): string {
	return forSupplier(p, terms).message;
}
