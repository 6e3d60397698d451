/**
 * Zip archives (KMZ, zipped Shapefiles), read bounded by the file, before the work.
 *
 * Our own reader of the central directory (PKWARE's APPNOTE 6.3, sections 4.3.6–4.3.16),
 * because a zip's stated structure must be checked against the file's real size before it
 * is trusted: fflate's `unzipSync` believes the entry count of the end record (a 128-byte
 * zip whose zip64 record claims 4,294,967,295 entries collected names until the heap was
 * gone) and copies a stored entry whole whatever it declares. Here:
 * - the end-of-central-directory record (and the zip64 locator and record) must lie inside
 *   the file; the central directory's offset and size must lie before its end record, and
 *   its entry count must fit its size (a directory entry takes at least 46 bytes);
 * - every entry's local header offset and data must lie before the central directory;
 * - the declared sizes of the entries asked for are summed against Maximum Uncompressed Size
 *   before anything is inflated (a zip bomb is refused there);
 * - each entry is inflated with fflate's streaming `Inflate`, fed in small chunks, counting
 *   the bytes it actually produces: once it produces more than it declares, it is refused
 *   naming the entry (stored entries are counted the same way), so no entry ever costs more
 *   than its declared share of the budget. The central directory's sizes are used (an entry
 *   written with a data descriptor has zero sizes in its local header).
 */
import { Inflate, inflateSync } from 'fflate/browser';

import { GeoFileError, MB } from './geoFileTypes';

interface ZipContents {
	/** Every entry name (folders and __MACOSX resource forks left out). */
	names: string[];
	/** The inflated entries that `want` asked for. */
	files: Map<string, Uint8Array>;
}

interface ZipEntry {
	name: string;
	flags: number;
	method: number;
	compressedSize: number;
	size: number;
	localOffset: number;
}

const END = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_END = 0x06064b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** The smallest central directory entry (no name, no extra field, no comment). */
export const MIN_DIRECTORY_ENTRY = 46;
/** Compressed bytes given to the inflater at a time (deflate expands at most ~1,032×). */
const CHUNK = 4096;
/**
 * Entries compressed to at most this many bytes are inflated in one call into a buffer one
 * byte longer than they declare (a stream that fills that byte produces more than it
 * declares): at most ~17 MB of work whatever the stream says, and much faster than a
 * streaming inflater per entry when a zip holds thousands of small ones.
 */
const SMALL_ENTRY = 16_384;

export function isZip(bytes: Uint8Array): boolean {
	return (
		bytes.length >= 4 &&
		bytes[0] === 0x50 &&
		bytes[1] === 0x4b &&
		((bytes[2] === 3 && bytes[3] === 4) || (bytes[2] === 5 && bytes[3] === 6))
	);
}

const count = (n: number) => n.toLocaleString('en-US');

function cannotOpen(fileName: string, reason: string): GeoFileError {
	return new GeoFileError(
		`The zip file "${fileName}" cannot be opened: ${reason} (is it complete? a download or attachment cut short gives this)`,
		'Send the file again as it was exported, or open it on your computer to check that it unpacks.',
	);
}

function crafted(fileName: string, what: string): GeoFileError {
	return new GeoFileError(
		`The zip file "${fileName}" is damaged or crafted: ${what}: refused, nothing past that was read or unpacked`,
		'Zip the files again on your computer (or export the KMZ again from Google Earth) and send the new file.',
	);
}

/** An unsigned 64-bit little-endian number (exact up to 2^53, larger ones only compare as large). */
const u64 = (view: DataView, at: number) =>
	view.getUint32(at, true) + view.getUint32(at + 4, true) * 2 ** 32;

interface Directory {
	offset: number;
	size: number;
	entries: number;
}

