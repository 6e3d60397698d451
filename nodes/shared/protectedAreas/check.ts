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
 * `input_index`; matching uses those and falls back to position.
 */

import { isObject, num } from '../helpers/values';
import { overlapKeys, readOverlap, strictestLegality } from '../results/overlap';

export const CHECK_BATCH_LIMIT = 100;

export type CheckEntry =
	| { itemIndex: number; kind: 'plot'; plotId: string; indexInItem: number }
	| { itemIndex: number; kind: 'geojson'; feature: Record<string, unknown>; indexInItem: number };

export type Json = Record<string, unknown>;

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
export function featuresOf(body: unknown): Json[] {
	if (Array.isArray(body)) return body.filter(isObject);
	if (isObject(body) && Array.isArray(body.features)) return body.features.filter(isObject);
	return [];
}

/**
 * Pairs each entry of `chunk` with its result feature. Throws when the answer does not
 * hold exactly one result per entry (then nothing can be paired safely).
 */
export function matchCheckResults(chunk: readonly CheckEntry[], body: unknown): Json[] {
	const features = featuresOf(body);
	const plots = chunk.filter((e) => e.kind === 'plot');
	const geos = chunk.filter((e) => e.kind === 'geojson');
	// The service's order: plot ids first, then geometries (what `input_index` counts).
	const ordered = [...plots, ...geos];
	const byEntry = new Map<CheckEntry, Json>();
	const plotQueue: Json[] = [];
	const fallback: Json[] = [];
	for (const feature of features) {
		const p = isObject(feature.properties) ? feature.properties : {};
		if (
			p.input_type === 'geojson' &&
			typeof p.geojson_index === 'number' &&
			geos[p.geojson_index]
		) {
			byEntry.set(geos[p.geojson_index], feature);
		} else if (p.input_type === 'plot') {
			plotQueue.push(feature);
		} else if (
			typeof p.input_index === 'number' &&
			ordered[p.input_index] &&
			!byEntry.has(ordered[p.input_index])
		) {
			byEntry.set(ordered[p.input_index], feature);
		} else {
			fallback.push(feature);
		}
	}
	// plot results in the order of the plot ids; a plot_id that names another entry wins
	const unclaimed = [...plots];
	for (const feature of plotQueue) {
		const p = feature.properties as Json;
		let at = unclaimed.findIndex(
			(e) => e.kind === 'plot' && p.plot_id !== undefined && String(p.plot_id) === e.plotId,
		);
		if (at === -1) at = 0;
		const [entry] = unclaimed.splice(at, 1);
		if (entry) byEntry.set(entry, feature);
	}
	for (const entry of ordered) {
		if (!byEntry.has(entry) && fallback.length > 0) byEntry.set(entry, fallback.shift() as Json);
	}
	const missing = ordered.filter((e) => !byEntry.has(e));
	if (missing.length > 0 || features.length !== chunk.length) {
		throw new Error(
			`The service answered ${features.length} results for ${chunk.length} checked plots and geometries, so they cannot be paired with their input items.`,
		);
	}
	return chunk.map((e) => byEntry.get(e) as Json);
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
