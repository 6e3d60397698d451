/**
 * Protected Area → Check: packing plot ids and geometries into as few
 * `POST /protected-areas/checks` requests as the service allows, matching each result
 * feature back to what was asked, and the per-check summary row. Pure: no n8n imports.
 *
 * The service takes `plot_ids` and/or `geojson` in one request ("batch processing is
 * supported"); the reference service takes at most 100 items (plot ids and features
 * together) per request, so entries are packed in input order into chunks of at most
 * `batchSize` (default 100). Its answer lists plot ids first, then geometries, each
 * feature carrying `input_type` ("plot" | "geojson"), `plot_id` or `geojson_index`, and
 * `input_index`; matching uses those (a plot only by its id) and falls back to position only
 * for results that name nothing.
 */

import { isObject, num } from '../values/answerValues';
import { overlapKeys, readOverlap, strictestLegality } from '../results/overlapResults';

export const CHECK_BATCH_LIMIT = 100;

export type CheckEntry =
	| { itemIndex: number; kind: 'plot'; plotId: string; indexInItem: number }
	| { itemIndex: number; kind: 'geojson'; feature: Record<string, unknown>; indexInItem: number };

type Json = Record<string, unknown>;

/** Chunks of at most `batchSize` entries, in order. */
export function packCheckEntries(
	entries: readonly CheckEntry[],
	batchSize = CHECK_BATCH_LIMIT,
): CheckEntry[][] {
	const size = Math.max(1, Math.min(CHECK_BATCH_LIMIT, Math.floor(batchSize) || CHECK_BATCH_LIMIT));
	const chunks: CheckEntry[][] = [];
	for (let i = 0; i < entries.length; i += size) chunks.push(entries.slice(i, i + size));
	return chunks;
}

/** The request body of one chunk: `plot_ids` and/or `geojson` (a FeatureCollection). */
export function checkRequestBody(chunk: readonly CheckEntry[]): Json {
	const plotIds = chunk.flatMap((e) => (e.kind === 'plot' ? [e.plotId] : []));
	const features = chunk.flatMap((e) => (e.kind === 'geojson' ? [e.feature] : []));
	const body: Json = {};
	if (plotIds.length > 0) body.plot_ids = plotIds;
	if (features.length > 0) body.geojson = { type: 'FeatureCollection', features };
	return body;
}

/** The result features of a check answer (a FeatureCollection; tolerant of a bare list). */
function featuresOf(body: unknown): Json[] {
	if (Array.isArray(body)) return body.filter(isObject);
	if (isObject(body) && Array.isArray(body.features)) return body.features.filter(isObject);
	return [];
}

/** What a check answer holds for the entries of its request. */
interface CheckPairing {
	/** The result of each entry of the chunk, in its order; null when the answer has none. */
	results: Array<Json | null>;
	/** Results for nothing this request asked for (another plot id, a geometry index beyond it). */
	unrequested: Json[];
}

/**
 * Pairs each entry of `chunk` with its result feature. A plot's result is the feature that
 * names its plot id (`plot_id`), never another plot's; a geometry's is the feature whose
 * `geojson_index` is its place among the geometries of the request (the reference service's
 * numbering; the contract shows none); a feature with neither is placed by `input_index`
 * (plot ids first, then geometries). A requested plot or geometry that nothing in the answer
 * names gets null (its row says `not in the answer`); a result naming a plot or geometry the
 * request did not hold is `unrequested` and paired with no one. Features that name nothing
 * at all are paired by position only when they are exactly as many as the entries left;
 * otherwise this throws (nothing can be paired safely).
 */
