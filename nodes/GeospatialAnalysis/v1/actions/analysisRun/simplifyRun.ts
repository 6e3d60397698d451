/**
 * Pure helpers for analysis runs (no n8n imports): reading the list out of the
 * `GET /analysis-runs` answer and flattening one run for the Simplify option.
 *
 * The contract does not show a run's exact field names, so both readers accept the
 * names the service is known to use plus obvious alternatives, and never fail on an
 * unexpected shape.
 */

import { isObject, num } from '../../../../shared/values/answerValues';
import { parseServiceTimestamp } from '../../../../shared/time/serviceTime';

type Json = Record<string, unknown>;

/** The runs in a `GET /analysis-runs?plot_id=` answer (shared with the per-plot results). */
export { runsFromResponse } from '../../../../shared/results/analysisRuns';

function pick(run: Json, keys: string[]): unknown {
	for (const key of keys) {
		if (run[key] !== undefined) return run[key];
	}
	return undefined;
}

function asText(value: unknown): string | null {
	if (value === undefined || value === null) return null;
	if (typeof value === 'string') return value;
	if (typeof value === 'object') {
		const message = (value as Json).message;
		return typeof message === 'string' ? message : JSON.stringify(value);
	}
	return String(value);
}

function snake(text: string): string {
	return text
		.replace(/([a-z0-9])([A-Z])/g, '$1_$2')
		.replace(/[^A-Za-z0-9]+/g, '_')
		.replace(/^_+|_+$/g, '')
		.toLowerCase();
}

/**
 * Artifact links as flat fields: `{type: "visualization", url}` becomes
 * `visualization_url`; a second artifact of the same type `visualization_url_2`;
 * artifacts without a type `artifact_url`, `artifact_url_2`, …. Accepts an array of
 * objects (`url`/`href`/`link`), an array of URL strings, or an object map type → URL.
 */
export function flattenArtifacts(artifacts: unknown): Json {
	const out: Json = {};
	const add = (type: unknown, url: unknown) => {
		if (typeof url !== 'string' || url === '') return;
		const base = `${snake(typeof type === 'string' && type !== '' ? type : 'artifact') || 'artifact'}_url`;
		let key = base;
		for (let n = 2; key in out; n++) key = `${base}_${n}`;
		out[key] = url;
	};
	if (Array.isArray(artifacts)) {
		for (const artifact of artifacts) {
			if (typeof artifact === 'string') add(undefined, artifact);
			else if (isObject(artifact)) {
				add(
					pick(artifact, ['type', 'kind', 'name']),
					pick(artifact, ['url', 'href', 'link', 'uri']),
				);
			}
		}
	} else if (isObject(artifacts)) {
		for (const [type, value] of Object.entries(artifacts)) {
			add(type, isObject(value) ? pick(value, ['url', 'href', 'link', 'uri']) : value);
		}
	}
	return out;
}

/** All artifact URLs of a run, in the service's order. */
function artifactUrls(flat: Json): string[] {
	return Object.values(flat).filter((v): v is string => typeof v === 'string');
}

interface SimplifyOptions {
	/** Keep the analysis output (Get); the list answer has none. */
	includeOutput?: boolean;
}

/**
 * One run as flat fields: ids, check type, status, timing (created/started/finished and
 * the duration in seconds once finished), token cost and tokens charged, the error of a
 * failed run, and one `<type>_url` field per artifact plus `artifact_urls`. With
 * `includeOutput`, the analysis output is kept as it is under `output`.
 */
export function simplifyRun(run: Json, options: SimplifyOptions = {}): Json {
	const started = pick(run, ['started_at', 'startedAt', 'start_time']);
	const finished = pick(run, ['finished_at', 'finishedAt', 'completed_at', 'ended_at', 'end_time']);
	const startMs = parseServiceTimestamp(started);
	const endMs = parseServiceTimestamp(finished);
	const artifacts = flattenArtifacts(pick(run, ['artifacts', 'artifact_links', 'links']));
	const out: Json = {
		run_id: asText(pick(run, ['run_id', 'id', 'runId'])),
		plot_id: asText(pick(run, ['plot_id', 'plotId'])),
		job_id: asText(pick(run, ['job_id', 'jobId'])),
		check_type: asText(pick(run, ['check_type', 'type', 'checkType', 'capability'])),
		status: asText(pick(run, ['status', 'state'])),
		created_at: asText(pick(run, ['created_at', 'createdAt'])),
		started_at: asText(started),
		finished_at: asText(finished),
		duration_seconds:
			startMs !== undefined && endMs !== undefined && endMs >= startMs
				? (endMs - startMs) / 1000
				: null,
		token_cost: num(pick(run, ['token_cost', 'tokens_cost', 'tokenCost', 'cost'])),
		tokens_charged: num(pick(run, ['tokens_charged', 'tokensCharged'])),
		error: asText(pick(run, ['error', 'error_message'])),
		...artifacts,
		artifact_urls: artifactUrls(artifacts),
	};
	if (options.includeOutput) out.output = run.output ?? null;
	return out;
}
