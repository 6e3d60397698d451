/**
 * What Read File's tests share: the fixture writers (test/fixtures/geofiles/writers.js)
 * typed, a refusal catcher, a WGS84 `.prj`, text as bytes, an axis-aligned square ring, and a
 * fixture file as an n8n item with the file in a binary field.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Position } from '../../nodes/shared/geoFiles';
import { GeoFileError } from '../../nodes/shared/geoFiles';

interface Writers {
	writeZip: (
		entries: Array<{
			name: string;
			data: Uint8Array;
			method: number;
			size: number;
			flags?: number;
			localSizes?: boolean;
		}>,
	) => Buffer;
	writeDbf: (
		fields: Array<{ name: string; type: string; length: number; decimals?: number }>,
		rows: Array<Record<string, unknown>>,
		encoding: string,
	) => Buffer;
	writeShp: (
		shapes: Array<{ type: 'point'; point: number[] } | null>,
		type: number,
	) => { shp: Buffer; shx: Buffer };
}

export const { writeZip, writeDbf, writeShp } = require('../fixtures/geofiles/writers') as Writers;

export const text = (s: string): Uint8Array => new TextEncoder().encode(s);

export const WGS84_PRJ =
	'GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]';

/** The GeoFileError `run` throws (the test fails when it throws nothing or something else). */
export function refusal(run: () => unknown): GeoFileError {
	try {
		run();
	} catch (error) {
		expect(error).toBeInstanceOf(GeoFileError);
		return error as GeoFileError;
	}
	throw new Error('expected a refusal');
}

/** A square ring of side `s` from (x, y), clockwise (a `.shp` outer ring) or not (a hole). */
export function square(x: number, y: number, s: number, clockwise: boolean): Position[] {
	const r = [
		[x, y],
		[x + s, y],
		[x + s, y + s],
		[x, y + s],
		[x, y],
	];
	return clockwise ? r.reverse() : r;
}

/** A fixture of test/fixtures/geofiles as an item holding it in binary field `field`. */
export function fileItem(name: string, json: IDataObject = {}, field = 'data'): INodeExecutionData {
	const bytes = readFileSync(join(__dirname, '../fixtures/geofiles', name));
	return {
		json,
		binary: {
			[field]: {
				data: bytes.toString('base64'),
				mimeType: 'application/octet-stream',
				fileName: name,
				fileSize: String(bytes.length),
			},
		},
	};
}
