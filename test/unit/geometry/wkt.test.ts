/**
 * The WKT reader (nodes/shared/geometry/wkt.ts) against the parser it replaced, @terraformer/wkt,
 * kept as a dev dependency for this comparison and for the bench: on generated WKT both read the
 * same coordinates, and whatever the new reader accepts Terraformer accepts too (it is never
 * laxer). Speed is measured in `npm run bench` (BENCHMARKS.md), not here.
 */
import { wktToGeoJSON } from '@terraformer/wkt';
import fc from 'fast-check';

import { GeometryInputError, parseWkt } from '../../../nodes/shared/geometry';
import { readWkt, WktSyntaxError } from '../../../nodes/shared/geometry/wkt';

/** The old parseWkt, as it was: Terraformer after the same clean-up, measures dropped. */
function terraformerWkt(value: string): { type: string; coordinates: unknown } {
	let text = value.trim();
	const srid = /^SRID\s*=\s*(\d+)\s*;\s*/i.exec(text);
	if (srid) text = text.slice(srid[0].length);
	text = text
		.toUpperCase()
		.replace(/^([A-Z]+?)(ZM|Z|M)\s*\(/, (_m, word: string, dims: string) => `${word} ${dims} (`);
	const geometry = wktToGeoJSON(text) as {
		type: string;
		coordinates: unknown;
		properties?: { z?: boolean; m?: boolean };
	};
	const keep = geometry.properties?.z ? 3 : 2;
	const walk = (node: unknown): unknown =>
		!Array.isArray(node)
			? node
			: node.length > 0 && typeof node[0] === 'number'
				? node.slice(0, keep)
				: node.map(walk);
	const coordinates = geometry.properties?.m ? walk(geometry.coordinates) : geometry.coordinates;
	return { type: geometry.type, coordinates };
}

function newWkt(value: string): { type: string; coordinates: unknown } {
	return parseWkt(value)[0].geometry;
}

function thrown(fn: () => unknown): GeometryInputError {
	try {
		fn();
	} catch (error) {
		expect(error).toBeInstanceOf(GeometryInputError);
		return error as GeometryInputError;
	}
	throw new Error('expected a GeometryInputError');
}

// ---------------------------------------------------------------- generated WKT

const space = fc.constantFrom('', ' ', '  ', '\t', '\n', ' \r\n ');
const someSpace = fc.constantFrom(' ', '  ', '\t', '\n', ' \r\n ');
const numberText = fc
	.tuple(
		fc.boolean(),
		fc.integer({ min: 0, max: 180 }),
		fc.option(fc.stringMatching(/^[0-9]{1,9}$/), { nil: undefined }),
		fc.option(fc.integer({ min: -3, max: 3 }), { nil: undefined }),
	)
	.map(
		([negative, whole, fraction, exponent]) =>
			`${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}${exponent === undefined ? '' : `e${exponent}`}`,
	);
const dims = fc.constantFrom('', 'Z', 'M', 'ZM');
const numbersPer: Record<string, number> = { '': 2, Z: 3, M: 3, ZM: 4 };

/** A WKT text of a random accepted type, with random case, spacing and dimension spelling. */
const wktText = fc
	.record({
		type: fc.constantFrom('POINT', 'POLYGON', 'MULTIPOLYGON'),
		dims,
		attached: fc.boolean(),
		lowerCase: fc.boolean(),
		srid: fc.boolean(),
		seed: fc.array(
			fc.array(
				fc.array(fc.array(numberText, { minLength: 4, maxLength: 4 }), {
					minLength: 1,
					maxLength: 5,
				}),
				{ minLength: 1, maxLength: 3 },
			),
			{ minLength: 1, maxLength: 3 },
		),
		gaps: fc.array(space, { minLength: 64, maxLength: 64 }),
		separators: fc.array(someSpace, { minLength: 16, maxLength: 16 }),
	})
	.map(({ type, dims: d, attached, lowerCase, srid, seed, gaps, separators }) => {
		let g = 0;
		const gap = () => gaps[g++ % gaps.length];
		const sep = () => separators[g++ % separators.length];
		const position = (numbers: string[]) => numbers.slice(0, numbersPer[d]).join(sep());
		const list = <T>(items: T[], item: (x: T) => string) =>
			`(${gap()}${items.map(item).join(`${gap()},${gap()}`)}${gap()})`;
		const ring = (positions: string[][]) => list(positions, position);
		const polygon = (rings: string[][][]) => list(rings, ring);
		const body =
			type === 'POINT'
				? `(${gap()}${position(seed[0][0][0])}${gap()})`
				: type === 'POLYGON'
					? polygon(seed[0])
					: list(seed, polygon);
		const keyword = d === '' ? type : attached ? `${type}${d}` : `${type} ${d}`;
		const text = `${srid ? 'SRID=4326;' : ''}${keyword}${gap()}${body}`;
		return lowerCase ? text.toLowerCase() : text;
	});

describe('WKT reader against @terraformer/wkt', () => {
	it('reads generated POINT, POLYGON and MULTIPOLYGON WKT exactly as Terraformer did', () => {
		fc.assert(
			fc.property(wktText, (text) => {
				expect(newWkt(text)).toEqual(terraformerWkt(text));
			}),
			{ numRuns: 500 },
		);
	});

	it('is never laxer: text it accepts after a one-character change, Terraformer accepts the same way', () => {
		const edit = fc.record({
			at: fc.nat(),
			remove: fc.boolean(),
			char: fc.constantFrom('(', ')', ',', ' ', '-', '.', 'e', 'a', '1', ';', '+'),
		});
		fc.assert(
			fc.property(wktText, edit, (text, { at, remove, char }) => {
				const i = at % (text.length + 1);
				const changed = remove
					? text.slice(0, i) + text.slice(i + 1)
					: text.slice(0, i) + char + text.slice(i);
				let ours: unknown;
				try {
					ours = newWkt(changed);
				} catch (error) {
					expect(error).toBeInstanceOf(GeometryInputError);
					return;
				}
				expect(ours).toEqual(terraformerWkt(changed));
			}),
			{ numRuns: 1000 },
		);
	});
});

// ---------------------------------------------------------------- messages

describe('WKT reader messages name the character where the text stops being WKT', () => {
	it.each([
		['POINT (1a 2)', 'at character 8 (after "POINT ("), "1a" is not a number'],
		['POINT (1--2 3)', 'at character 8 (after "POINT ("), "1--2" is not a number'],
		[
			'POINT (1 2) junk',
			'at character 13 (after "POINT (1 2) "), "junk" follows the end of the geometry',
		],
		[
			'POINT (1 2), (3 4)',
			'at character 12 (after "POINT (1 2)"), "," follows the end of the geometry',
		],
		[
			'POLYGON ((30 10, 40 40',
			'at character 23 (after "…LYGON ((30 10, 40 40"), "," or ")" is missing at the end of the text',
		],
		[
			'POLYGON ((1 2, 3, 5 1, 1 2))',
			'at character 17 (after "POLYGON ((1 2, 3"), a second number (the latitude) is expected where "," is',
		],
		[
			'POLYGON(((1 2),(3 4),(5 1),(1 2)))',
			'at character 10 (after "POLYGON(("), a number is expected where "(" is',
		],
		[
			'MULTIPOLYGON ((30 20, 45 40, 10 40, 30 20))',
			'at character 16 (after "MULTIPOLYGON (("), "(" is expected where "30" is',
		],
		['HELLO (1 2)', 'at character 1, "HELLO" is not a WKT geometry type'],
		['POINT Q (1 2)', 'at character 7 (after "POINT "), "Q" is not Z, M, ZM, EMPTY or "("'],
		['POINT (1 2 3 4 5)', 'a position has at most four numbers'],
		[
			'SRID=4326;POINT(1 2',
			'at character 20 (after "SRID=4326;POINT(1 2"), ")" is missing at the end of the text',
		],
	])('%s', (input, detail) => {
		const error = thrown(() => parseWkt(input));
		expect(error.code).toBe('invalid_wkt');
		expect(error.message).toContain(
			`could not be read as WKT: it starts with "${input.slice(0, 40)}`,
		);
		expect(error.message).toContain(detail);
		expect(error.message).toMatch(/\. Give POINT, POLYGON or MULTIPOLYGON WKT/);
	});

	it('names the place of a defect deep inside a large polygon', () => {
		const ring = Array.from({ length: 5000 }, (_, i) => `${i} ${i % 7}`);
		ring[4321] = '4321 7x';
		const text = `POLYGON ((${ring.join(', ')}, 0 0))`;
		const error = thrown(() => parseWkt(text));
		const at = text.indexOf('7x');
		expect(error.message).toContain(
			`at character ${at + 1} (after "…319 0, 4320 1, 4321 "), "7x" is not a number`,
		);
	});

	it('reports the other WKT types as unsupported without reading their body', () => {
		for (const keyword of [
			'LINESTRING',
			'MULTIPOINT',
			'GEOMETRYCOLLECTION',
			'TRIANGLE',
			'LineStringZ',
		]) {
			const error = thrown(() => parseWkt(`${keyword} (garbage`));
			expect(error.code).toBe('unsupported_geometry');
			expect(error.message).toContain(`the WKT is a ${keyword.toUpperCase().replace(/Z$/, '')};`);
		}
	});

	it('reads EMPTY for every type, and refuses text after it', () => {
		expect(readWkt('POINT EMPTY')).toEqual({
			kind: 'geometry',
			type: 'Point',
			coordinates: [],
			z: false,
			m: false,
		});
		expect(readWkt('multipolygon z empty')).toMatchObject({
			type: 'MultiPolygon',
			coordinates: [],
			z: true,
		});
		expect(() => readWkt('POLYGON EMPTY (1 2)')).toThrow(WktSyntaxError);
	});
});

// ---------------------------------------------------------------- size

describe('WKT reader on large input', () => {
	it('reads a MULTIPOLYGON whose outer ring has 200,000 vertices (betterknown and wkx overflow the stack there)', () => {
		const n = 200_000;
		const parts: string[] = [];
		for (let i = 0; i < n; i++) {
			const a = (2 * Math.PI * i) / n;
			parts.push(`${(-52 + Math.cos(a)).toFixed(6)} ${(-12 + Math.sin(a)).toFixed(6)}`);
		}
		parts.push(parts[0]);
		const [feature] = parseWkt(`MULTIPOLYGON (((${parts.join(', ')})), ((0 0, 1 0, 1 1, 0 0)))`);
		const coordinates = feature.geometry.coordinates as number[][][][];
		expect(coordinates).toHaveLength(2);
		expect(coordinates[0][0]).toHaveLength(n + 1);
		expect(coordinates[0][0][n]).toEqual(coordinates[0][0][0]);
		expect(coordinates[0][0][1]).toEqual([
			Number(parts[1].split(' ')[0]),
			Number(parts[1].split(' ')[1]),
		]);
	});
});
