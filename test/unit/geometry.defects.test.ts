/**
 * Geometry defect cases as fixture files, Turf style: each file in test/fixtures/geometry/defects/
 * is one input and the error it must produce; adding a defect case is adding a file. The format is
 * described in test/fixtures/geometry/README.md.
 */
import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';

import {
	GeometryInputError,
	featureFromLatLon,
	parseGeoJsonValue,
	parseWkt,
	validateFeatures,
	type ValidateOptions,
} from '../../nodes/shared/geometry';

const DIR = join(__dirname, '../fixtures/geometry/defects');

const SOURCES = ['geojson', 'features', 'latlon', 'wkt'] as const;
type Source = (typeof SOURCES)[number];

interface DefectCase {
	file: string;
	description: string;
	/** how the input reaches validation, as in the node: parsed as GeoJSON, given as features, as latitude/longitude, as WKT */
	source: Source;
	options: ValidateOptions;
	input: unknown;
	expected: {
		/** the first error with this code is the one the case is about */
		code: string;
		/** a fragment of that error's message */
		message?: string;
		/** true: the parse step throws it (a GeometryInputError), before validation */
		thrown?: boolean;
	};
}

/** JSON cannot hold undefined, NaN or ±Infinity: fixtures write them as {"$js": "undefined" | "NaN" | "Infinity" | "-Infinity"}. */
function decode(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(decode);
	if (value && typeof value === 'object') {
		const keys = Object.keys(value);
		if (keys.length === 1 && keys[0] === '$js') {
			const js = (value as { $js: unknown }).$js;
			if (js === 'undefined') return undefined;
			if (js === 'NaN' || js === 'Infinity' || js === '-Infinity') return Number(js);
			throw new Error(`unknown {"$js": ${JSON.stringify(js)}}`);
		}
		return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decode(v)]));
	}
	return value;
}

/** Reads one fixture, refusing anything it would not check (a misspelt key must not make a case pass). */
function load(file: string): DefectCase {
	const where = `test/fixtures/geometry/defects/${file}`;
	const raw = decode(JSON.parse(readFileSync(join(DIR, file), 'utf8'))) as Record<string, unknown>;
	const unknownKeys = Object.keys(raw).filter(
		(k) => !['description', 'source', 'options', 'input', 'expected'].includes(k),
	);
	if (unknownKeys.length) throw new Error(`${where}: unknown keys ${unknownKeys.join(', ')}`);
	if (typeof raw.description !== 'string' || !raw.description)
		throw new Error(`${where}: description must be a non-empty string`);
	if (!SOURCES.includes(raw.source as Source))
		throw new Error(`${where}: source must be one of ${SOURCES.join(', ')}`);
	if (!('input' in raw)) throw new Error(`${where}: input is missing`);
	if (raw.options !== undefined && (typeof raw.options !== 'object' || raw.options === null))
		throw new Error(`${where}: options must be an object`);
	const expected = raw.expected as DefectCase['expected'] | undefined;
	if (!expected || typeof expected.code !== 'string' || !expected.code)
		throw new Error(`${where}: expected.code must be a non-empty string`);
	const unknownExpected = Object.keys(expected).filter(
		(k) => !['code', 'message', 'thrown'].includes(k),
	);
	if (unknownExpected.length)
		throw new Error(`${where}: unknown keys in expected: ${unknownExpected.join(', ')}`);
	if (expected.message !== undefined && typeof expected.message !== 'string')
		throw new Error(`${where}: expected.message must be a string`);
	if (expected.thrown !== undefined && typeof expected.thrown !== 'boolean')
		throw new Error(`${where}: expected.thrown must be true or false`);
	if (raw.source === 'latlon' && !(Array.isArray(raw.input) && raw.input.length === 2))
		throw new Error(`${where}: a latlon input is [latitude, longitude]`);
	if (raw.source === 'features' && !Array.isArray(raw.input))
		throw new Error(`${where}: a features input is an array`);
	return {
		file,
		description: raw.description,
		source: raw.source as Source,
		options: (raw.options ?? {}) as ValidateOptions,
		input: raw.input,
		expected,
	};
}

const CASES: DefectCase[] = readdirSync(DIR)
	.filter((f) => f.endsWith('.json'))
	.sort()
	.map(load);

interface Outcome {
	/** the parse step threw (then `errors` holds that one error) */
	thrown: boolean;
	/** validateFeatures' verdict, when validation ran */
	valid?: boolean;
	errors: Array<{ code: string; message: string }>;
}

/** Runs an input through the same steps the node does: parse, then validate. */
function run({ source, input, options }: DefectCase): Outcome {
	let features: unknown[];
	let opts = options;
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