/** The central directory the end record states, checked against the file's real size. */
function findDirectory(bytes: Uint8Array, view: DataView, fileName: string): Directory {
	let end = -1;
	for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
		if (view.getUint32(at, true) === END) {
			end = at;
			break;
		}
	}
	if (end < 0) throw cannotOpen(fileName, 'its end-of-central-directory record is missing');
	if (view.getUint16(end + 4, true) !== 0 || view.getUint16(end + 6, true) !== 0)
		throw crafted(fileName, 'it states to be one part of a zip split over several files');
	let entries = view.getUint16(end + 10, true);
	let size = view.getUint32(end + 12, true);
	let offset = view.getUint32(end + 16, true);
	let directoryEnd = end;
	if (entries === 0xffff || size === 0xffffffff || offset === 0xffffffff) {
		// zip64: a locator just before the end record points to the zip64 end record.
		const locator = end - 20;
		if (locator >= 0 && view.getUint32(locator, true) === ZIP64_LOCATOR) {
			const recordAt = u64(view, locator + 8);
			if (recordAt + 56 > locator)
				throw crafted(
					fileName,
					`its zip64 locator points to a record at byte ${count(recordAt)}, outside its ${count(bytes.length)} bytes`,
				);
			if (view.getUint32(recordAt, true) !== ZIP64_END)
				throw cannotOpen(fileName, 'its zip64 end-of-central-directory record is missing');
			entries = u64(view, recordAt + 32);
			size = u64(view, recordAt + 40);
			offset = u64(view, recordAt + 48);
			directoryEnd = recordAt;
		}
	}
	if (offset + size > directoryEnd)
		throw crafted(
			fileName,
			`its central directory is stated at bytes ${count(offset)} to ${count(offset + size)}, past where its directory ends (byte ${count(directoryEnd)} of ${count(bytes.length)})`,
		);
	if (entries * MIN_DIRECTORY_ENTRY > size)
		throw crafted(
			fileName,
			`its directory claims ${count(entries)} entries, more than its ${count(size)} bytes of directory can hold (at least ${MIN_DIRECTORY_ENTRY} bytes each; the file is ${count(bytes.length)} bytes)`,
		);
	return { offset, size, entries };
}

/** The entries of the central directory, each checked to lie inside the file. */
function readDirectory(
	bytes: Uint8Array,
	fileName: string,
): { entries: ZipEntry[]; dataEnd: number } {
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const directory = findDirectory(bytes, view, fileName);
	const directoryEnd = directory.offset + directory.size;
	const entries: ZipEntry[] = [];
	let at = directory.offset;
	for (let i = 0; i < directory.entries; i++) {
		if (at + MIN_DIRECTORY_ENTRY > directoryEnd || view.getUint32(at, true) !== DIRECTORY_ENTRY)
			throw cannotOpen(
				fileName,
				`its central directory ends after ${count(i)} of the ${count(directory.entries)} entries it states`,
			);
		const flags = view.getUint16(at + 8, true);
		const nameLength = view.getUint16(at + 28, true);
		const extraLength = view.getUint16(at + 30, true);
		const next = at + 46 + nameLength + extraLength + view.getUint16(at + 32, true);
		if (next > directoryEnd)
			throw cannotOpen(fileName, `its central directory is cut short inside entry ${i + 1}`);
		const nameBytes = bytes.subarray(at + 46, at + 46 + nameLength);
		// As fflate decodes names: UTF-8 when the entry says so (bit 11), else Latin-1.
		const name = new TextDecoder(flags & 0x800 ? 'utf-8' : 'latin1').decode(nameBytes);
		let compressedSize = view.getUint32(at + 20, true);
		let size = view.getUint32(at + 24, true);
		let localOffset = view.getUint32(at + 42, true);
		if (size === 0xffffffff || compressedSize === 0xffffffff || localOffset === 0xffffffff) {
			// The zip64 extra field (id 1) holds the fields that are 0xFFFFFFFF, in this order.
			for (let e = at + 46 + nameLength; e + 4 <= at + 46 + nameLength + extraLength; ) {
				const id = view.getUint16(e, true);
				const length = view.getUint16(e + 2, true);
				if (id === 1) {
					let field = e + 4;
					const take = () => {
						const v = field + 8 <= e + 4 + length ? u64(view, field) : 0xffffffff;
						field += 8;
						return v;
					};
					if (size === 0xffffffff) size = take();
					if (compressedSize === 0xffffffff) compressedSize = take();
					if (localOffset === 0xffffffff) localOffset = take();
					break;
				}
				e += 4 + length;
			}
		}
		if (localOffset + 30 > directory.offset)
			throw crafted(
				fileName,
				`the entry "${name}" is stated at byte ${count(localOffset)}, past the entries' end (byte ${count(directory.offset)})`,
			);
		entries.push({
			name,
			flags,
			method: view.getUint16(at + 10, true),
			compressedSize,
			size,
			localOffset,
		});
		at = next;
	}
	return { entries, dataEnd: directory.offset };
}

