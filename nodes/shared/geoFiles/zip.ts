/**
 * Zip archives (KMZ, zipped Shapefiles) read with fflate (its build without worker threads), bounded: only the entries asked for
 * are inflated; each entry's declared uncompressed size is checked against the budget before
 * it is inflated, and fflate inflates into a buffer of exactly the declared size, so an entry
 * that lies about its size cannot produce more (it comes out cut, and its reader says so).
 */
import { unzipSync } from 'fflate/browser';

import { GeoFileError, MB } from './geoFileTypes';

interface ZipContents {
	/** Every entry name (folders and __MACOSX resource forks left out). */
	names: string[];
	/** The inflated entries that `want` asked for. */
	files: Map<string, Uint8Array>;
}

export function isZip(bytes: Uint8Array): boolean {
	return (
		bytes.length >= 4 &&
		bytes[0] === 0x50 &&
		bytes[1] === 0x4b &&
		((bytes[2] === 3 && bytes[3] === 4) || (bytes[2] === 5 && bytes[3] === 6))
	);
}

/** Lists a zip and inflates the entries `want` accepts, at most `maxBytes` uncompressed in all. */
export function readZip(
	bytes: Uint8Array,
	fileName: string,
	want: (name: string) => boolean,
	maxBytes: number,
): ZipContents {
	const names: string[] = [];
	let budget = maxBytes;
	let files: Record<string, Uint8Array> = {};
	let failure: unknown;
	try {
		files = unzipSync(bytes, {
			filter: (entry) => {
				const name = entry.name;
				if (name.endsWith('/') || name.startsWith('__MACOSX/') || name.includes('/__MACOSX/'))
					return false;
				names.push(name);
				if (!want(name)) return false;
				if (entry.originalSize > budget) {
					throw new GeoFileError(
						`The zip file "${fileName}" would unpack to more than ${Math.round(maxBytes / MB)} MB ("${name}" alone declares ${(entry.originalSize / MB).toFixed(1)} MB): refused, nothing was unpacked past the limit`,
						'A plot file is rarely over a few megabytes. Check that this is the intended file; for a genuinely large layer, split it (e.g. by region in QGIS) or raise Maximum Uncompressed Size (MB).',
					);
				}
				budget -= entry.originalSize;
				return true;
			},
		});
	} catch (error) {
		failure = error;
	}
	if (failure instanceof GeoFileError) throw failure;
	if (failure !== undefined) {
		throw new GeoFileError(
			`The zip file "${fileName}" cannot be opened: ${(failure as Error).message} (is it complete? a download or attachment cut short gives this)`,
			'Send the file again as it was exported, or open it on your computer to check that it unpacks.',
		);
	}
	return { names, files: new Map(Object.entries(files)) };
}
