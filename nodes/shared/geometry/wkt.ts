/**
 * A strict, single-pass reader of POINT, POLYGON and MULTIPOLYGON Well-Known Text, linear in
 * the length of the text (pure; no n8n imports).
 *
 * Why not a library: the WKT parsers on npm were measured side by side (BENCHMARKS.md,
 * "Pre-flight growth"). @terraformer/wkt (jison) concatenates arrays per position and is
 * quadratic (seconds at 30,000 vertices); wkx searches the rest of the text for each token
 * and is quadratic too; betterknown and wellknown are linear but lax: they read "1a" as 1 and
 * "1--2 3" as [1, 3], ignore text after the geometry (so the second half of a pasted
 * MULTIPOLYGON body is silently dropped), and betterknown (like wkx) overflows the call stack
 * on a MULTIPOLYGON whose outer ring has more than about 120,000 vertices. Reading silently
 * different coordinates is worse than refusing them, so this reader keeps Terraformer's
 * strictness (numbers as `-?digits[.digits][e±digits]`, nothing after the geometry) and its
 * results, and says where the text stops being WKT.
 */
import type { Position } from './geoJsonTypes';

/** The three types the service takes, as GeoJSON names them. */
type WktPlotType = 'Point' | 'Polygon' | 'MultiPolygon';

export type WktReading =
	| {
			kind: 'geometry';
			type: WktPlotType;
			/** `[]` for EMPTY. Positions hold 2 to 4 numbers, as written. */
			coordinates: Position | Position[][] | Position[][][] | [];
			/** Z / M / ZM after the type keyword. */
			z: boolean;
			m: boolean;
	  }
	/** A WKT type the service does not take (LINESTRING, GEOMETRYCOLLECTION, …); its body is not read. */
	| { kind: 'unsupported'; keyword: string };

/** The text is not WKT from `index` on (0-based, into the text given to `readWkt`). */
export class WktSyntaxError extends Error {
	readonly index: number;

	constructor(index: number, message: string) {
		super(message);
		this.name = 'WktSyntaxError';
		this.index = index;
	}
}

const PLOT_TYPES = new Map<string, WktPlotType>([
	['POINT', 'Point'],
	['POLYGON', 'Polygon'],
	['MULTIPOLYGON', 'MultiPolygon'],
]);

/** The other geometry types of Simple Features (OGC 06-103r4) and SQL/MM curves. */
const OTHER_TYPES = new Set([
	'LINESTRING',
	'MULTIPOINT',
	'MULTILINESTRING',
	'GEOMETRYCOLLECTION',
	'CIRCULARSTRING',
	'COMPOUNDCURVE',
	'CURVEPOLYGON',
	'MULTICURVE',
	'MULTISURFACE',
	'POLYHEDRALSURFACE',
	'TIN',
	'TRIANGLE',
]);

/**
 * Terraformer's number token, `-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?`; sticky, so that it is
 * tested in place (a token is a number when the match ends where the token ends).
 */
const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/y;

const OPEN = 40; // (
const CLOSE = 41; // )
const COMMA = 44; // ,

function isSpace(code: number): boolean {
	if (code === 32 || (code >= 9 && code <= 13)) return true;
	return code > 127 && /\s/.test(String.fromCharCode(code));
}

/** Ends a token: whitespace, a parenthesis, a comma or the end of the text. */
function isDelimiter(code: number): boolean {
	return Number.isNaN(code) || code === OPEN || code === CLOSE || code === COMMA || isSpace(code);
}

class Reader {
	private i: number;

	constructor(
		private readonly text: string,
		start: number,
	) {
		this.i = start;
	}

	fail(index: number, message: string): never {
		throw new WktSyntaxError(index, message);
	}

	/** The next character code after whitespace (NaN at the end). */
	peek(): number {
		const { text } = this;
		while (this.i < text.length && isSpace(text.charCodeAt(this.i))) this.i++;
		return text.charCodeAt(this.i);
	}

	/** The next token (letters, digits, signs, dots: anything up to a delimiter); '' at a delimiter. */
	token(): { text: string; at: number } {
		this.peek();
		const at = this.i;
		const { text } = this;
		while (this.i < text.length && !isDelimiter(text.charCodeAt(this.i))) this.i++;
		return { text: text.slice(at, this.i), at };
	}

	/** Consumes `code` when it comes next. */
	accept(code: number): boolean {
		if (this.peek() !== code) return false;
		this.i++;
		return true;
	}

	expect(code: number, what: string): void {
		if (!this.accept(code)) this.unexpected(what);
	}

