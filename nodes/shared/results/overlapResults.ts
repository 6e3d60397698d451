/**
 * Reading an overlap result (protected areas or Indigenous land) in every shape the service
 * may send it. Pure: no n8n runtime imports. Shared by the per-plot rows (results/flatten.ts)
 * and the Protected Area → Check rows (protectedAreas/areaChecks.ts), so both read the same.
 *
 * The contract shows the metrics nested under `<kind>_overlap_summary`; the properties of a
 * protected-areas check result are "not shown", and services send the same metrics flat on
 * the object as well. Both are read (nested wins field by field). Unknown is never "no":
 * - `overlap` is the service's own yes/no (nested or flat); without it, `true` when the
 *   service lists overlapping areas or gives a figure above 0, `false` when its figures are
 *   0 and it lists no area; otherwise `null` with a `reason`.
 * - a figure (percentage, hectares) is the service's number; `0` only when the service said
 *   there is no overlap; otherwise `null`.
 * - a result marked failed (`status: "failed"`, or an `error` without any metrics) gives
 *   `null` everywhere with the reason `failed: <the service's error>`.
 */
import { bool, isObject, num, str } from '../values/answerValues';

type OverlapKind = 'protected_area' | 'indigenous_land';

/** Why an overlap is `null`: the words every row uses (see docs/geospatial-analysis/jobs.md, "what null means"). */
export const OVERLAP_REASONS = {
	/** the analysis holds no result of this kind (the check was not run) */
	notChecked: 'not checked',
	/** a result without the yes/no, and no overlapping areas listed */
	notReported: 'not reported: the service sent no overlap summary',
} as const;

export interface OverlapReading {
	/** the service's yes/no; true when it lists overlapping areas; null when it did not say */
	overlap: boolean | null;
	/** why `overlap` is null; null when it is known */
	reason: string | null;
	/** total overlap in % of the plot or geometry */
	percentage: number | null;
	/** total overlap in hectares */
	areaHa: number | null;
	/** protected areas only: the strictest extractive-activity legality the service gave */
	legality: string | null;
	/** the overlapping areas / territories the service listed (objects only), or null when it sent no list */
	details: Array<Record<string, unknown>> | null;
	/** the service's failure reason when the result is marked failed */
	failure: string | null;
}

const KEYS: Record<
	OverlapKind,
	{ summary: string; flag: string; details: string; legality?: string }
> = {
	protected_area: {
		summary: 'protected_area_overlap_summary',
		flag: 'protected_area_overlap',
		details: 'protected_area_details',
		legality: 'most_restrictive_extractive_activity_legality',
	},
	indigenous_land: {
		summary: 'indigenous_land_overlap_summary',
		flag: 'indigenous_land_overlap',
		details: 'indigenous_land_details',
	},
};

/** The keys of an overlap result this reader interprets (for passing the others through). */
export function overlapKeys(kind: OverlapKind): string[] {
	const k = KEYS[kind];
	return [
		k.summary,
		k.flag,
		k.details,
		'total_overlap_percentage',
		'total_overlap_area_ha',
		...(k.legality ? [k.legality] : []),
	];
}

const FAILED = /^(failed|failure|error|errored)$/i;

/** A message out of an `error` value (text, or an object with a message). */
export function errorText(value: unknown): string | null {
	if (value === undefined || value === null || value === '' || value === false) return null;
	if (typeof value === 'string') return value;
	if (isObject(value)) {
		const message = str(value.message) ?? str(value.detail) ?? str(value.error);
		return message ?? JSON.stringify(value);
	}
	return str(value) ?? JSON.stringify(value);
}

/** `failed: <reason>` for a result the service marked failed, or undefined. */
function failureOf(result: Record<string, unknown>, hasMetrics: boolean): string | undefined {
	const status = str(result.status) ?? str(result.state);
	const error = errorText(result.error) ?? errorText(result.error_message);
	if (status !== null && FAILED.test(status.trim()))
		return error ?? 'the service marked this result failed (no reason given)';
	if (error !== null && !hasMetrics) return error;
	return undefined;
}

/**
 * The overlap of one result object (an `analysis.protected_areas` / `analysis.indigenous_land`
 * object, or the properties of a protected-areas check feature). `undefined`/non-objects read
 * as "not checked".
 */
export function readOverlap(result: unknown, kind: OverlapKind): OverlapReading {
	const k = KEYS[kind];
	if (!isObject(result))
		return {
			overlap: null,
			reason: OVERLAP_REASONS.notChecked,
			percentage: null,
			areaHa: null,
			legality: null,
			details: null,
			failure: null,
		};
	const nested = isObject(result[k.summary]) ? (result[k.summary] as Record<string, unknown>) : {};
	const field = (key: string): unknown => (nested[key] !== undefined ? nested[key] : result[key]);
	const said = bool(field(k.flag));
	const percentage = num(field('total_overlap_percentage'));
	const areaHa = num(field('total_overlap_area_ha'));
	const legality = k.legality ? str(field(k.legality)) : null;
	const details = Array.isArray(result[k.details])
		? (result[k.details] as unknown[]).filter(isObject)
		: null;
	const hasMetrics = said !== null || percentage !== null || areaHa !== null;
	const failure = failureOf(result, hasMetrics);
	if (failure !== undefined)
		return {
			overlap: null,
			reason: `failed: ${failure}`,
			percentage: null,
			areaHa: null,
			legality: null,
			details,
			failure,
		};
	let overlap: boolean | null = said;
	const figures = [percentage, areaHa].filter((v): v is number => v !== null);
	if (overlap === null && (figures.some((v) => v > 0) || (details?.length ?? 0) > 0))
		overlap = true;
	// Figures of exactly 0 and no area listed: the service's own "no overlap".
	else if (overlap === null && figures.length > 0 && figures.every((v) => v === 0)) overlap = false;
	return {
		overlap,
		reason: overlap === null ? OVERLAP_REASONS.notReported : null,
		percentage: percentage ?? (said === false ? 0 : null),
		areaHa: areaHa ?? (said === false ? 0 : null),
		legality,
		details,
		failure: null,
	};
}

const LEGALITY_ORDER = ['prohibited', 'limited', 'unknown', 'permitted'];

/** The strictest extractive-activity legality among areas (prohibited > limited > unknown > permitted). */
export function strictestLegality(areas: ReadonlyArray<Record<string, unknown>>): string | null {
	let best: string | null = null;
	for (const a of areas) {
		const v =
			typeof a.extractive_activity_legality === 'string' ? a.extractive_activity_legality : null;
		if (v === null) continue;
		const rank = LEGALITY_ORDER.indexOf(v.toLowerCase());
		const bestRank = best === null ? Infinity : LEGALITY_ORDER.indexOf(best.toLowerCase());
		if (best === null || (rank !== -1 && (bestRank === -1 || rank < bestRank))) best = v;
	}
	return best;
}
