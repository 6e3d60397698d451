/**
 * A streaming XML tokenizer for what KML and GPX files hold (elements, attributes, text,
 * CDATA, comments, processing instructions, a document type without an internal subset),
 * written for Read File because the DOM libraries it replaces (@xmldom/xmldom 0.9 +
 * @tmcw/togeojson 7) took 2.1 s and 190 MB of heap for a 10,000-placemark KML, and sax 1.6
 * alone 0.22 s on the same file (BENCHMARKS.md, "Read File"): this one scans it in about
 * 0.05 s and holds only the chunk it is reading.
 *
 * It checks well-formedness as an XML parser must (every end tag matches its start tag, one
 * root element, attributes quoted and not repeated, references only to the five predefined
 * entities or characters; no text outside the root) and says where a file breaks (line and
 * column). Safety: a document type with an internal subset (`<!DOCTYPE x [ … ]>`), or any
 * `<!ENTITY`, is refused when it is met, before the root element: nothing is expanded, and
 * nothing is ever fetched (there is no code here that could). The text is fed in chunks
 * (`write`), so a file of hundreds of megabytes is never one string; a text (or CDATA) is
 * handed on in pieces as it comes, and one markup construct (a tag, a comment…) longer than
 * `MAX_MARKUP` characters is refused rather than gathered.
 */

/** A reason the document cannot be read; `kind` tells the caller how to word it. */
export class XmlSyntaxError extends Error {
	constructor(
		message: string,
		readonly kind: 'malformed' | 'entities' | 'depth',
	) {
		super(message);
		this.name = 'XmlSyntaxError';
	}
}

/** What the tokenizer tells its reader. Names are qualified names as written ("gx:Track"). */
export interface XmlHandler {
	/** `attributes`: name/value pairs in document order (values with references resolved). */
	open(name: string, attributes: string[], selfClosing: boolean): void;
	close(name: string): void;
	/** A piece of character data (a text may come in several pieces). */
	text(text: string): void;
	/** A piece of a CDATA section. */
	cdata(text: string): void;
}

/** Longest tag, comment, processing instruction or document type read (in characters). */
export const MAX_MARKUP = 1_000_000;

/** The attributes of every element without any (shared: readers never change them). */
const NO_ATTRIBUTES: string[] = [];

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

