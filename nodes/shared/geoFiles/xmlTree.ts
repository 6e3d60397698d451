/**
 * Small element trees of the parts of an XML file a reader keeps (one Placemark, one Style,
 * one GPX waypoint), built from the tokenizer's events, with what the readers ask of them:
 * the first descendant of a name, the direct children of a name, the text content. The
 * text of `<coordinates>` is never kept: it is read into positions as it streams
 * (`CoordinateReader`), each counted in the file's OutputBudget. What a file keeps is
 * bounded: `KeptBudget` counts the characters and elements kept (an element as
 * `ELEMENT_COST` characters) against Maximum File Size.
 */
import type { Position } from './geoFileTypes';
import { GeoFileError } from './geoFileTypes';
import type { OutputBudget } from './outputBudget';

export interface XNode {
	/** Qualified name as written ("Placemark", "gx:Track"). */
	name: string;
	/** Name/value pairs in document order. */
	attributes: string[];
	children: Array<XNode | string | CData>;
	/** The positions of a `<coordinates>` element (its text is not kept). */
	positions?: Position[];
}

export class CData {
	constructor(public text: string) {}
}

export const isNode = (child: XNode | string | CData): child is XNode =>
	typeof child === 'object' && !(child instanceof CData);

export function attribute(node: XNode, name: string): string | null {
	for (let i = 0; i < node.attributes.length; i += 2)
		if (node.attributes[i] === name) return node.attributes[i + 1];
	return null;
}

/** The first element named `name` under `node` (depth first, document order), if any. */
export function first(node: XNode | null | undefined, name: string): XNode | null {
	if (!node) return null;
	for (const child of node.children) {
		if (!isNode(child)) continue;
		if (child.name === name) return child;
		const found = first(child, name);
		if (found) return found;
	}
	return null;
}

/** The first element of each name under `node` (as `first` finds it), found in one walk. */
export function firstOfEach(node: XNode, into = new Map<string, XNode>()): Map<string, XNode> {
	for (const child of node.children) {
		if (!isNode(child)) continue;
		if (!into.has(child.name)) into.set(child.name, child);
		if (child.children.length) firstOfEach(child, into);
	}
	return into;
}

/** Every element named `name` under `node`, in document order. */
export function all(node: XNode, name: string, into: XNode[] = []): XNode[] {
	for (const child of node.children) {
		if (!isNode(child)) continue;
		if (child.name === name) into.push(child);
		all(child, name, into);
	}
	return into;
}

/** The direct children named `name`. */
export const childrenNamed = (node: XNode, name: string): XNode[] =>
	node.children.filter((c): c is XNode => isNode(c) && c.name === name);

/** The text content of a node (its text and CDATA, and its descendants'), as the DOM's textContent. */
export function textOf(node: XNode | null | undefined): string {
	if (!node) return '';
	if (node.children.length === 1 && typeof node.children[0] === 'string') return node.children[0];
	let out = '';
	for (const child of node.children) {
		if (typeof child === 'string') out += child;
		else if (child instanceof CData) out += child.text;
		else out += textOf(child);
	}
	return out;
}

/** The text of the first `name` under `node` ('' when there is none). */
export const textAt = (node: XNode | null | undefined, name: string): string =>
	textOf(first(node, name));

/** What an element kept costs, in characters of text. */
const ELEMENT_COST = 16;

/** Characters and elements kept from one file, at most Maximum File Size. */
export class KeptBudget {
	private used = 0;

	constructor(
		private readonly fileName: string,
		private readonly maxChars: number,
	) {}

	take(chars: number): void {
		this.used += chars;
		if (this.used > this.maxChars)
			throw new GeoFileError(
				`"${this.fileName}" gives more than ${(this.maxChars / 1e6).toLocaleString('en-US')} MB of names, descriptions and attributes, over what this node keeps from one file (Maximum File Size): refused, nothing past the limit was kept`,
				'A plot file holds a few lines of attributes per plot. Check that this is the intended file (a KMZ that unpacks to far more than it holds is damaged or crafted), or raise Maximum File Size (MB).',
			);
	}
}

/**
 * Reads the text of `<coordinates>` into longitude/latitude positions as it streams, as
 * KML means it (tuples separated by white space, numbers within a tuple by commas; the
 * first two numbers kept, a height dropped; a tuple of fewer than two numbers skipped).
 */
export class CoordinateReader {
	readonly positions: Position[] = [];
	private tail = '';

	constructor(private readonly budget: OutputBudget) {}

	push(text: string): void {
		const s = this.tail.length > 0 ? this.tail + text : text;
		const len = s.length;
		let i = 0;
		for (;;) {
			while (i < len && s.charCodeAt(i) <= 32) i++;
			if (i >= len) {
				this.tail = '';
				return;
			}
			const j = this.scan(s, i, len);
			if (j >= len) {
				// the tuple may go on in the next piece
				this.tail = s.slice(i);
				if (this.tail.length > 1000) this.tuple(this.tail.slice(0, 1000));
				if (this.tail.length > 1000) this.tail = '';
				return;
			}
			if (this.got < 0) this.tuple(s.slice(i, j));
			else if (this.got === 2) this.add(this.x, this.y);
			i = j;
		}
	}

	/** What `scan` read: the tuple's first two numbers (`got` of them; -1: not plain decimals). */
	private x = NaN;
	private y = NaN;
	private got = 0;

