/**
 * Read File (issue 24): a 10,000-placemark KML and a 10,000-polygon zipped Shapefile
 *    (WGS 84 / UTM zone 22S, reprojected through proj4, Latin-1 table) read by
 *    `readGeoFile`, beside the naive way (the file converted to GeoJSON outside n8n, then
 *    read as rows: JSON.parse of the converted file, the conversion itself not counted), the
 *    libraries alone (xmldom + togeojson for KML; shpjs 6 for the Shapefile, in its own
 *    process as it is ES modules only), and the heap each takes (a fresh --expose-gc process).
 *    Target: under 2 s each.
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

import { DOMParser } from '@xmldom/xmldom';
import { kml } from '@tmcw/togeojson';

import { readGeoFile } from '../nodes/shared/geoFiles';
import { geoJsonText, kmlText, shapefileZip } from './geofiles-data';
import { envNumber, fmt, median, record } from './lib';

const root = path.resolve(__dirname, '..');

function timed<T>(run: () => T, times = 3): { ms: number; value: T } {
	const ms: number[] = [];
	let value: T | undefined;
	for (let i = 0; i < times; i++) {
		const t0 = performance.now();
		value = run();
		ms.push(performance.now() - t0);
	}
	return { ms: median(ms), value: value as T };
}

export async function geofilesBench(): Promise<void> {
	const section = 'read file';
	const n = envNumber('BENCH_GEOFILES_N', 10_000);
	const kmlBytes = new TextEncoder().encode(kmlText(n));
	const zip = shapefileZip(n);
	const geojson = geoJsonText(n);
	const naive = timed(() => (JSON.parse(geojson) as { features: unknown[] }).features.length);

	const kmlRead = timed(() => readGeoFile(kmlBytes, 'bench.kml').features.length);
	if (kmlRead.value !== n) throw new Error(`KML: ${kmlRead.value} features, expected ${n}`);
	record({
		section,
		name: `KML, ${fmt(n)} placemarks in 10 folders (${fmt(kmlBytes.length / 1e6)} MB)`,
		value: kmlRead.ms / 1000,
		unit: 's',
		baseline: naive.ms / 1000,
		baselineLabel: `naive: JSON.parse of the same features converted to GeoJSON outside n8n, ${fmt(geojson.length / 1e6)} MB`,
		target: '< 2 s',
		ok: kmlRead.ms < 2000,
	});
	const library = timed(() => {
		const doc = new DOMParser().parseFromString(new TextDecoder().decode(kmlBytes), 'text/xml');
		return kml(doc as never).features.length;
	});
	record({
		section,
		name: 'KML: the libraries alone (xmldom + togeojson kml(), no folders, no checks)',
		value: library.ms / 1000,
		unit: 's',
		note: `Read File = ${fmt(kmlRead.ms / library.ms)}× the libraries alone`,
	});

	const shpRead = timed(() => readGeoFile(zip, 'bench.zip').features.length);
	if (shpRead.value !== n) throw new Error(`Shapefile: ${shpRead.value} features, expected ${n}`);
	record({
		section,
		name: `zipped Shapefile, ${fmt(n)} polygons, UTM 22S → WGS84 (${fmt(zip.length / 1e6)} MB zip)`,
		value: shpRead.ms / 1000,
		unit: 's',
		baseline: naive.ms / 1000,
		baselineLabel: 'naive (as above)',
		target: '< 2 s',
		ok: shpRead.ms < 2000,
	});
	const shpjs = JSON.parse(
		execFileSync(process.execPath, [path.join(__dirname, 'geofiles-shpjs.mjs')], {
			cwd: root,
			input: Buffer.from(zip),
			encoding: 'utf8',
		}),
	) as { ms: number; count: number };
	record({
		section,
		name: `zipped Shapefile: shpjs 6 on the same zip (${fmt(shpjs.count)} features)`,
		value: shpjs.ms / 1000,
		unit: 's',
		note: `Read File = ${fmt(shpRead.ms / shpjs.ms)}× shpjs`,
	});

	const m = JSON.parse(
		execFileSync(
			process.execPath,
			['--expose-gc', path.join(__dirname, 'run-ts.js'), path.join(__dirname, 'geofiles-child.ts')],
			{ cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
		)
			.trim()
			.split('\n')
			.pop()!,
	) as Record<string, number & { peak: number; retained: number }>;
	const mb = (b: number) => b / 1024 / 1024;
	for (const [label, heap, bytes] of [
		['KML', m.kml, m.kmlBytes],
		['zipped Shapefile', m.shapefile, m.zipBytes],
	] as const) {
		record({
			section,
			name: `${label}: heap at the end of the read (output held, before GC; file ${fmt(mb(bytes))} MB)`,
			value: mb(heap.peak),
			unit: 'MB',
			baseline: mb(m.naive.peak),
			baselineLabel: `naive: JSON.parse of the converted ${fmt(mb(m.geojsonBytes))} MB GeoJSON`,
			note: `retained after GC: ${fmt(mb(heap.retained))} MB (naive ${fmt(mb(m.naive.retained))} MB)`,
		});
	}
}
