/**
 * How Plot → Register packs input items into `make_plot` requests, and a small
 * promise pool to send them. Pure: no n8n imports.
 *
 * The batching rule (why):
 * - `make_plot` takes at most 20 features per request (contract, Limits).
 * - `plot_name`, `commodity`, `harvest_date`, `notes` and `additional_info` are
 *   request-level fields beside `geojson` (field notes). The contract documents no
 *   per-feature form of them (only `properties.point_ha`), so the node never relies on
 *   one: items share a request only when all these fields are equal. Items without
 *   per-plot fields (the common "latitude/longitude columns" sheet) all share, so 45 such
 *   rows go in ceil(45 / 20) = 3 requests.
 * - A request-level `plot_name` with several features names the plots "<name> 1",
 *   "<name> 2", …; so an item with its own plot name never shares a request with another
 *   item (its plots keep exactly the name the user gave, suffixed only when the item
 *   itself holds several features).
 * - An item's features are never split across requests, so an item is registered
 *   completely or not at all (each item holds at most 20 features: parsing enforces it).
 * - Within a group, items are placed first-fit in input order, which for single-feature
 *   items gives the fewest possible requests.
 */

import { isObject } from '../values/answerValues';
import { UnexpectedAnswerError, describeBody } from '../transport/answers';

export const MAX_FEATURES_PER_REQUEST = 20;

/** Request-level fields of one `make_plot` request (beside `geojson`). */
export interface RequestFields {
	plot_name?: string;
	commodity?: string;
	harvest_date?: string;
	notes?: string;
	additional_info?: Record<string, string>;
}

export interface RegistrationUnit {
	itemIndex: number;
	featureCount: number;
	fields: RequestFields;
}

interface PlannedRequest {
	/** Indexes into the units given to `planRegistrationRequests`, in order. */
	units: number[];
	featureCount: number;
	fields: RequestFields;
}

function sortedJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
	if (value && typeof value === 'object') {
		const entries = Object.entries(value as Record<string, unknown>)
			.filter(([, v]) => v !== undefined)
			.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
		return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${sortedJson(v)}`).join(',')}}`;
	}
	return JSON.stringify(value);
}

/** The grouping key: units with equal keys may share a request. */
function sharingKey(unit: RegistrationUnit, position: number): string {
	if (unit.fields.plot_name !== undefined) return `own:${position}`;
	return sortedJson(unit.fields);
}

/** Packs units into requests of at most `maxFeatures` features; see the rule above. */
export function planRegistrationRequests(
	units: readonly RegistrationUnit[],
	maxFeatures = MAX_FEATURES_PER_REQUEST,
): PlannedRequest[] {
	const requests: PlannedRequest[] = [];
	const openByKey = new Map<string, PlannedRequest[]>();
	units.forEach((unit, position) => {
		if (unit.featureCount < 1 || unit.featureCount > maxFeatures) {
			throw new RangeError(
				`Item ${unit.itemIndex} holds ${unit.featureCount} features; a request takes 1 to ${maxFeatures}.`,
			);
		}
		const key = sharingKey(unit, position);
		const open = openByKey.get(key) ?? [];
		let target = open.find((r) => r.featureCount + unit.featureCount <= maxFeatures);
		if (!target) {
			target = { units: [], featureCount: 0, fields: unit.fields };
			open.push(target);
			openByKey.set(key, open);
			requests.push(target);
		}
		target.units.push(position);
		target.featureCount += unit.featureCount;
	});
	return requests;
}

/** A plot of an answer: an object with its `plot_id` (or `id`), a string or a number. */
function isPlot(value: unknown): value is Record<string, unknown> {
	if (!isObject(value)) return false;
	const id = value.plot_id ?? value.id;
	return (typeof id === 'string' && id !== '') || (typeof id === 'number' && Number.isFinite(id));
}

/**
 * The plots of a `make_plot` answer: a single plot object for one feature, `{plots: [...]}`
 * for several; both shapes are accepted whatever the feature count (tolerant where the
 * contract is silent), also `{plot: {...}}` and a bare array. Every plot must carry its id.
 * An answer in none of these shapes throws an UnexpectedAnswerError naming the endpoint,
 * never an empty or invented list (the request was carried out: plots may exist).
 */
export function plotsOfResponse(body: unknown): Array<Record<string, unknown>> {
	const problem = (what: string): never => {
		throw new UnexpectedAnswerError('POST /plots/make_plot', what, { creates: true });
	};
	const list: unknown = Array.isArray(body)
		? body
		: isObject(body) && Array.isArray(body.plots)
			? body.plots
			: isObject(body) && isObject(body.plot)
				? [body.plot]
				: isPlot(body)
					? [body]
					: problem(
							`it is not a plot or a list of plots (it was ${describeBody({ kind: 'json', value: body })})`,
						);
	const plots = list as unknown[];
	const broken = plots.findIndex((p) => !isPlot(p));
	if (broken >= 0)
		problem(
			`plot ${broken + 1} of ${plots.length} has no plot_id (it was ${describeBody({ kind: 'json', value: plots[broken] })})`,
		);
	return plots as Array<Record<string, unknown>>;
}
