/**
 * Geometry defect cases as fixture files, Turf style: each file in test/fixtures/geometry/defects/
 * is one input and the error it must produce; adding a defect case is adding a file. The format is
 * described in test/fixtures/geometry/README.md.
 */
import {
	GeometryInputError,
	featureFromLatLon,
	parseGeoJsonValue,
	parseWkt,
	validateFeatures,
} from '../../../nodes/shared/geometry';
import type { ValidateOptions } from '../../../nodes/shared/geometry';
import { readHectares } from '../../../nodes/shared/input';
import { type DefectCase, loadDefectCases } from '../../helpers/geometryDefects';

const CASES: DefectCase[] = loadDefectCases();

interface Outcome {
	/** the parse step threw (then `errors` holds that one error) */
	thrown: boolean;
	/** validateFeatures' verdict, when validation ran */
	valid?: boolean;
	errors: Array<{ code: string; message: string }>;
}

/** Runs an input through the same steps the node does: read the fields, parse, then validate. */
function run({ source, input, options }: DefectCase): Outcome {
	let features: unknown[];
	let opts: ValidateOptions = { ...options, pointHa: readHectares(options.pointHa) };
	try {
		if (source === 'geojson') {
			const parsed = parseGeoJsonValue(input);
			features = parsed.features;
			opts = { ...opts, crs: parsed.crs };
		} else if (source === 'latlon') {
			const [lat, lon] = input as [unknown, unknown];
			features = [featureFromLatLon(lat, lon)];
		} else if (source === 'wkt') {
			features = parseWkt(input);
		} else {
			features = input as unknown[];
		}
	} catch (error) {
		expect(error).toBeInstanceOf(GeometryInputError);
		const { code, message } = error as GeometryInputError;
		return { thrown: true, errors: [{ code, message }] };
	}
	const result = validateFeatures(features, opts);
	return {
		thrown: false,
		valid: result.valid,
		errors: result.problems.filter((p) => p.severity === 'error'),
	};
}

describe('geometry defects (test/fixtures/geometry/defects)', () => {
	it('has at least 40 cases with distinct descriptions', () => {
		expect(CASES.length).toBeGreaterThanOrEqual(40);
		expect(new Set(CASES.map((c) => c.description)).size).toBe(CASES.length);
	});

	it.each(CASES.map((c) => [`${c.description} (${c.file})`, c] as const))('%s', (_name, c) => {
		const outcome = run(c);
		const match = outcome.errors.find((e) => e.code === c.expected.code);
		if (!match)
			throw new Error(
				`expected code ${c.expected.code}, got ${JSON.stringify(outcome.errors, null, 1)}`,
			);
		if (c.expected.message !== undefined) expect(match.message).toContain(c.expected.message);
		if (c.expected.thrown !== undefined) expect(outcome.thrown).toBe(c.expected.thrown);
		if (!outcome.thrown) expect(outcome.valid).toBe(false);
	});

	it('every message says what to do', () => {
		const advice =
			/\b(give|use|set|map|remove|close|add|check|reproject|wrap|move|put|split|replace|fix|merge|turn on|swap|redraw|convert|export)\b/i;
		for (const c of CASES) {
			for (const e of run(c).errors) {
				expect(e.message).toMatch(advice);
				expect(e.message).toMatch(/\.$/);
				expect(e.message[0]).toBe(e.message[0].toLowerCase());
			}
		}
	});
});