export function pairCheckResults(chunk: readonly CheckEntry[], body: unknown): CheckPairing {
	const features = featuresOf(body);
	const plots = chunk.filter((e) => e.kind === 'plot');
	const geos = chunk.filter((e) => e.kind === 'geojson');
	// The service's order: plot ids first, then geometries (what `input_index` counts).
	const ordered = [...plots, ...geos];
	const plotsById = new Map<string, CheckEntry[]>();
	for (const e of plots) plotsById.set(e.plotId, [...(plotsById.get(e.plotId) ?? []), e]);
	const byEntry = new Map<CheckEntry, Json>();
	const unrequested: Json[] = [];
	const unlabelled: Json[] = [];
	const free = (e: CheckEntry | undefined, kind?: CheckEntry['kind']) =>
		e !== undefined && !byEntry.has(e) && (kind === undefined || e.kind === kind);
	for (const feature of features) {
		const p = isObject(feature.properties) ? feature.properties : {};
		const plotId =
			p.plot_id !== undefined && p.plot_id !== null && p.input_type !== 'geojson'
				? String(p.plot_id)
				: undefined;
		const at = typeof p.input_index === 'number' ? ordered[p.input_index] : undefined;
		if (plotId !== undefined) {
			const entry = (plotsById.get(plotId) ?? []).find((e) => free(e));
			if (entry) byEntry.set(entry, feature);
			else unrequested.push(feature);
		} else if (p.input_type === 'geojson' || typeof p.geojson_index === 'number') {
			if (typeof p.geojson_index === 'number') {
				const entry = geos[p.geojson_index];
				if (free(entry)) byEntry.set(entry as CheckEntry, feature);
				else unrequested.push(feature);
			} else if (free(at, 'geojson')) byEntry.set(at as CheckEntry, feature);
			else unlabelled.push(feature);
		} else if (free(at, p.input_type === 'plot' ? 'plot' : undefined)) {
			byEntry.set(at as CheckEntry, feature);
		} else unlabelled.push(feature);
	}
	// The same plot asked for twice: one result for it serves both.
	for (const e of plots)
		if (!byEntry.has(e)) {
			const twin = plotsById.get(e.plotId)?.find((other) => byEntry.has(other));
			if (twin) byEntry.set(e, byEntry.get(twin) as Json);
		}
	if (unlabelled.length > 0) {
		const left = ordered.filter((e) => !byEntry.has(e));
		if (unlabelled.length !== left.length)
			throw new Error(
				`The service answered ${features.length} results for ${chunk.length} checked plots and geometries, so they cannot be paired with their input items.`,
			);
		left.forEach((e, k) => byEntry.set(e, unlabelled[k]));
	}
	return { results: chunk.map((e) => byEntry.get(e) ?? null), unrequested };
}

/**
 * Pairs each entry of `chunk` with its result feature (pairCheckResults), null where the
 * answer holds none. Throws when results that name nothing cannot be paired safely.
 */
export function matchCheckResults(chunk: readonly CheckEntry[], body: unknown): Array<Json | null> {
	return pairCheckResults(chunk, body).results;
}

/** The reason of a requested plot or geometry the answer holds no result for. */
const NOT_IN_ANSWER = 'not in the answer';

/**
 * The row of a requested plot or geometry without a result in the answer: nothing is known,
 * so its overlap is null with the reason `not in the answer` (never "no overlap").
 */
export function missingCheckRow(entry: CheckEntry): Json {
	const row = summariseCheck({ properties: {} }, entry);
	return { ...row, protected_area_overlap: null, protected_area_overlap_reason: NOT_IN_ANSWER };
}

/**
 * The warning on the rows of a request whose answer also held results nobody asked for: how
 * many, and what they named (at most 5), so that none is read as another plot's.
 */
export function unrequestedWarning(unrequested: readonly Json[]): string | undefined {
	if (unrequested.length === 0) return undefined;
	const named = unrequested.slice(0, 5).map((f) => {
		const p = isObject(f.properties) ? f.properties : {};
		if (p.plot_id !== undefined && p.plot_id !== null)
			return `plot ${String(p.plot_id).slice(0, 60)}`;
		if (typeof p.geojson_index === 'number') return `geometry ${p.geojson_index}`;
		return 'an unnamed result';
	});
	const more = unrequested.length > 5 ? ` and ${unrequested.length - 5} more` : '';
	return `The service's answer also held ${unrequested.length} result${unrequested.length === 1 ? '' : 's'} for plots or geometries this request did not ask for (${named.join(', ')}${more}); they were left out and are not attributed to any plot or geometry.`;
}

