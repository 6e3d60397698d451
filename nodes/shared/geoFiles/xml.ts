/**
 * XML files (KML, GPX) read safely and in pieces: the bytes are decoded in chunks of
 * `CHUNK_BYTES` in their declared encoding (UTF-8 by default; a UTF-16 byte-order mark
 * wins) and fed to the streaming tokenizer of xmlStream.ts, so that the doc.kml of a KMZ
 * that inflates to hundreds of megabytes is never one string. A document type with an
 * internal subset, or any entity declaration, is refused before the root element (KML and
 * GPX never need one; it is how "billion laughs" and external-entity files work), nothing
 * is ever fetched, elements nested deeper than real files are (`MAX_FOLDER_DEPTH`) are
 * refused, and a document that is not well-formed (e.g. cut short) is refused with the line
 * and column where it breaks.
 */
import { GeoFileError } from './geoFileTypes';
import type { XmlHandler } from './xmlStream';
import { XmlSyntaxError, XmlTokenizer } from './xmlStream';

/** Deepest XML element nesting read (Google Earth files nest a few folders; a crafted one, thousands). */
export const MAX_FOLDER_DEPTH = 200;

/** Bytes decoded at a time. */
const CHUNK_BYTES = 1 << 20;

/** The encoding label of an XML file: a UTF-16 byte-order mark, else its declaration, else UTF-8. */
function encodingOf(bytes: Uint8Array): string {
	if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
	if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
	const head = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
	const declared = /^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1];
	return declared ?? 'utf-8';
}

function decoderFor(bytes: Uint8Array) {
	try {
		return new TextDecoder(encodingOf(bytes));
	} catch {
		return new TextDecoder('utf-8');
	}
}

/** Text of an XML file: its declared encoding (UTF-8 by default), byte-order mark removed. */
export function xmlText(bytes: Uint8Array): string {
	return decoderFor(bytes).decode(bytes);
}

/** The text of an XML file in pieces of about `CHUNK_BYTES` (never one string of the whole file). */
export function* xmlChunks(bytes: Uint8Array): Generator<string> {
	const decoder = decoderFor(bytes);
	for (let at = 0; at < bytes.length; at += CHUNK_BYTES) {
		const end = Math.min(bytes.length, at + CHUNK_BYTES);
		yield decoder.decode(bytes.subarray(at, end), { stream: end < bytes.length });
	}
	if (bytes.length === 0) yield '';
}

/** Stops a read early without an error (e.g. once Maximum Features is passed). */
export class StopReading extends Error {}

/**
 * Feeds an XML file to `handler` (made from the root element's local name, lower-cased: a
 * handler for a root it does not read throws its own GeoFileError). Throws GeoFileError for
 * a document that is not well-formed, declares entities or nests too deep.
 */
export function readXml(
	bytes: Uint8Array | Iterable<string>,
	fileName: string,
	handlerFor: (root: string) => XmlHandler,
): void {
	// before the root element there is nothing to read; the root chooses the reader
	const nothing = () => undefined;
	const dispatch: XmlHandler = {
		open: (name, attributes, selfClosing) => {
			const handler = handlerFor(name.replace(/^.*:/, '').toLowerCase());
			tokenizer.setHandler(handler);
			handler.open(name, attributes, selfClosing);
		},
		close: nothing,
		text: nothing,
		cdata: nothing,
	};
	const tokenizer = new XmlTokenizer(dispatch, MAX_FOLDER_DEPTH);
	let failure: unknown;
	try {
		for (const chunk of bytes instanceof Uint8Array ? xmlChunks(bytes) : bytes)
			tokenizer.write(chunk);
		tokenizer.end();
	} catch (error) {
		failure = error;
	}
	if (failure === undefined || failure instanceof StopReading) return;
	if (!(failure instanceof XmlSyntaxError)) throw failure;
	throw refusal(failure, fileName);
}

/** The GeoFileError of a document the tokenizer refused. */
function refusal(error: XmlSyntaxError, fileName: string): GeoFileError {
	if (error.kind === 'entities')
		return new GeoFileError(
			`"${fileName}" declares XML entities (${error.message}): refused, nothing in it was expanded or fetched`,
			'KML and GPX files never need entity declarations; a file with them is damaged or crafted. Export it again from the app that made it.',
		);
	if (error.kind === 'depth')
		return new GeoFileError(
			`The file nests its XML elements more than ${MAX_FOLDER_DEPTH} deep: refused (a damaged or crafted file)`,
			'Export the file again from Google Earth or QGIS; real files nest a few folders.',
		);
	return new GeoFileError(
		`"${fileName}" is not well-formed XML: ${error.message} (a file cut short gives this)`,
		'Send the file again as it was exported; open it in Google Earth or a text editor to check that it is complete.',
	);
}
