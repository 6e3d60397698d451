/**
 * The attribute table of a Shapefile layer: the `.dbf` (dBASE III) reader, with the encoding
 * its `.cpg` or language driver names (GDAL's mapping), and the "layer is damaged" error every
 * part of the Shapefile reader (shapefile.ts) raises. Pure.
 */
import { GeoFileError } from './geoFileTypes';

/** A damaged Shapefile layer: what is wrong, and how to export it again. */
export const damaged = (layer: string, what: string) =>
	new GeoFileError(
		`The Shapefile layer "${layer}" is damaged: ${what}`,
		'Export the layer again (QGIS: Export → Save Features As…, ESRI Shapefile) and send the complete zip with its .shp, .shx, .dbf, .prj and .cpg files.',
	);

/** Language driver ids (byte 29 of a .dbf) to WHATWG encoding labels, as GDAL maps them. */
const LDID: Record<number, string> = {
	0x03: 'windows-1252',
	0x57: 'iso-8859-1',
	0x13: 'shift_jis',
	0x4d: 'gbk',
	0x4e: 'euc-kr',
	0x4f: 'big5',
	0x78: 'big5',
	0x79: 'euc-kr',
	0x7a: 'gbk',
	0x7b: 'shift_jis',
	0x7c: 'windows-874',
	0x7d: 'windows-1255',
	0x7e: 'windows-1256',
	0xc8: 'windows-1250',
	0xc9: 'windows-1251',
	0xca: 'windows-1254',
	0xcb: 'windows-1253',
};

/** A `.cpg` text ("UTF-8", "1252", "ANSI 1252", "ISO-8859-1", "CP1251") as an encoding label. */
export function cpgLabel(text: string): string | undefined {
	const t = text.replace(/^\uFEFF/, '').trim();
	if (!t) return undefined;
	const digits = /^(?:ANSI\s*|CP\s*|LDID\/)?(\d+)$/i.exec(t)?.[1];
	let label = t;
	if (digits === '65001') label = 'utf-8';
	else if (digits === '88591') label = 'iso-8859-1';
	else if (digits && /^(125\d|874)$/.test(digits)) label = `windows-${digits}`;
	else if (digits === '932') label = 'shift_jis';
	else if (digits === '936') label = 'gbk';
	else if (digits === '949') label = 'euc-kr';
	else if (digits === '950') label = 'big5';
	else if (digits) return undefined;
	try {
		new TextDecoder(label);
		return label;
	} catch {
		return undefined;
	}
}

export interface DbfTable {
	fields: string[];
	/** The rows built: at most the shapes read (`maxRows`); null for a deleted row. */
	rows: Array<Record<string, unknown> | null>;
	/** The rows the file holds (its header's count, or fewer when it is cut short). */
	rowCount: number;
	/** False when the file ends before the rows its header declares. */
	complete: boolean;
	encoding: string;
	warnings: string[];
}

export function readDbf(
	bytes: Uint8Array,
	layer: string,
	cpg: string | undefined,
	defaultEncoding: string,
	maxRows = Number.POSITIVE_INFINITY,
): DbfTable {
	const warnings: string[] = [];
	if (bytes.length < 32) throw damaged(layer, 'the .dbf is shorter than its header');
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const count = view.getUint32(4, true);
	const headerLength = view.getUint16(8, true);
	const recordLength = view.getUint16(10, true);
	let encoding: string | undefined;
	if (cpg !== undefined) {
		encoding = cpgLabel(cpg);
		if (!encoding)
			warnings.push(
				`Layer "${layer}": the .cpg names the encoding "${cpg.trim()}", which is not known: attributes read as ${defaultEncoding}`,
			);
	}
	encoding ??= LDID[bytes[29]] ?? defaultEncoding;
	const decoder = new TextDecoder(encoding);
	const fields: Array<{ name: string; type: string; length: number; offset: number }> = [];
	let offset = 1;
	for (let at = 32; at + 32 <= headerLength && bytes[at] !== 0x0d; at += 32) {
		let nameEnd = at;
		while (nameEnd < at + 11 && bytes[nameEnd] !== 0) nameEnd++;
		const length = bytes[at + 16];
		fields.push({
			name: decoder.decode(bytes.subarray(at, nameEnd)).trim(),
			type: String.fromCharCode(bytes[at + 11]).toUpperCase(),
			length,
			offset,
		});
		offset += length;
	}
	if (headerLength > bytes.length) throw damaged(layer, 'the .dbf is cut short inside its header');
	// The header's count × record length, checked against the real size before it is trusted.
	const available = Math.floor((bytes.length - headerLength) / Math.max(1, recordLength));
	if (available < count) {
		warnings.push(
			`Layer "${layer}": the .dbf is cut short (${available} of ${count} attribute rows): the features after row ${available} have no attributes`,
		);
	}
	const rows: Array<Record<string, unknown> | null> = [];
	const rowCount = Math.min(count, available);
	for (let r = 0; r < Math.min(rowCount, maxRows); r++) {
		const base = headerLength + r * recordLength;
		if (bytes[base] === 0x2a) {
			rows.push(null); // deleted
			continue;
		}
		const row: Record<string, unknown> = {};
		for (const f of fields) {
			const raw = bytes.subarray(base + f.offset, base + f.offset + f.length);
			Object.defineProperty(row, f.name, {
				value: fieldValue(f.type, raw, decoder),
				enumerable: true,
				writable: true,
				configurable: true,
			});
		}
		rows.push(row);
	}
	return {
		fields: fields.map((f) => f.name),
		rows,
		rowCount,
		complete: available >= count,
		encoding,
		warnings,
	};
}

function fieldValue(
	type: string,
	raw: Uint8Array,
	decoder: InstanceType<typeof TextDecoder>,
): unknown {
	if (type === 'N' || type === 'F') {
		const text = asciiTrim(raw);
		if (text === '' || /^\*+$/.test(text)) return null;
		const n = Number(text);
		return Number.isFinite(n) ? n : text;
	}
	if (type === 'L') {
		const c = asciiTrim(raw).toUpperCase();
		if ('TY'.includes(c) && c) return true;
		if ('FN'.includes(c) && c) return false;
		return null;
	}
	if (type === 'D') {
		const t = asciiTrim(raw);
		return /^\d{8}$/.test(t) ? `${t.slice(0, 4)}-${t.slice(4, 6)}-${t.slice(6, 8)}` : null;
	}
	if (type === 'C' || type === 'M' || type === 'V') {
		let end = raw.length;
		while (end > 0 && (raw[end - 1] === 0x20 || raw[end - 1] === 0)) end--;
		return decoder.decode(raw.subarray(0, end));
	}
	return asciiTrim(raw);
}

function asciiTrim(raw: Uint8Array): string {
	let s = '';
	for (const b of raw) if (b !== 0) s += String.fromCharCode(b);
	return s.trim();
}
