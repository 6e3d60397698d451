/**
 * Shared setup of the fake's contract tests (contract/<resource>.test.ts), over real loopback HTTP.
 * Run: npx jest test/fake-service
 */
import { startFakeService, type FakeService } from '../index';

export const T0 = new Date('2026-03-01T12:00:00Z');

/** The fake of the test file that called useFakeService() (each jest test file has its own module registry). */
export let f: FakeService;

export type Who = 'alice' | 'bob' | 'viewer' | 'none';
export interface Opts {
	who?: Who;
	body?: unknown;
	raw?: string;
	headers?: Record<string, string>;
	version?: string | null;
	bearer?: string;
}
export interface Res<T> {
	status: number;
	headers: Headers;
	text: string;
	/** the parsed body, typed as the caller expects it (the assertions check it); undefined when not JSON */
	json: T;
}

// Bodies of the service's answers, as far as these tests read them.
export interface ErrorBody {
	code: number | string;
	message: string;
	error?: string;
}
export interface Meta {
	next_cursor: string | null;
	limit: number;
	count: number;
	has_more: boolean;
}
export interface PaSummary {
	protected_area_overlap: boolean;
	total_overlap_percentage: number;
	total_overlap_area_ha: number;
	most_restrictive_extractive_activity_legality: string | null;
}
export interface ProtectedAreaResult {
	protected_area_overlap_summary: PaSummary;
	protected_area_details: Array<Record<string, unknown> & { area_name: string }>;
}
export interface Analysis extends Record<string, unknown> {
	risk_level?: string;
	areaHa: number;
	protectedAreas: Array<[string, number]>;
	protected_areas: ProtectedAreaResult;
	indigenous_land: {
		indigenous_land_overlap_summary: { indigenous_land_overlap: boolean };
		indigenous_land_details: Array<Record<string, unknown>>;
	};
}
export interface Plot {
	plot_id: string;
	plot_name: string;
	username: string;
	commodity: string | null;
	country: string;
	lat: string;
	lon: string;
	area_ha: number;
	tokens_cost: number;
	created_at: string;
	analysis: Analysis;
	analysis_image: string;
	geojson_features: Array<{ geometry: { type: string } }>;
}
export interface PlotList {
	plots: Plot[];
	meta: Meta;
}
export interface Job {
	job_id: string;
	status: string;
	token_cost: number;
	created_at: string;
	updated_at: string;
	job_visualization_url: string[];
	plots: Plot[];
}
export interface JobList {
	jobs: Job[];
	meta: Meta;
}
export interface Quote {
	dry_run: boolean;
	token_cost: number;
	plots: unknown[];
	sufficient: boolean;
	checks: Array<{ type: string; config: Record<string, unknown> }>;
}
export interface Run {
	run_id: string;
	check_type: string;
	status: string;
	started_at: string | null;
	finished_at: string | null;
	artifacts: Array<{ type: string; url: string }>;
	output?: Record<string, unknown> & { risk_level?: string };
}
export interface RunList {
	runs: Run[];
}
export interface Capability {
	name: string;
	label: string;
	description: string;
	result_key?: string;
	methodology?: string;
	cost_hint: { currency: string };
}
export interface PaFeatureCollection {
	type: string;
	features: Array<{
		type: string;
		properties: ProtectedAreaResult & Record<string, unknown>;
		geometry: { type: string };
	}>;
	sources: Array<{ data_version: string }>;
}

export async function call<T = ErrorBody>(
	method: string,
	path: string,
	o: Opts = {},
): Promise<Res<T>> {
	const headers: Record<string, string> = {};
	if (o.version !== null) headers['x-api-version'] = o.version ?? '3';
	const who = o.who ?? 'alice';
	if (o.bearer) headers.authorization = `Bearer ${o.bearer}`;
	else if (who !== 'none') headers.authorization = `Bearer ${f.users[who].apiKey}`;
	let body: string | undefined;
	if (o.raw !== undefined) body = o.raw;
	else if (o.body !== undefined) {
		body = JSON.stringify(o.body);
		headers['content-type'] = 'application/json';
	}
	Object.assign(headers, o.headers ?? {});
	for (const k of Object.keys(headers)) if (headers[k] === '') delete headers[k];
	const r = await fetch(f.url + path, { method, headers, body });
	const text = await r.text();
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { status: r.status, headers: r.headers, text, json: json as T };
}

export const sq = (lon: number, lat: number, d = 0.01) => ({
	type: 'Polygon',
	coordinates: [
		[
			[lon, lat],
			[lon + d, lat],
			[lon + d, lat + d],
			[lon, lat + d],
			[lon, lat],
		],
	],
});
export const fc = (...geoms: unknown[]) => ({
	type: 'FeatureCollection',
	features: geoms.map((g) => ({ type: 'Feature', properties: {}, geometry: g })),
});

export async function makePlot(
	geom: unknown = sq(-55.5, -6.5),
	extra: Record<string, unknown> = {},
	who: Who = 'alice',
) {
	const r = await call<Plot>('POST', '/plots/make_plot', {
		who,
		body: { geojson: fc(geom), commodity: 'cocoa', ...extra },
	});
	expect(r.status).toBe(200);
	return r.json;
}

/**
 * One fake per test file, started at T0 with 1 s per plot; before each test it is reset and its
 * clock frozen; after each test it must have logged no unexpected exception.
 */
export function useFakeService(): void {
	beforeAll(async () => {
		// The contract's shapes, whatever FAKE_VARIANT says (variants have their own tests).
		f = await startFakeService({ startTime: T0, perPlotDurationMs: 1000, variant: 'default' });
	});
	afterAll(async () => {
		await f.close();
	});
	beforeEach(() => {
		f.reset();
		f.clock.setScale(0);
	});
	afterEach(() => {
		expect(f.internalErrors()).toEqual([]);
	});
}
