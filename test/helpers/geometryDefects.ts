/**
 * The geometry defect fixtures (test/fixtures/geometry/defects, format in its README), read for
 * the unit test of the geometry layer and for Plot → Validate's integration test.
 */
import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';

import type { ValidateOptions } from '../../nodes/shared/geometry';

const DIR = join(__dirname, '../fixtures/geometry/defects');

export const SOURCES = ['geojson', 'features', 'latlon', 'wkt'] as const;
export type Source = (typeof SOURCES)[number];

export type DefectOptions = Omit<ValidateOptions, 'pointHa'> & { pointHa?: unknown };

export interface DefectCase {
	file: string;
	description: string;
	/** how the input reaches validation, as in the node: parsed as GeoJSON, given as features, as latitude/longitude, as WKT */
	source: Source;
	/** `validateFeatures`' options, with `pointHa` the value as mapped into Point Area (Hectares) */
	options: DefectOptions;
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
export function decode(value: unknown): unknown {
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
		options: (raw.options ?? {}) as DefectOptions,
		input: raw.input,
		expected,
	};
}

/** Every case of test/fixtures/geometry/defects, sorted by file name. */
export function loadDefectCases(): DefectCase[] {
	return readdirSync(DIR)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map(load);
}
