/**
 * Plot → Register's pre-flight cases (test/fixtures/plot/register, format in its README), read
 * for test/integration/plot/register.test.ts: each file gives the node's parameters, one
 * malformed item, and the message that must name it. Adding a case is adding a file.
 */
import { readdirSync, readFileSync } from 'fs';
import type { IDataObject } from 'n8n-workflow';
import { join } from 'path';

import { decode } from './geometryDefects';

const DIR = join(__dirname, '../fixtures/plot/register');

export interface Case {
	/** the file's `description`: the test's name */
	name: string;
	params: IDataObject;
	json: IDataObject;
	/** the error message must match it (as if the malformed item were item 0) */
	message: RegExp;
}

/** A valid item for every geometry source (item 0 of each run). */
export const GOOD: IDataObject = {
	geojson: {
		type: 'Polygon',
		coordinates: [
			[
				[-47.882778, -15.793889],
				[-47.872778, -15.793889],
				[-47.872778, -15.783889],
				[-47.882778, -15.783889],
				[-47.882778, -15.793889],
			],
		],
	},
	wkt: 'POLYGON ((-47.882778 -15.793889, -47.872778 -15.793889, -47.872778 -15.783889, -47.882778 -15.793889))',
	latitude: -15.793889,
	longitude: -47.882778,
};

const isObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads one fixture, refusing anything it would not check (a misspelt key must not make a case pass). */
function load(file: string): Case {
	const where = `test/fixtures/plot/register/${file}`;
	const raw = decode(JSON.parse(readFileSync(join(DIR, file), 'utf8'))) as Record<string, unknown>;
	const unknownKeys = Object.keys(raw).filter(
		(k) => !['description', 'parameters', 'input', 'expected'].includes(k),
	);
	if (unknownKeys.length) throw new Error(`${where}: unknown keys ${unknownKeys.join(', ')}`);
	if (typeof raw.description !== 'string' || !raw.description)
		throw new Error(`${where}: description must be a non-empty string`);
	if (!isObject(raw.parameters) || typeof raw.parameters.geometrySource !== 'string')
		throw new Error(`${where}: parameters must be an object with a geometrySource`);
	if (!isObject(raw.input)) throw new Error(`${where}: input must be an object (the item's JSON)`);
	const expected = raw.expected;
	if (!isObject(expected) || typeof expected.message !== 'string' || !expected.message)
		throw new Error(`${where}: expected.message must be a non-empty string`);
	const unknownExpected = Object.keys(expected).filter((k) => k !== 'message');
	if (unknownExpected.length)
		throw new Error(`${where}: unknown keys in expected: ${unknownExpected.join(', ')}`);
	return {
		name: raw.description,
		params: raw.parameters,
		json: raw.input,
		message: new RegExp(expected.message),
	};
}

/** Every case of test/fixtures/plot/register, sorted by file name; descriptions distinct. */
export function loadRegisterCases(): Case[] {
	const cases = readdirSync(DIR)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map(load);
	const names = cases.map((c) => c.name);
	const repeated = names.filter((name, i) => names.indexOf(name) !== i);
	if (repeated.length) throw new Error(`repeated descriptions: ${repeated.join(', ')}`);
	return cases;
}

export const CASES: Case[] = loadRegisterCases();
