import {
	flattenArtifacts,
	runsFromResponse,
	simplifyRun,
} from '../../../../nodes/GeospatialAnalysis/v1/actions/analysisRun/simplifyRun';
import { parseServiceTimestamp as parseServiceTime } from '../../../../nodes/shared/time/serviceTime';

describe('analysis runs: runsFromResponse', () => {
	it('reads the runs of the documented wrapper, a bare array, and similar wrappers', () => {
		const run = { run_id: '1' };
		expect(runsFromResponse({ plot_id: '9', runs: [run], count: 1 })).toEqual([run]);
		expect(runsFromResponse([run])).toEqual([run]);
		expect(runsFromResponse({ analysis_runs: [run] })).toEqual([run]);
		expect(runsFromResponse({ data: [run] })).toEqual([run]);
	});

	it('answers an empty list for shapes without runs, and wraps non-object entries', () => {
		expect(runsFromResponse(null)).toEqual([]);
		expect(runsFromResponse('text')).toEqual([]);
		expect(runsFromResponse({ count: 0 })).toEqual([]);
		expect(runsFromResponse({ runs: ['7', { run_id: '8' }] })).toEqual([
			{ value: '7' },
			{ run_id: '8' },
		]);
	});
});

describe('analysis runs: run times read by the one service-time parser', () => {
	it('reads timestamps without a zone as UTC, with micro- or milliseconds', () => {
		expect(parseServiceTime('2026-03-01T12:00:00')).toBe(Date.UTC(2026, 2, 1, 12));
		expect(parseServiceTime('2026-03-01T12:00:00.123456')).toBe(
			Date.UTC(2026, 2, 1, 12, 0, 0, 123),
		);
		expect(parseServiceTime('2026-03-01T12:00:00+02:00')).toBe(Date.UTC(2026, 2, 1, 10));
	});

	it('answers undefined for anything that is not a timestamp', () => {
		expect(parseServiceTime(null)).toBeUndefined();
		expect(parseServiceTime('')).toBeUndefined();
		expect(parseServiceTime('soon')).toBeUndefined();
		expect(parseServiceTime(12)).toBeUndefined();
	});

	it('gives the duration of a run written with a space instead of the T in UTC, like the rest', () => {
		const run = simplifyRun({
			started_at: '2026-03-01 12:00:00',
			finished_at: '2026-03-01T12:01:30',
		});
		expect(run.duration_seconds).toBe(90);
	});
});

describe('analysis runs: flattenArtifacts', () => {
	it('turns typed artifacts into <type>_url fields, numbering repeats', () => {
		expect(
			flattenArtifacts([
				{ type: 'visualization', url: 'http://x/v.png' },
				{ type: 'geojson', url: 'http://x/a.geojson' },
				{ type: 'visualization', url: 'http://x/v2.png' },
			]),
		).toEqual({
			visualization_url: 'http://x/v.png',
			geojson_url: 'http://x/a.geojson',
			visualization_url_2: 'http://x/v2.png',
		});
	});

	it('accepts href/link keys, bare URL strings, an object map, and odd type names', () => {
		expect(flattenArtifacts([{ kind: 'Map Tile', href: 'h' }, 'u1', 'u2'])).toEqual({
			map_tile_url: 'h',
			artifact_url: 'u1',
			artifact_url_2: 'u2',
		});
		expect(flattenArtifacts({ reportPdf: 'r', image: { url: 'i' } })).toEqual({
			report_pdf_url: 'r',
			image_url: 'i',
		});
	});

	it('skips entries without a URL and anything that is not a list or map', () => {
		expect(flattenArtifacts([{ type: 'geojson' }, { type: 'x', url: '' }, null, 3])).toEqual({});
		expect(flattenArtifacts(undefined)).toEqual({});
		expect(flattenArtifacts('http://x')).toEqual({});
	});
});

describe('analysis runs: simplifyRun', () => {
	const run = {
		run_id: '500001',
		plot_id: '100001',
		job_id: '7001',
		check_type: 'eudr',
		config: { commodity: 'soy' },
		status: 'completed',
		created_at: '2026-03-01T12:00:00',
		started_at: '2026-03-01T12:00:00.500000',
		finished_at: '2026-03-01T12:00:02',
		token_cost: 4,
		tokens_charged: 4,
		artifacts: [
			{ type: 'visualization', url: 'http://x/v.png' },
			{ type: 'geojson', url: 'http://x/a.geojson' },
		],
		output: { risk_level: 'Low' },
		extra: 'ignored',
	};

	it('gives check type, status, timing, token cost and artifact links as flat fields', () => {
		expect(simplifyRun(run)).toEqual({
			run_id: '500001',
			plot_id: '100001',
			job_id: '7001',
			check_type: 'eudr',
			status: 'completed',
			created_at: '2026-03-01T12:00:00',
			started_at: '2026-03-01T12:00:00.500000',
			finished_at: '2026-03-01T12:00:02',
			duration_seconds: 1.5,
			token_cost: 4,
			tokens_charged: 4,
			error: null,
			visualization_url: 'http://x/v.png',
			geojson_url: 'http://x/a.geojson',
			artifact_urls: ['http://x/v.png', 'http://x/a.geojson'],
		});
	});

	it('keeps the output only when asked (Get), and null when the run has none', () => {
		expect(simplifyRun(run, { includeOutput: true }).output).toEqual({ risk_level: 'Low' });
		expect(simplifyRun({ run_id: '1' }, { includeOutput: true }).output).toBeNull();
		expect('output' in simplifyRun(run)).toBe(false);
	});

	it('reads alternative field names and numeric strings', () => {
		expect(
			simplifyRun({
				id: 12,
				type: 'deforestation',
				state: 'running',
				tokens_cost: '3',
				startedAt: '2026-03-01T12:00:00Z',
			}),
		).toMatchObject({
			run_id: '12',
			check_type: 'deforestation',
			status: 'running',
			token_cost: 3,
			started_at: '2026-03-01T12:00:00Z',
			finished_at: null,
			duration_seconds: null,
			artifact_urls: [],
		});
	});

	it('gives a failed run its error as text, whether a string or an object', () => {
		expect(simplifyRun({ status: 'failed', error: 'Analysis failed' }).error).toBe(
			'Analysis failed',
		);
		expect(simplifyRun({ error: { message: 'boom', code: 7 } }).error).toBe('boom');
		expect(simplifyRun({ error: { code: 7 } }).error).toBe('{"code":7}');
	});

	it('never reports a negative duration', () => {
		expect(
			simplifyRun({ started_at: '2026-03-01T12:00:05', finished_at: '2026-03-01T12:00:00' })
				.duration_seconds,
		).toBeNull();
	});
});