function producedMore(fileName: string, entry: ZipEntry): GeoFileError {
	return crafted(
		fileName,
		`the entry "${entry.name}" unpacks to more than the ${count(entry.size)} bytes it declares`,
	);
}

/** The entry's data, inflated no further than it declares. */
function unpack(bytes: Uint8Array, fileName: string, entry: ZipEntry, dataEnd: number) {
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const at = entry.localOffset;
	if (view.getUint32(at, true) !== LOCAL_HEADER)
		throw cannotOpen(fileName, `the entry "${entry.name}" is not where its directory says`);
	const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
	if (start + entry.compressedSize > dataEnd)
		throw cannotOpen(fileName, `the entry "${entry.name}" is cut short`);
	if (entry.flags & 1)
		throw new GeoFileError(
			`The zip file "${fileName}" holds the encrypted (password-protected) entry "${entry.name}", which this node cannot read`,
			'Zip the files again without a password and send the new file.',
		);
	const data = bytes.subarray(start, start + entry.compressedSize);
	if (entry.method === 0) {
		// Stored: counted as inflated bytes are (a stored entry declaring 0 bytes gives none).
		if (data.length > entry.size) throw producedMore(fileName, entry);
		return data.slice();
	}
	if (entry.method !== 8)
		throw cannotOpen(
			fileName,
			`the entry "${entry.name}" uses the compression method ${entry.method}, which this node does not unpack (stored and deflate are read)`,
		);
	if (data.length === 0) return new Uint8Array(0); // nothing stored: nothing produced
	if (data.length <= SMALL_ENTRY) {
		let out: Uint8Array;
		try {
			out = inflateSync(data, { out: new Uint8Array(entry.size + 1) });
		} catch (error) {
			throw cannotOpen(fileName, `the entry "${entry.name}": ${(error as Error).message}`);
		}
		if (out.length > entry.size) throw producedMore(fileName, entry);
		return out;
	}
	// Written into one buffer of the declared size (within the budget, checked before): the
	// inflated bytes are never held twice.
	const out = new Uint8Array(entry.size);
	let produced = 0;
	let over = false;
	const inflater = new Inflate((chunk) => {
		if (produced + chunk.length > entry.size) {
			over = true;
			throw producedMore(fileName, entry);
		}
		out.set(chunk, produced);
		produced += chunk.length;
	});
	try {
		for (let from = 0; from < data.length; from += CHUNK) {
			const to = Math.min(from + CHUNK, data.length);
			inflater.push(data.subarray(from, to), to === data.length);
		}
	} catch (error) {
		if (over) throw producedMore(fileName, entry);
		throw cannotOpen(fileName, `the entry "${entry.name}": ${(error as Error).message}`);
	}
	return produced === out.length ? out : out.slice(0, produced);
}

const skipped = (name: string) =>
	name.endsWith('/') || name.startsWith('__MACOSX/') || name.includes('/__MACOSX/');

/** Lists a zip and inflates the entries `want` accepts, at most `maxBytes` uncompressed in all. */
export function readZip(
	bytes: Uint8Array,
	fileName: string,
	want: (name: string) => boolean,
	maxBytes: number,
): ZipContents {
	const directory = readDirectory(bytes, fileName);
	const entries = directory.entries.filter((e) => !skipped(e.name));
	const wanted = entries.filter((e) => want(e.name));
	// The budget from the declared sizes, before anything is inflated.
	let budget = maxBytes;
	for (const entry of wanted) {
		if (entry.size > budget) {
			throw new GeoFileError(
				`The zip file "${fileName}" would unpack to more than ${Math.round(maxBytes / MB)} MB ("${entry.name}" alone declares ${(entry.size / MB).toFixed(1)} MB): refused, nothing was unpacked past the limit`,
				'A plot file is rarely over a few megabytes. Check that this is the intended file; for a genuinely large layer, split it (e.g. by region in QGIS) or raise Maximum Uncompressed Size (MB).',
			);
		}
		budget -= entry.size;
	}
	const files = new Map<string, Uint8Array>();
	for (const entry of wanted)
		files.set(entry.name, unpack(bytes, fileName, entry, directory.dataEnd));
	return { names: entries.map((e) => e.name), files };
}