	/**
	 * Reads the tuple at `i` in one pass when its numbers are plain decimals of at most 15
	 * digits (read exactly as parseFloat reads them: the digits and the power of ten are both
	 * exact doubles, so one division rounds correctly); returns where the tuple ends.
	 */
	private scan(s: string, i: number, len: number): number {
		let got = 0;
		let mantissa = 0;
		let digits = 0;
		let point = -1;
		let negative = false;
		let atStart = true;
		let start = i;
		for (; i < len; i++) {
			const c = s.charCodeAt(i);
			if (c <= 32) break;
			if (got === 2 || got < 0) continue;
			if (c >= 48 && c <= 57) {
				mantissa = mantissa * 10 + (c - 48);
				digits++;
			} else if (c === 44) {
				got = this.number(got, mantissa, digits, point, negative, s, start, i);
				mantissa = 0;
				digits = 0;
				point = -1;
				negative = false;
				atStart = true;
				start = i + 1;
				continue;
			} else if (c === 46 && point === -1) point = digits;
			else if ((c === 45 || c === 43) && atStart) negative = c === 45;
			else got = -1;
			atStart = false;
		}
		if (got >= 0 && got < 2) got = this.number(got, mantissa, digits, point, negative, s, start, i);
		this.got = got;
		return i;
	}

	/**
	 * Notes one plain decimal number of a tuple read by `scan` (`s` from `start` to `end`);
	 * returns the count of numbers so far. Past 15 digits the exact fast path does not hold:
	 * parseFloat reads that number.
	 */
	private number(
		got: number,
		mantissa: number,
		digits: number,
		point: number,
		negative: boolean,
		s: string,
		start: number,
		end: number,
	): number {
		if (digits === 0) return got; // empty: parseFloat gives NaN, which is skipped
		const v =
			digits > 15
				? Math.abs(parseFloat(s.slice(start, end)))
				: mantissa / POWERS[point === -1 ? 0 : digits - point];
		if (got === 0) this.x = negative ? -v : v;
		else this.y = negative ? -v : v;
		return got + 1;
	}

	private add(x: number, y: number): void {
		this.budget.takePositions(1);
		this.positions.push([x, y]);
	}

	finish(): Position[] {
		if (this.tail.length > 0) this.tuple(this.tail);
		this.tail = '';
		return this.positions;
	}

	private tuple(token: string): void {
		let x = NaN;
		let y = NaN;
		let got = 0;
		let start = 0;
		for (;;) {
			const comma = token.indexOf(',', start);
			const end = comma === -1 ? token.length : comma;
			let v = decimal(token, start, end);
			if (v === undefined) v = parseFloat(token.slice(start, end));
			if (!Number.isNaN(v)) {
				if (got === 0) x = v;
				else y = v;
				if (++got === 2) break;
			}
			if (comma === -1) break;
			start = comma + 1;
		}
		if (got >= 2) this.add(x, y);
	}
}

const POWERS = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/**
 * A plain decimal number (`-51.2123`) of at most 15 digits between `start` and `end`, read
 * exactly as parseFloat reads it (the digits and the power of ten are both exact doubles,
 * so one division rounds correctly); undefined for anything else (parseFloat reads those).
 */
function decimal(s: string, start: number, end: number): number | undefined {
	let i = start;
	let negative = false;
	const first = s.charCodeAt(i);
	if (first === 45 || first === 43) {
		negative = first === 45;
		i++;
	}
	let mantissa = 0;
	let digits = 0;
	let scale = -1;
	for (; i < end; i++) {
		const c = s.charCodeAt(i);
		if (c >= 48 && c <= 57) {
			mantissa = mantissa * 10 + (c - 48);
			digits++;
		} else if (c === 46 && scale === -1) scale = digits;
		else return undefined;
	}
	if (digits === 0 || digits > 15) return undefined;
	const fraction = scale === -1 ? 0 : digits - scale;
	const v = mantissa / POWERS[fraction];
	return negative ? -v : v;
}

/** Builds the tree of one kept element from the tokenizer's events. */
export class TreeBuilder {
	readonly root: XNode;
	private readonly stack: XNode[];
	private coordinates: CoordinateReader | null = null;

	constructor(
		name: string,
		attributes: string[],
		private readonly kept: KeptBudget,
		private readonly positions: OutputBudget,
	) {
		this.root = { name, attributes, children: [] };
		this.stack = [this.root];
		kept.take(ELEMENT_COST);
	}

	/** Depth of the open elements (0 once the root is closed). */
	get depth(): number {
		return this.stack.length;
	}

	open(name: string, attributes: string[]): void {
		this.kept.take(ELEMENT_COST);
		const node: XNode = { name, attributes, children: [] };
		this.stack[this.stack.length - 1].children.push(node);
		this.stack.push(node);
		if (name === 'coordinates') this.coordinates = new CoordinateReader(this.positions);
	}

	close(): void {
		const node = this.stack.pop();
		if (node && this.coordinates && node.name === 'coordinates') {
			node.positions = this.coordinates.finish();
			this.coordinates = null;
		}
	}

	text(text: string): void {
		const children = this.take(text);
		if (!children) return;
		const last = children.length - 1;
		if (last >= 0 && typeof children[last] === 'string') children[last] += text;
		else children.push(text);
	}

	cdata(text: string): void {
		const children = this.take(text);
		if (!children) return;
		const last = children[children.length - 1];
		if (last instanceof CData) last.text += text;
		else children.push(new CData(text));
	}

	/** Reads a piece of coordinates, or counts a piece of text kept and says where it goes. */
	private take(text: string): XNode['children'] | undefined {
		if (this.coordinates) {
			this.coordinates.push(text);
			return undefined;
		}
		this.kept.take(text.length);
		return this.stack[this.stack.length - 1].children;
	}
}
