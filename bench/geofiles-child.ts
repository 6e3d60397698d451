/**
 * Run by bench/geofiles.ts in a fresh `node --expose-gc` process: the heap Read File takes to
 * read a 10,000-placemark KML and a 10,000-polygon zipped Shapefile (heap growth at the end of
 * the read, before any collection, and what its output keeps after a full GC), beside JSON.parse of the same features as
 * GeoJSON (the naive way's input).
 */
import { readGeoFile } from '../nodes/shared/geoFiles';
import { geoJsonText, kmlText, shapefileZip } from './geofiles-data';

const gc = (global as unknown as { gc?: () => void }).gc;

function heapOf(run: () => unknown): { peak: number; retained: number } {
	if (!gc) throw new Error('run with node --expose-gc');
	gc();
	gc();
	const before = process.memoryUsage().heapUsed;
	const kept = run();
	// the heap at the end of the read, its garbage not yet collected (a lower bound of the peak)
	const peak = process.memoryUsage().heapUsed;
	gc();
	const retained = process.memoryUsage().heapUsed - before;
	if (!kept) throw new Error('nothing read');
	return { peak: peak - before, retained };
}

const n = Number(process.env.BENCH_GEOFILES_N ?? 10_000);
const kml = new TextEncoder().encode(kmlText(n));
const zip = shapefileZip(n);
const geojson = geoJsonText(n);
const out = {
	n,
	kmlBytes: kml.length,
	zipBytes: zip.length,
	geojsonBytes: Buffer.byteLength(geojson),
	kml: heapOf(() => readGeoFile(kml, 'bench.kml').features),
	shapefile: heapOf(() => readGeoFile(zip, 'bench.zip').features),
	naive: heapOf(() => (JSON.parse(geojson) as { features: unknown[] }).features),
};
process.stdout.write(JSON.stringify(out));