const isNameStart = (c: number) =>
	(c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 58 || c >= 0xc0;
const isNameChar = (c: number) =>
	isNameStart(c) || (c >= 48 && c <= 57) || c === 45 || c === 46 || c === 0xb7;
const isSpace = (c: number) => c === 32 || c === 10 || c === 9 || c === 13;

export class XmlTokenizer {
	private buf = '';
	private pos = 0;
	/** Lines and the column offset of the text already dropped from `buf`. */
	private line = 1;
	private lineStart = 0;
	private dropped = 0;
	private readonly stack: string[] = [];
	private seenRoot = false;
	/** Inside an unfinished comment or CDATA section carried over from the previous chunk. */
	private carry: 'comment' | 'cdata' | null = null;

	constructor(
		private handler: XmlHandler,
		private readonly maxDepth: number,
	) {}

	/** Hands the events from now on to `handler` (once the root element has chosen the reader). */
	setHandler(handler: XmlHandler): void {
		this.handler = handler;
	}

	/** Reads one more chunk of the document. */
	write(chunk: string): void {
		if (this.pos > 0) this.drop();
		this.buf = this.pos < this.buf.length ? this.buf + chunk : chunk;
		this.scan(false);
	}

	/** The document is complete: reads what is left and checks that every element was closed. */
	end(): void {
		this.scan(true);
		if (this.stack.length > 0) this.endsEarly('', this.buf.length);
		if (!this.seenRoot) this.fail('the document has no root element', this.buf.length);
	}

	/** The document ends before its elements are closed (a file cut short). */
	private endsEarly(inside: string, at: number): never {
		const open = this.stack[this.stack.length - 1];
		this.fail(
			`${open ? `unclosed xml tag <${open}>` : 'the document ends early'}${inside ? `: the document ends inside ${inside}` : ''}`,
			at,
		);
	}

	/** Drops what was read from the buffer, counting its lines. */
	private drop(): void {
		const upto = this.pos;
		let nl = this.buf.indexOf('\n');
		while (nl !== -1 && nl < upto) {
			this.line++;
			this.lineStart = this.dropped + nl + 1;
			nl = this.buf.indexOf('\n', nl + 1);
		}
		this.dropped += upto;
		this.buf = this.buf.slice(upto);
		this.pos = 0;
	}

	private fail(message: string, at: number, kind: XmlSyntaxError['kind'] = 'malformed'): never {
		let line = this.line;
		let lineStart = this.lineStart;
		for (let i = 0; i < at && i < this.buf.length; i++)
			if (this.buf.charCodeAt(i) === 10) {
				line++;
				lineStart = this.dropped + i + 1;
			}
		const column = this.dropped + at - lineStart + 1;
		throw new XmlSyntaxError(`${message} (line ${line}, column ${column})`, kind);
	}

	private scan(final: boolean): void {
		const buf = this.buf;
		const len = buf.length;
		if (this.carry !== null && !this.resumeCarry(final)) return;
		while (this.pos < len) {
			const pos = this.pos;
			if (buf.charCodeAt(pos) !== 60) {
				let lt = buf.indexOf('<', pos);
				if (lt === -1) {
					if (!final) {
						// hand on what cannot be cut inside a reference or a CR LF pair
						lt = len;
						const amp = buf.lastIndexOf('&');
						if (amp >= pos && len - amp < 16 && buf.indexOf(';', amp) === -1) lt = amp;
						if (lt > pos && buf.charCodeAt(lt - 1) === 13) lt--;
						if (lt > pos) this.textOut(pos, lt);
						this.pos = lt;
						return;
					}
					lt = len;
				}
				this.textOut(pos, lt);
				this.pos = lt;
				continue;
			}
			if (pos + 1 >= len) {
				if (final) this.endsEarly('a tag', pos);
				return;
			}
			const c1 = buf.charCodeAt(pos + 1);
			let done: boolean;
			if (c1 === 47) done = this.endTag();
			else if (c1 === 33) done = this.bang(final);
			else if (c1 === 63) done = this.instruction();
			else done = this.startTag();
			if (!done) {
				if (len - this.pos > MAX_MARKUP)
					this.fail(`a tag or comment longer than ${MAX_MARKUP} characters`, this.pos);
				if (final) this.endsEarly('a tag', this.pos);
				return;
			}
		}
	}

	/** Character data between `from` and `to`, references resolved, line ends normalised. */
	private textOut(from: number, to: number): void {
		let text = this.buf.slice(from, to);
		if (this.stack.length === 0) {
			if (/\S/.test(text))
				this.fail(
					this.seenRoot
						? 'text after the root element'
						: 'text before the root element (not an XML document?)',
					from,
				);
			return;
		}
		if (text.indexOf('&') !== -1) text = this.resolve(text, from);
		if (text.indexOf('\r') !== -1) text = text.replace(/\r\n?/g, '\n');
		this.handler.text(text);
	}

	/** Resolves character and predefined-entity references in `text` (read at `at`). */
	private resolve(text: string, at: number): string {
		return text.replace(/&([^;&<\s]*);?/g, (whole: string, ref: string, offset: number) => {
			if (!whole.endsWith(';') || ref.length === 0)
				this.fail('a "&" that does not start a reference (write it as &amp;)', at + offset);
			if (ref.charCodeAt(0) === 35) {
				const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
				if (!/^#(x[0-9A-Fa-f]+|[0-9]+)$/.test(ref) || !(code > 0 && code <= 0x10ffff))
					this.fail(`the character reference "&${ref};" is not a character`, at + offset);
				return String.fromCodePoint(code);
			}
			const value = Object.prototype.hasOwnProperty.call(PREDEFINED, ref)
				? PREDEFINED[ref]
				: undefined;
			if (value === undefined)
				this.fail(
					`the entity "&${ref};" is not defined (KML and GPX use only &amp; &lt; &gt; &quot; &apos;)`,
					at + offset,
				);
			return value;
		});
	}

	private endTag(): boolean {
		const buf = this.buf;
		const start = this.pos;
		const gt = buf.indexOf('>', start + 2);
		if (gt === -1) return false;
		let nameEnd = start + 2;
		while (nameEnd < gt && isNameChar(buf.charCodeAt(nameEnd))) nameEnd++;
		const name = buf.slice(start + 2, nameEnd);
		for (let i = nameEnd; i < gt; i++)
			if (!isSpace(buf.charCodeAt(i))) this.fail(`a malformed end tag </${name}`, i);
		const open = this.stack.pop();
		if (open === undefined) this.fail(`the end tag </${name}> closes nothing`, start);
		if (open !== name)
			this.fail(`the end tag </${name}> does not match the start tag <${open}>`, start);
		this.pos = gt + 1;
		this.handler.close(name);
		return true;
	}

	private startTag(): boolean {
		const buf = this.buf;
		const len = buf.length;
		const start = this.pos;
		let i = start + 1;
		if (!isNameStart(buf.charCodeAt(i))) this.fail('a "<" that does not start a tag', start);
		while (i < len && isNameChar(buf.charCodeAt(i))) i++;
		const name = buf.slice(start + 1, i);
		let attributes: string[] = NO_ATTRIBUTES;
		for (;;) {
			const spaced = i < len && isSpace(buf.charCodeAt(i));
			while (i < len && isSpace(buf.charCodeAt(i))) i++;
			if (i >= len) return false;
			const c = buf.charCodeAt(i);
			if (c === 62 || c === 47) {
				if (c === 47) {
					if (i + 1 >= len) return false;
					if (buf.charCodeAt(i + 1) !== 62) this.fail(`a malformed tag <${name}`, i);
				}
				const selfClosing = c === 47;
				this.pos = i + (selfClosing ? 2 : 1);
				this.element(name, attributes, selfClosing, start);
				return true;
			}
			if (!spaced || !isNameStart(c)) this.fail(`a malformed attribute in the tag <${name}`, i);
			const nameStart = i;
			while (i < len && isNameChar(buf.charCodeAt(i))) i++;
			const attribute = buf.slice(nameStart, i);
			while (i < len && isSpace(buf.charCodeAt(i))) i++;
			if (i >= len) return false;
			if (buf.charCodeAt(i) !== 61)
				this.fail(`the attribute ${attribute} of <${name}> has no value`, i);
			i++;
			while (i < len && isSpace(buf.charCodeAt(i))) i++;
			if (i >= len) return false;
			const quote = buf.charCodeAt(i);
			if (quote !== 34 && quote !== 39)
				this.fail(`the value of the attribute ${attribute} of <${name}> is not quoted`, i);
			const close = buf.indexOf(quote === 34 ? '"' : "'", i + 1);
			if (close === -1) return false;
			let value = buf.slice(i + 1, close);
			if (value.indexOf('<') !== -1)
				this.fail(`a "<" in the value of the attribute ${attribute} of <${name}>`, i);
			if (value.indexOf('&') !== -1) value = this.resolve(value, i + 1);
			if (/[\t\n\r]/.test(value)) value = value.replace(/\r\n|[\t\n\r]/g, ' ');
			for (let k = 0; k < attributes.length; k += 2)
				if (attributes[k] === attribute)
					this.fail(`the attribute ${attribute} is repeated in <${name}>`, nameStart);
			if (attributes === NO_ATTRIBUTES) attributes = [];
			attributes.push(attribute, value);
			i = close + 1;
		}
	}

	private element(name: string, attributes: string[], selfClosing: boolean, at: number): void {
		if (this.stack.length === 0) {
			if (this.seenRoot) this.fail(`a second root element <${name}>`, at);
			this.seenRoot = true;
		}
		if (this.stack.length + 1 > this.maxDepth)
			this.fail(`elements nested more than ${this.maxDepth} deep`, at, 'depth');
		this.handler.open(name, attributes, selfClosing);
		if (selfClosing) this.handler.close(name);
		else this.stack.push(name);
	}

	private instruction(): boolean {
		const end = this.buf.indexOf('?>', this.pos + 2);
		if (end === -1) return false;
		this.pos = end + 2;
		return true;
	}

	/** `<!--`, `<![CDATA[`, `<!DOCTYPE`; anything else (`<!ENTITY`…) is refused. */
	private bang(final: boolean): boolean {
		const buf = this.buf;
		const start = this.pos;
		if (buf.length - start < 9 && !final) {
			const head = buf.slice(start);
			if ('<!--'.startsWith(head) || '<![CDATA['.startsWith(head) || '<!DOCTYPE'.startsWith(head))
				return false;
		}
		if (buf.startsWith('<!--', start)) {
			this.pos = start + 4;
			this.carry = 'comment';
			return this.resumeCarry(final);
		}
		if (buf.startsWith('<![CDATA[', start)) {
			if (this.stack.length === 0) this.fail('a CDATA section outside the root element', start);
			this.pos = start + 9;
			this.carry = 'cdata';
			return this.resumeCarry(final);
		}
		if (buf.startsWith('<!DOCTYPE', start)) {
			if (this.seenRoot) this.fail('a document type inside the document', start);
			// an internal subset is where entities are declared: refused as soon as it opens
			for (let i = start + 9; i < buf.length; i++) {
				const c = buf.charCodeAt(i);
				if (c === 91) this.fail('a document type with an internal subset', start, 'entities');
				if (c === 62) {
					this.pos = i + 1;
					return true;
				}
			}
			return false;
		}
		if (/^<!ENTITY/i.test(buf.slice(start, start + 8)))
			this.fail('an entity declaration', start, 'entities');
		this.fail('a "<!" that starts no comment, CDATA section or document type', start);
	}

	/** Goes on with a comment or CDATA section; false when its end is not in this chunk yet. */
	private resumeCarry(final: boolean): boolean {
		const buf = this.buf;
		const cdata = this.carry === 'cdata';
		const end = buf.indexOf(cdata ? ']]>' : '-->', this.pos);
		if (end === -1) {
			if (final) this.endsEarly(cdata ? 'a CDATA section' : 'a comment', buf.length);
			// keep the last two characters: they may begin the terminator
			const keep = Math.max(this.pos, buf.length - 2);
			if (cdata && keep > this.pos) this.handler.cdata(buf.slice(this.pos, keep));
			this.pos = keep;
			return false;
		}
		if (cdata) {
			if (end > this.pos) this.handler.cdata(buf.slice(this.pos, end));
		}
		this.pos = end + 3;
		this.carry = null;
		return true;
	}
}