	/** Fails at the current position, naming what was expected and what is there. */
	unexpected(what: string): never {
		const code = this.peek();
		if (Number.isNaN(code)) this.fail(this.i, `${what} is missing at the end of the text`);
		const at = this.i;
		const found = isDelimiter(code) ? this.text[at] : this.token().text;
		this.fail(at, `${what} is expected where "${found}" is`);
	}

	/** `( item, item, … )` */
	list<T>(item: () => T): T[] {
		this.expect(OPEN, '"("');
		const items: T[] = [];
		do items.push(item());
		while (this.accept(COMMA));
		this.expect(CLOSE, '"," or ")"');
		return items;
	}

	/** 2 to 4 numbers separated by whitespace, as an array of exactly that length. */
	position(): Position {
		const x = this.number('a number');
		const y = this.number('a second number (the latitude)');
		if (isDelimiter(this.peek())) return [x, y];
		const z = this.number('a number');
		if (isDelimiter(this.peek())) return [x, y, z];
		const m = this.number('a number');
		if (isDelimiter(this.peek())) return [x, y, z, m];
		this.fail(this.i, 'a position has at most four numbers (longitude latitude z m)');
	}

	/** One number (Terraformer's token); `what` names it when it is missing. */
	number(what: string): number {
		const { text } = this;
		if (isDelimiter(this.peek())) this.unexpected(what);
		const at = this.i;
		let end = at + 1;
		while (end < text.length && !isDelimiter(text.charCodeAt(end))) end++;
		this.i = end;
		NUMBER.lastIndex = at;
		if (!NUMBER.test(text) || NUMBER.lastIndex !== end) {
			this.fail(at, `"${text.slice(at, end)}" is not a number`);
		}
		return Number(text.slice(at, end));
	}

	ring(): Position[] {
		return this.list(() => this.position());
	}

	polygon(): Position[][] {
		return this.list(() => this.ring());
	}

	/** Only whitespace may follow the geometry. */
	end(): void {
		if (Number.isNaN(this.peek())) return;
		const at = this.i;
		const found = this.token().text || this.text[at];
		this.fail(at, `"${found}" follows the end of the geometry`);
	}
}

/**
 * Reads one WKT geometry from `text`, starting at `start` (after an `SRID=…;` prefix). Keywords
 * are case-insensitive; Z, M and ZM may follow the type as a word or as a suffix (`POINTZ`);
 * positions are kept as written (2 to 4 numbers). Throws `WktSyntaxError` where the text stops
 * being WKT. Time and memory are linear in the length of the text.
 */
export function readWkt(text: string, start = 0): WktReading {
	const reader: Reader = new Reader(text, start);
	const { text: word, at } = reader.token();
	let keyword = word.toUpperCase();
	let dims = '';
	if (!PLOT_TYPES.has(keyword) && !OTHER_TYPES.has(keyword)) {
		const suffix = /^([A-Z]+?)(ZM|Z|M)$/.exec(keyword);
		if (suffix && (PLOT_TYPES.has(suffix[1]) || OTHER_TYPES.has(suffix[1]))) {
			keyword = suffix[1];
			dims = suffix[2];
		}
	}
	if (OTHER_TYPES.has(keyword)) return { kind: 'unsupported', keyword };
	const type = PLOT_TYPES.get(keyword);
	if (!type) {
		if (word === '') reader.unexpected('a geometry type (POINT, POLYGON or MULTIPOLYGON)');
		reader.fail(
			at,
			`"${word}" is not a WKT geometry type (POINT, POLYGON or MULTIPOLYGON are read)`,
		);
	}
	let next = reader.token();
	if (dims === '' && /^(ZM|Z|M)$/i.test(next.text)) {
		dims = next.text.toUpperCase();
		next = reader.token();
	}
	const z = dims.includes('Z');
	const m = dims.includes('M');
	if (next.text.toUpperCase() === 'EMPTY') {
		reader.end();
		return { kind: 'geometry', type, coordinates: [], z, m };
	}
	if (next.text !== '') {
		reader.fail(next.at, `"${next.text}" is not ${dims ? '' : 'Z, M, ZM, '}EMPTY or "("`);
	}
	let coordinates: Position | Position[][] | Position[][][];
	if (type === 'Point') {
		reader.expect(OPEN, '"("');
		coordinates = reader.position();
		reader.expect(CLOSE, '")"');
	} else if (type === 'Polygon') {
		coordinates = reader.polygon();
	} else {
		coordinates = reader.list(() => reader.polygon());
	}
	reader.end();
	return { kind: 'geometry', type, coordinates, z, m };
}
