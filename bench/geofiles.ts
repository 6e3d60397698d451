/**
 * Read File (issues 24 and 28): a 10,000-placemark KML and a 10,000-polygon zipped Shapefile
 *    (WGS 84 / UTM zone 22S, reprojected through proj4, Latin-1 table) read by
 *    `readGeoFile`, beside the naive way (the file converted to GeoJSON outside n8n, then
 *    read as rows: JSON.parse of the converted file, the conversion itself not counted), the
 *    libraries alone (for KML: the XML path before issue 28, @xmldom/xmldom + @tmcw/togeojson,
 *    whole and as libraries alone; the streaming tokenizer of xmlStream.ts alone; and the
 *    npm SAX parsers sax and htmlparser2 alone on the same text, when installed; shpjs 6 for
 *    the Shapefile, in its own process as it is ES modules only), and the heap each takes (a
 *    fresh --expose-gc process). Targets: KML < 0.5 s and < 60 MB of heap (issue 28);
 *    Shapefile < 2 s.
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

import { DOMParser } from '@xmldom/xmldom';
import { kml } from '@tmcw/togeojson';

import { readGeoFile } from '../nodes/shared/geoFiles';
import { XmlTokenizer } from '../nodes/shared/geoFiles/xmlStream';
import { readOldXml } from '../test/helpers/oldXmlPath';
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

	// the first read in a process also compiles the reader (V8's JIT): shown apart
	const cold = timed(() => readGeoFile(kmlBytes, 'bench.kml').features.length, 1);
	const kmlRead = timed(() => readGeoFile(kmlBytes, 'bench.kml').features.length);
	if (kmlRead.value !== n) throw new Error(`KML: ${kmlRead.value} features, expected ${n}`);
	record({
		section,
		name: `KML, ${fmt(n)} placemarks in 10 folders (${fmt(kmlBytes.length / 1e6)} MB), after a first read`,
		value: kmlRead.ms / 1000,
		unit: 's',
		baseline: naive.ms / 1000,
		baselineLabel: `naive: JSON.parse of the same features converted to GeoJSON outside n8n, ${fmt(geojson.length / 1e6)} MB`,
		target: '< 0.5 s',
		ok: kmlRead.ms < 500,
	});
	record({
		section,
		name: 'KML: the first read in the process (the reader not yet compiled by the JIT)',
		value: cold.ms / 1000,
		unit: 's',
	});
	const oldRead = timed(() => readOldXml(kmlBytes, 'bench.kml').features.length, 1);
	record({
		section,
		name: 'KML: the reader before issue 28 (xmldom + togeojson, the same folders and checks), 1 run',
		value: oldRead.ms / 1000,
		unit: 's',
		note: `Read File now = ${fmt(kmlRead.ms / oldRead.ms)}× it`,
	});
	const library = timed(() => {
		const doc = new DOMParser().parseFromString(new TextDecoder().decode(kmlBytes), 'text/xml');
		return kml(doc as never).features.length;
	}, 1);
	record({
		section,
		name: 'KML: those libraries alone (xmldom + togeojson kml(), no folders, no checks), 1 run',
		value: library.ms / 1000,
		unit: 's',
		note: `Read File now = ${fmt(kmlRead.ms / library.ms)}× the libraries alone`,
	});
	const text = new TextDecoder().decode(kmlBytes);
	const nothing = () => undefined;
	const tokens = timed(() => {
		let elements = 0;
		const t = new XmlTokenizer(
			{ open: () => elements++, close: nothing, text: nothing, cdata: nothing },
			200,
		);
		for (let at = 0; at < text.length; at += 1 << 20) t.write(text.slice(at, at + (1 << 20)));
		t.end();
		return elements;
	});
	record({
		section,
		name: 'KML: the streaming tokenizer alone (xmlStream.ts: every element, no tree, 1 MB chunks)',
		value: tokens.ms / 1000,
		unit: 's',
		note: `${fmt(tokens.value)} elements; the rest of Read File's ${fmt(kmlRead.ms / 1000)} s builds the features`,
	});
	for (const [label, run] of saxParsers(text)) {
		const parsed = timed(run);
		record({
			section,
			name: `KML: ${label} alone on the same text (every element, no tree)`,
			value: parsed.ms / 1000,
			unit: 's',
			note: `${fmt(parsed.value)} elements; ${fmt(parsed.ms / tokens.ms)}× the tokenizer`,
		});
	}

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
	for (const [label, heap, bytes, limit] of [
		['KML', m.kml, m.kmlBytes, 60],
		['zipped Shapefile', m.shapefile, m.zipBytes, undefined],
	] as const) {
		record({
			section,
			name: `${label}: heap at the end of the read (output held, before GC; file ${fmt(mb(bytes))} MB)`,
			value: mb(heap.peak),
			unit: 'MB',
			baseline: mb(m.naive.peak),
			baselineLabel: `naive: JSON.parse of the converted ${fmt(mb(m.geojsonBytes))} MB GeoJSON`,
			note: `retained after GC: ${fmt(mb(heap.retained))} MB (naive ${fmt(mb(m.naive.retained))} MB)`,
			...(limit === undefined ? {} : { target: `< ${limit} MB`, ok: mb(heap.peak) < limit }),
		});
	}
}

/**
 * The SAX parsers of the npm registry that node_modules holds (none is a dependency of this
 * package: they come with other tools), each counting the elements of `text`; a parser that
 * is not installed is left out.
 */
function saxParsers(text: string): Array<[string, () => number]> {
	const out: Array<[string, () => number]> = [];
	const load = (name: string): unknown => {
		try {
			return { module: require(name), version: require(`${name}/package.json`).version };
		} catch {
			return undefined;
		}
	};
	const sax = load('sax') as
		| { module: { parser(strict: boolean): SaxParser }; version: string }
		| undefined;
	if (sax)
		out.push([
			`sax ${sax.version} (strict)`,
			() => {
				let elements = 0;
				const p = sax.module.parser(true);
				p.onopentag = () => elements++;
				p.write(text).close();
				return elements;
			},
		]);
	const html = load('htmlparser2') as
		| { module: { Parser: new (h: object, o: object) => HtmlParser }; version: string }
		| undefined;
	if (html)
		out.push([
			`htmlparser2 ${html.version} (xmlMode; it does not check well-formedness)`,
			() => {
				let elements = 0;
				const p = new html.module.Parser({ onopentag: () => elements++ }, { xmlMode: true });
				p.write(text);
				p.end();
				return elements;
			},
		]);
	return out;
}

interface SaxParser {
	onopentag: () => void;
	write(text: string): { close(): void };
}
interface HtmlParser {
	write(text: string): void;
	end(): void;
}
