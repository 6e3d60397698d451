/**
 * Shape variants: what the fake sends where the contract does not show the shape. Our fake
 * agrees with our node by construction; re-running the suites under each variant is how we
 * find where the node depends on a guess (see test/variants.js).
 *
 *   startFakeService({ variant: 'flat,silent,uuid' })    // or { overlap: 'flat', ... }
 *   FAKE_VARIANT=flat,silent,uuid npx jest …              // the default of startFakeService
 *
 * Dimensions (first value = the default, which is what the fake always did):
 * - `overlap`: where the overlap metrics of protected-area and Indigenous-land results go
 *   (per-plot analysis, analysis-run output, protected-areas check features) — `nested`
 *   under `<kind>_overlap_summary` as the contract shows, `flat` on the result object /
 *   feature properties, or `absent` (no yes/no, no figures; the lists of overlapping areas stay).
 * - `plotFailure`: how a plot that failed in a job shows — `status`: its analysis becomes
 *   `{status: "failed", error, job_id}`; `silent`: no per-plot status field at all (its
 *   analysis and image stay as they were; only the job status, the plot's analysis runs and
 *   `job_visualization_url` tell); `job-id`: like `silent`, and every analysis a job writes
 *   carries that job's `job_id`.
 * - `ids`: plot, job and analysis-run ids as `numeric` strings (100001, 7001, 500001) or as
 *   `uuid`s (deterministic). Protected-area ids stay numeric (they are WDPA data).
 *
 * Text form: comma/plus/space separated tokens, each `dimension=value` or a bare value (every
 * value names its dimension), e.g. `flat,silent,uuid` or `overlap=absent+ids=uuid`; `default`
 * or an empty string is the default. An unknown token is an error (a typo must not quietly
 * test the default).
 */
import { createHash } from 'crypto';

export type OverlapShape = 'nested' | 'flat' | 'absent';
export type PlotFailureShape = 'status' | 'silent' | 'job-id';
export type IdShape = 'numeric' | 'uuid';

export interface FakeVariant {
	overlap: OverlapShape;
	plotFailure: PlotFailureShape;
	ids: IdShape;
}

export const DEFAULT_VARIANT: Readonly<FakeVariant> = Object.freeze({
	overlap: 'nested',
	plotFailure: 'status',
	ids: 'numeric',
});

export const VARIANT_VALUES: { [K in keyof FakeVariant]: ReadonlyArray<FakeVariant[K]> } = {
	overlap: ['nested', 'flat', 'absent'],
	plotFailure: ['status', 'silent', 'job-id'],
	ids: ['numeric', 'uuid'],
};

/** The environment variable the default of `startFakeService` reads. */
export const VARIANT_ENV = 'FAKE_VARIANT';

const DIMENSIONS = Object.keys(VARIANT_VALUES) as Array<keyof FakeVariant>;

/** Reads a variant from its text form or a partial object; missing dimensions are the default. */
export function parseVariant(spec: string | Partial<FakeVariant> | undefined | null): FakeVariant {
	const out: FakeVariant = { ...DEFAULT_VARIANT };
	if (spec === undefined || spec === null) return out;
	const set = (dim: string, value: string) => {
		const d = DIMENSIONS.find((k) => k.toLowerCase() === dim.toLowerCase());
		if (!d) throw new Error(`Unknown fake variant dimension "${dim}" (${DIMENSIONS.join(', ')})`);
		const allowed = VARIANT_VALUES[d] as readonly string[];
		if (!allowed.includes(value))
			throw new Error(`Unknown fake variant value ${d}="${value}" (one of ${allowed.join(', ')})`);
		(out as unknown as Record<string, string>)[d] = value;
	};
	if (typeof spec === 'object') {
		for (const [k, v] of Object.entries(spec)) if (v !== undefined) set(k, String(v));
		return out;
	}
	for (const token of spec.split(/[\s,+]+/).filter((t) => t !== '')) {
		if (token.toLowerCase() === 'default') continue;
		const eq = token.indexOf('=');
		if (eq > 0) {
			set(token.slice(0, eq), token.slice(eq + 1));
			continue;
		}
		const dim = DIMENSIONS.find((d) => (VARIANT_VALUES[d] as readonly string[]).includes(token));
		if (!dim)
			throw new Error(
				`Unknown fake variant "${token}" (values: ${DIMENSIONS.map((d) => VARIANT_VALUES[d].join('/')).join(', ')})`,
			);
		set(dim, token);
	}
	return out;
}

/** `overlap=flat,plotFailure=silent,ids=uuid` (every dimension, parseable again). */
export function variantName(v: FakeVariant): string {
	return DIMENSIONS.map((d) => `${d}=${v[d]}`).join(',');
}

export function isDefaultVariant(v: FakeVariant): boolean {
	return DIMENSIONS.every((d) => v[d] === DEFAULT_VARIANT[d]);
}

// ---------- ids ----------

export type IdKind = 'plot' | 'job' | 'run';

/** The id of the `num`-th record of a kind (num keeps ordering and pagination). */
export function idFor(v: FakeVariant, kind: IdKind, num: number): string {
	if (v.ids === 'numeric') return String(num);
	const h = createHash('sha1').update(`fake-${kind}:${num}`).digest('hex');
	return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The pattern (source, no anchors) of one id in a path, for the route table. */
export function idPattern(v: FakeVariant): string {
	return v.ids === 'numeric'
		? '\\d+'
		: '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
}

/** Whether `id` has the shape of an id of this variant. */
export function isIdShape(v: FakeVariant, id: string): boolean {
	return new RegExp(`^(?:${idPattern(v)})$`).test(id);
}

// ---------- overlap results ----------

const SUMMARY_KEYS = ['protected_area_overlap_summary', 'indigenous_land_overlap_summary'];

/**
 * One overlap result (`{<kind>_overlap_summary, <kind>_details, sources}`, or a check
 * feature's properties) in the variant's shape. Anything else is returned as it is.
 */
export function shapeOverlap<T>(v: FakeVariant, result: T): T {
	if (v.overlap === 'nested' || !result || typeof result !== 'object' || Array.isArray(result))
		return result;
	const r = result as Record<string, unknown>;
	const key = SUMMARY_KEYS.find((k) => k in r);
	if (!key) return result;
	const { [key]: summary, ...rest } = r;
	if (v.overlap === 'absent') return rest as T;
	return { ...(summary && typeof summary === 'object' ? summary : {}), ...rest } as T;
}

/** Every overlap result inside an analysis / a run output (EUDR bundle or a single capability). */
export function shapeAnalysis<T>(v: FakeVariant, value: T): T {
	if (v.overlap === 'nested' || !value || typeof value !== 'object' || Array.isArray(value))
		return value;
	const r = value as Record<string, unknown>;
	if (SUMMARY_KEYS.some((k) => k in r)) return shapeOverlap(v, value);
	const out: Record<string, unknown> = {};
	for (const [k, x] of Object.entries(r))
		out[k] =
			x && typeof x === 'object' && !Array.isArray(x) && SUMMARY_KEYS.some((s) => s in x)
				? shapeOverlap(v, x)
				: x;
	return out as T;
}