export { strictestLegality };

/** Properties the row is made from (everything else is passed through as it came). */
const HANDLED = new Set([
	...overlapKeys('protected_area'),
	'input_index',
	'input_type',
	'geojson_index',
	'plot_id',
	'plot_name',
	'area_ha',
]);

/**
 * One row per checked plot or geometry: what was checked, the overlap (yes/no, total
 * percentage and hectares, strictest extractive-activity legality) and the overlapping
 * areas with IUCN category, legality, conditions and regulation links. The metrics are
 * read nested under `protected_area_overlap_summary` or flat on the properties (the
 * contract does not show which). Unknown is never "no": without the service's yes/no (and
 * no overlapping area listed) `protected_area_overlap` is null and
 * `protected_area_overlap_reason` says why (`not reported: …`, or `failed: <reason>` for a
 * result the service marked failed); figures are 0 only when the service said there is no
 * overlap, and `overlapping_area_count` is null when the service sent no list.
 * Properties the node does not know are passed through.
 */
export function summariseCheck(feature: Json, entry: CheckEntry): Json {
	const p = isObject(feature.properties) ? feature.properties : {};
	const reading = readOverlap(p, 'protected_area');
	const areas = (reading.failure === null ? (reading.details ?? []) : []).map((d) => ({
		...d,
		area_id: d.area_id ?? null,
		area_name: d.area_name ?? null,
		local_name: d.local_name ?? null,
		iucn_category: d.iucn_category ?? null,
		type: d.type ?? null,
		overlap_area_ha: num(d.overlap_area_ha),
		extractive_activity_legality: d.extractive_activity_legality ?? null,
		extractive_activity_conditions: d.extractive_activity_conditions ?? null,
		regulation_names: Array.isArray(d.regulation_names) ? d.regulation_names : [],
		regulation_urls: Array.isArray(d.regulation_urls) ? d.regulation_urls : [],
		source_name: d.source_name ?? null,
	}));
	const row: Json = {
		input_type: entry.kind === 'plot' ? 'plot' : 'geometry',
		plot_id:
			entry.kind === 'plot' ? (p.plot_id !== undefined ? String(p.plot_id) : entry.plotId) : null,
		plot_name: typeof p.plot_name === 'string' ? p.plot_name : null,
		input_feature_index: entry.kind === 'geojson' ? entry.indexInItem : null,
		area_ha: num(p.area_ha),
		protected_area_overlap: reading.overlap,
		protected_area_overlap_reason: reading.reason,
		total_overlap_percentage: reading.percentage,
		total_overlap_area_ha: reading.areaHa,
		most_restrictive_extractive_activity_legality:
			reading.failure === null ? (reading.legality ?? strictestLegality(areas)) : null,
		overlapping_area_count:
			reading.failure === null && reading.details !== null
				? areas.length
				: reading.overlap === false
					? 0
					: null,
		overlapping_areas: areas,
	};
	for (const [key, value] of Object.entries(p))
		if (!HANDLED.has(key) && !(key in row)) row[key] = value;
	return row;
}

/** Several answers as one FeatureCollection (for the raw output of a check sent in several requests). */
export function mergeCheckAnswers(answers: readonly unknown[]): Json {
	if (answers.length === 1 && isObject(answers[0])) return answers[0];
	const first = answers.find(isObject) ?? {};
	const merged: Json = {
		...first,
		type: 'FeatureCollection',
		features: answers.flatMap(featuresOf),
	};
	merged.metadata = answers.map((a) => (isObject(a) ? (a.metadata ?? null) : null));
	return merged;
}

/**
 * The tokens a check answer says it charged (its `metadata`, or the top level: tokens_charged,
 * token_cost, tokens_used, tokens), or undefined when it says nothing: the contract does not
 * show where a check's cost appears.
 */
