/**
 * XML (KML, GPX) parsed with @xmldom/xmldom, safely: a document type with an internal subset
 * or any entity declaration is refused before parsing (KML and GPX never need one, and it is
 * how entity-expansion "billion laughs" and external-entity files work); xmldom itself never
 * loads external entities or DTDs. A document that is not well-formed (e.g. cut short) is
 * refused with the parser's line and column.
 */
import type { Document } from '@xmldom/xmldom';
import { DOMParser } from '@xmldom/xmldom';

import { GeoFileError } from './geoFileTypes';

/** Text of an XML file: its declared encoding (UTF-8 by default), byte-order mark removed. */
export function xmlText(bytes: Uint8Array): string {
	const head = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
	const declared = /^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1];
	let label = 'utf-8';
	if (bytes[0] === 0xff && bytes[1] === 0xfe) label = 'utf-16le';
	else if (bytes[0] === 0xfe && bytes[1] === 0xff) label = 'utf-16be';
	else if (declared) label = declared;
	try {
		return new TextDecoder(label).decode(bytes);
	} catch {
		return new TextDecoder('utf-8').decode(bytes);
	}
}

export function parseXml(text: string, fileName: string): Document {
	if (/<!ENTITY/i.test(text) || /<!DOCTYPE[^>[]*\[/i.test(text)) {
		throw new GeoFileError(
			`"${fileName}" declares XML entities (a DOCTYPE with an internal subset): refused, nothing in it was expanded or fetched`,
			'KML and GPX files never need entity declarations; a file with them is damaged or crafted. Export it again from the app that made it.',
		);
	}
	let fatal: string | undefined;
	const parser = new DOMParser({
		onError: (level, message) => {
			if (level === 'fatalError') fatal ??= String(message);
		},
	});
	let doc: unknown;
	try {
		doc = parser.parseFromString(text, 'text/xml');
	} catch (error) {
		fatal ??= (error as Error).message;
	}
	if (fatal !== undefined || !doc) {
		throw new GeoFileError(
			`"${fileName}" is not well-formed XML: ${(fatal ?? 'no document').split('\n')[0]} (a file cut short gives this)`,
			'Send the file again as it was exported; open it in Google Earth or a text editor to check that it is complete.',
		);
	}
	return doc as Document;
}

/** The local name of the document's root element ("kml", "gpx"), lower-cased. */
export function rootName(doc: Document): string {
	const root = doc.documentElement;
	return (root?.localName ?? root?.nodeName ?? '').replace(/^.*:/, '').toLowerCase();
}