export function tokensOfCheckAnswer(answer: unknown): number | undefined {
	if (!isObject(answer)) return undefined;
	for (const where of [answer.metadata, answer]) {
		if (!isObject(where)) continue;
		for (const key of ['tokens_charged', 'token_cost', 'tokens_used', 'tokens']) {
			const n = num(where[key]);
			if (n !== null) return n;
		}
	}
	return undefined;
}

/** A check request that was answered (and so paid for), with the outputs made of its answer. */
export interface PaidChunk {
	entries: readonly CheckEntry[];
	outputs: ReadonlyArray<{ item: number | number[]; json: Json }>;
	/** Tokens the answer says it charged, when it says. */
	tokens?: number;
}

function itemsText(items: readonly number[]): string {
	const sorted = [...new Set(items)].sort((a, b) => a - b);
	const shown = sorted.slice(0, 30).join(', ');
	return `item${sorted.length > 1 ? 's' : ''} ${shown}${sorted.length > 30 ? ` and ${sorted.length - 30} more` : ''}`;
}

/** "items 0, 1 and item 2 (30 of 50)": the items the entries cover, partly covered ones counted. */
function coverage(covered: readonly CheckEntry[], all: readonly CheckEntry[]): string {
	const count = (entries: readonly CheckEntry[]) => {
		const m = new Map<number, number>();
		for (const e of entries) m.set(e.itemIndex, (m.get(e.itemIndex) ?? 0) + 1);
		return m;
	};
	const done = count(covered);
	const total = count(all);
	const whole = [...done.keys()].filter((i) => done.get(i) === total.get(i));
	const partial = [...done.keys()]
		.filter((i) => done.get(i) !== total.get(i))
		.sort((a, b) => a - b)
		.map((i) => `item ${i} (${done.get(i)} of ${total.get(i)} plots and geometries)`);
	return [...(whole.length > 0 ? [itemsText(whole)] : []), ...partial].join(', ');
}

/**
 * What a check run had paid for when it stopped on a failure: a sentence for the error's
 * description (which items were checked, what it cost when the answers say, what is left to
 * run) and the results themselves, to keep on the error so that they are not lost.
 * `failed` names the entries of the failing request when it may have been carried out (and
 * charged) although its answer was lost. Undefined when nothing was or may have been paid.
 */
export function paidBeforeFailure(
	paid: readonly PaidChunk[],
	all: readonly CheckEntry[],
	failed?: { entries: readonly CheckEntry[]; what: string },
): { description: string; context: Json } | undefined {
	if (paid.length === 0 && !failed) return undefined;
	const parts: string[] = [];
	const context: Json = {};
	if (paid.length > 0) {
		const checked = paid.flatMap((p) => p.entries);
		const known = paid.filter((p) => p.tokens !== undefined);
		const sum = known.reduce((total, p) => total + (p.tokens ?? 0), 0);
		const cost =
			known.length === paid.length
				? `${sum} tokens charged`
				: known.length > 0
					? `at least ${sum} tokens charged (not every answer said what it cost)`
					: 'the answers did not say what they cost';
		const done = new Set(checked);
		const left = all.filter((e) => !done.has(e));
		parts.push(
			`Checked and paid for before the failure: ${coverage(checked, all)} (${checked.length} plots and geometries; ${cost}). Their results are attached to this error (context.checkedBeforeFailure); turn on "Continue On Fail" (Settings → On Error) to get them as output items instead.${left.length > 0 ? ` Run again only ${coverage(left, all)}, or the checks already made will be paid twice.` : ''}`,
		);
		context.checkedBeforeFailure = paid.flatMap((p) =>
			p.outputs.map((o) => ({ item: o.item, json: o.json })),
		);
		context.tokensChargedBeforeFailure = known.length === paid.length ? sum : null;
	}
	if (failed)
		parts.push(
			`The failing request for ${coverage(failed.entries, all)} may have been carried out and charged too (${failed.what}); its results cannot be looked up.`,
		);
	return { description: parts.join(' '), context };
}
