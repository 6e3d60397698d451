/**
 * Read File bounded by the file, before the work (issue 28, item 1): each hostile file is
 * built here, small, and read through `readGeoFile` in a child process with a 512 MB heap
 * (test/helpers/boundedRead.ts), as an attachment would be read inside n8n. Each ends in a
 * clear refusal naming the limit, or in the right answer; the jest timeout is the "within
 * seconds" (nothing here measures time).
 */
import { deflateSync, inflateSync, zipSync } from 'fflate';

import { readInBoundedChild } from '../../helpers/boundedRead';
import { WGS84_PRJ, square, text, writeDbf, writeShp, writeZip } from '../../helpers/geoFileTests';

const ONE_POINT_KML =
	'<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><Point><coordinates>-51.2,-12.5</coordinates></Point></Placemark></kml>';

/**
 * Raw deflate of `prefix` then `byte` repeated, made long cheaply: a stretch of identical
 * bytes in the middle of a deflate block is made `extra` bytes longer, each of which encodes
 * four more 258-byte matches (1,032 bytes out per byte in). Returns the stream and the exact
 * size it inflates to (checked on small sizes below).
 */
function repeatedDeflate(prefix: Uint8Array, byte: number, extra: number) {
	const base = deflateSync(Buffer.concat([prefix, Buffer.alloc(1 << 20, byte)]), { level: 9 });
	let run = [0, 0];
	for (let i = 0; i < base.length; ) {
		let j = i;
		while (j < base.length && base[j] === base[i]) j++;
		if (j - i > run[1]) run = [i, j - i];
		i = j;
	}
	const middle = run[0] + (run[1] >> 1);
	const data = Buffer.concat([
		base.subarray(0, middle),
		Buffer.alloc(extra, base[run[0]]),
		base.subarray(middle),
	]);
	return { data, size: prefix.length + (1 << 20) + 1032 * extra };
}

it('the hostile deflate streams inflate to the size computed for them', () => {
	for (const [byte, extra] of [
		[0, 0],
		[0, 7],
		[0x20, 1000],
	]) {
		const { data, size } = repeatedDeflate(new Uint8Array([1, 2, 3]), byte, extra);
		const out = inflateSync(data);
		expect(out.length).toBe(size);
		expect(out.subarray(3).every((b) => b === byte)).toBe(true);
	}
});

describe('Read File attacks: zip structures checked against the file before they are trusted', () => {
	it('a 128-byte zip whose zip64 end record claims 4,294,967,295 entries: refused naming the count and the size', async () => {
		const b = Buffer.alloc(128);
		b.writeUInt32LE(0x04034b50, 0); // a local header's signature, as a zip starts
		// zip64 end of central directory record at 30 (56 bytes)
		b.writeUInt32LE(0x06064b50, 30);
		b.writeUInt32LE(44, 34);
		b.writeUInt16LE(45, 42);
		b.writeUInt16LE(45, 44);
		b.writeUInt32LE(0xffffffff, 54); // entries on this disk
		b.writeUInt32LE(0xffffffff, 62); // entries
		b.writeUInt32LE(0, 70); // directory size
		b.writeUInt32LE(30, 78); // directory offset
		// zip64 locator at 86 (20 bytes)
		b.writeUInt32LE(0x07064b50, 86);
		b.writeUInt32LE(30, 94);
		b.writeUInt32LE(1, 102);
		// end of central directory at 106 (22 bytes)
		b.writeUInt32LE(0x06054b50, 106);
		b.writeUInt16LE(0xffff, 114);
		b.writeUInt16LE(0xffff, 116);
		b.writeUInt32LE(0xffffffff, 118);
		b.writeUInt32LE(0xffffffff, 122);
		const result = await readInBoundedChild(b, 'tiny.zip');
		expect(result.outcome).toBe('refused');
		expect(result.message).toMatch(
			/"tiny\.zip" is damaged or crafted: its directory claims 4,294,967,295 entries, more than its 0 bytes of directory can hold \(at least 46 bytes each; the file is 128 bytes\)/,
		);
	});

	it('a KMZ whose doc.kml declares 100 bytes but inflates to a gigabyte (1 MB file): refused naming the entry, inflation stopped at its declared size', async () => {
		const bomb = repeatedDeflate(new Uint8Array(), 0, 1_000_000);
		expect(bomb.size).toBeGreaterThan(1e9);
		const kmz = writeZip([{ name: 'doc.kml', data: bomb.data, method: 8, size: 100 }]);
		expect(kmz.length).toBeLessThan(1.1e6);
		const result = await readInBoundedChild(kmz, 'liar.kmz');
		expect(result.outcome).toBe('refused');
		expect(result.message).toMatch(
			/"liar\.kmz" is damaged or crafted: the entry "doc\.kml" unpacks to more than the 100 bytes it declares: refused, nothing past that was read or unpacked/,
		);
	});

	it('the same, declaring 200 MB (under the limit): the stream stops at 200 MB, never at its gigabyte', async () => {
		const { data } = repeatedDeflate(new Uint8Array(), 0, 1_000_000);
		const kmz = writeZip([{ name: 'doc.kml', data, method: 8, size: 200e6 }]);
		const result = await readInBoundedChild(kmz, 'liar.kmz');
		expect(result.outcome).toBe('refused');
		expect(result.message).toMatch(/"doc\.kml" unpacks to more than the 200,000,000 bytes/);
	});

	it('a stored entry declaring 0 bytes: counted as inflated ones are, refused naming it (never copied whole)', async () => {
		const kml = text(ONE_POINT_KML + ' '.repeat(1_000_000));
		const kmz = writeZip([{ name: 'doc.kml', data: kml, method: 0, size: 0 }]);
		const result = await readInBoundedChild(kmz, 'stored.kmz');
		expect(result.outcome).toBe('refused');
		expect(result.message).toMatch(
			/the entry "doc\.kml" unpacks to more than the 0 bytes it declares/,
		);
	});

	it('an entry whose stated offset lies past the entries: refused before reading it', async () => {
		const zip = Buffer.from(zipSync({ 'doc.kml': text(ONE_POINT_KML) }));
		const cen = zip.indexOf(Buffer.from([0x50, 0x4b, 1, 2]));
		zip.writeUInt32LE(0x7fffffff, cen + 42);
		const result = await readInBoundedChild(zip, 'far.kmz');
		expect(result.outcome).toBe('refused');
		expect(result.message).toMatch(
			/the entry "doc\.kml" is stated at byte 2,147,483,647, past the entries' end/,
		);
	});

	it('a central directory stated past the end of the file: refused naming where', async () => {
		const zip = Buffer.from(zipSync({ 'doc.kml': text(ONE_POINT_KML) }));
		const end = zip.length - 22;
		zip.writeUInt32LE(0x40000000, end + 16);
		const result = await readInBoundedChild(zip, 'far.kmz');
		expect(result.outcome).toBe('refused');
		expect(result.message).toMatch(/its central directory is stated at bytes 1,073,741,824 to/);
	});
});

describe('Read File attacks: Shapefile zips', () => {
	it('16,000 empty Shapefile layers beside one point layer: read, each layer found through one index, warnings capped', async () => {
		const empty = writeShp([], 1).shp;
		const files: Record<string, Uint8Array> = {};
		for (let i = 0; i < 16_000; i++) files[`layer${String(i).padStart(5, '0')}.shp`] = empty;
		const point = writeShp([{ type: 'point', point: [-51.2, -12.5] }], 1);
		files['zz_point.shp'] = point.shp;
		files['zz_point.prj'] = text(WGS84_PRJ);
		const result = await readInBoundedChild(zipSync(files), 'many.zip');
		expect(result.outcome).toBe('read');
		expect(result.featureCount).toBe(1);
		expect(result.warnings).toHaveLength(101);
		expect(result.warnings?.[100]).toMatch(/^…and [\d,]+ more warning\(s\) not listed/);
		expect(result.outputBytes).toBeLessThan(50_000);
	}, 60_000);

	it('a ~250 KB zipped Shapefile with one point and a .dbf claiming 124 million rows: one row built', async () => {
		const point = writeShp([{ type: 'point', point: [-51.2, -12.5] }], 1);
		// No fields: a record is its deletion flag alone (1 byte), so 124 million rows take
		// 124 MB, and the header's count × record length fits the real size: only the shapes cap it.
		const header = Buffer.from(writeDbf([], [], 'latin1').subarray(0, 33));
		const extra = 119_000;
		const rows = (1 << 20) + 1032 * extra;
		expect(rows).toBeGreaterThan(123_000_000);
		header.writeUInt32LE(rows, 4);
		const dbf = repeatedDeflate(header, 0x20, extra);
		const zip = writeZip([
			{ name: 'sede.shp', data: point.shp, method: 0, size: point.shp.length },
			{ name: 'sede.shx', data: point.shx, method: 0, size: point.shx.length },
			{ name: 'sede.prj', data: text(WGS84_PRJ), method: 0, size: WGS84_PRJ.length },
			{ name: 'sede.dbf', data: dbf.data, method: 8, size: dbf.size },
		]);
		expect(zip.length).toBeLessThan(300_000);
		const result = await readInBoundedChild(zip, 'sede.zip');
		expect(result.outcome).toBe('read');
		expect(result.featureCount).toBe(1);
		expect(result.warnings?.join()).toMatch(/the \.dbf has [\d,]+ rows for 1 shapes/);
		expect(result.outputBytes).toBeLessThan(5_000);
	}, 60_000);

	it('one polygon record of 20,000 outer rings and 20,000 holes: each hole in its own square, read in seconds', async () => {
		const rings: number[][][] = [];
		for (let i = 0; i < 20_000; i++) {
			const x = -60 + (i % 200) * 0.01;
			const y = -10 + Math.floor(i / 200) * 0.01;
			rings.push(square(x, y, 0.008, true)); // outer: clockwise in a .shp
		}
		for (let i = 19_999; i >= 0; i--) {
			const x = -60 + (i % 200) * 0.01;
			const y = -10 + Math.floor(i / 200) * 0.01;
			rings.push(square(x + 0.002, y + 0.002, 0.002, false)); // hole: counter-clockwise
		}
		const points = rings.flat();
		const content = Buffer.alloc(44 + 4 * rings.length + 16 * points.length);
		content.writeInt32LE(5, 0);
		content.writeInt32LE(rings.length, 36);
		content.writeInt32LE(points.length, 40);
		let start = 0;
		rings.forEach((r, k) => {
			content.writeInt32LE(start, 44 + 4 * k);
			start += r.length;
		});
		points.forEach(([x, y], k) => {
			content.writeDoubleLE(x, 44 + 4 * rings.length + 16 * k);
			content.writeDoubleLE(y, 52 + 4 * rings.length + 16 * k);
		});
		const header = Buffer.alloc(100);
		header.writeInt32BE(9994, 0);
		header.writeInt32BE((100 + 8 + content.length) / 2, 24);
		header.writeInt32LE(1000, 28);
		header.writeInt32LE(5, 32);
		const recordHead = Buffer.alloc(8);
		recordHead.writeInt32BE(1, 0);
		recordHead.writeInt32BE(content.length / 2, 4);
		const shp = Buffer.concat([header, recordHead, content]);
		const zip = zipSync({ 'rings.shp': shp, 'rings.prj': text(WGS84_PRJ) });
		const result = await readInBoundedChild(zip, 'rings.zip', {}, { keep: 1 });
		expect(result.outcome).toBe('read');
		const geometry = (
			result.features?.[0] as { geometry: { type: string; coordinates: number[][][][] } }
		).geometry;
		expect(geometry.type).toBe('MultiPolygon');
		expect(geometry.coordinates).toHaveLength(20_000);
		// the hole lies inside its own outer ring (the same square of the grid); counted, then one assertion
		const misplaced = geometry.coordinates.filter((polygon) => {
			if (polygon.length !== 2) return true;
			const dx = polygon[1][0][0] - polygon[0][0][0];
			const dy = polygon[1][0][1] - polygon[0][0][1];
			return !(dx > 0 && dx < 0.008 && dy > 0 && dy < 0.008);
		});
		expect(misplaced).toEqual([]);
		// RFC 7946: outer counter-clockwise, hole clockwise
		const area2 = (r: number[][]) =>
			r.slice(0, -1).reduce((sum, p, k) => sum + p[0] * r[k + 1][1] - r[k + 1][0] * p[1], 0);
		expect(area2(geometry.coordinates[0][0])).toBeGreaterThan(0);
		expect(area2(geometry.coordinates[0][1])).toBeLessThan(0);
	}, 60_000);

	it('a .shp of a million null records (12 MB, zipped to kilobytes): refused at Maximum Features, before building them all', async () => {
		const records = 1_000_000;
		const shp = Buffer.alloc(100 + 12 * records);
		shp.writeInt32BE(9994, 0);
		shp.writeInt32BE(shp.length / 2, 24);
		shp.writeInt32LE(1000, 28);
		for (let i = 0; i < records; i++) {
			shp.writeInt32BE(i + 1, 100 + 12 * i);
			shp.writeInt32BE(2, 104 + 12 * i);
		}
		const result = await readInBoundedChild(zipSync({ 'nulls.shp': shp }), 'nulls.zip');
		expect(result.outcome).toBe('refused');
		expect(result.message).toMatch(
			/"nulls\.zip" holds more than 100000 features, over the 100000 one file may give \(Maximum Features\)/,
		);
	}, 60_000);

	it('a line of 300,000 positions packed into a small zip: refused at the positions budget (50,000 per MB of Maximum File Size)', async () => {
		const n = 300_000;
		const content = Buffer.alloc(48 + 16 * n);
		content.writeInt32LE(3, 0);
		content.writeInt32LE(1, 36);
		content.writeInt32LE(n, 40);
		content.writeInt32LE(0, 44);
		for (let k = 0; k < n; k++) {
			content.writeDoubleLE(-51 + (k % 2) * 1e-4, 48 + 16 * k);
			content.writeDoubleLE(-12, 56 + 16 * k);
		}
		const header = Buffer.alloc(100);
		header.writeInt32BE(9994, 0);
		header.writeInt32BE((108 + content.length) / 2, 24);
		header.writeInt32LE(1000, 28);
		header.writeInt32LE(3, 32);
		const recordHead = Buffer.alloc(8);
		recordHead.writeInt32BE(1, 0);
		recordHead.writeInt32BE(content.length / 2, 4);
		const zip = zipSync({
			'line.shp': Buffer.concat([header, recordHead, content]),
			'line.prj': text(WGS84_PRJ),
		});
		const result = await readInBoundedChild(zip, 'line.zip', { maxFileBytes: 1_000_000 });
		expect(result.outcome).toBe('refused');
		expect(result.message).toMatch(
			/"line\.zip" gives more than 50,000 coordinate positions, over what this node builds from one file \(50,000 per MB of Maximum File Size\)/,
		);
	}, 60_000);
});

describe('Read File attacks: GeoJSON', () => {
	it('200,000 members that are not features beside 2,000 points: one counted warning, output within twice the file', async () => {
		const points = Array.from(
			{ length: 2_000 },
			(_, i) =>
				`{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[${-51 + i * 1e-4},-12]}}`,
		);
		const file = text(
			`{"type":"FeatureCollection","features":[${[...Array(200_000).fill('0'), ...points].join(',')}]}`,
		);
		const result = await readInBoundedChild(file, 'skips.geojson');
		expect(result.outcome).toBe('read');
		expect(result.featureCount).toBe(2_000);
		expect(result.warnings).toEqual([
			'200,000 members were skipped as not GeoJSON features; the first: the file.features[0] is not a GeoJSON object and was skipped',
		]);
		expect(result.outputBytes).toBeLessThan(2 * file.length);
		// said once, on the first feature only
		const [first, second] = result.features as Array<{ warnings: string[] }>;
		expect(first.warnings).toEqual(result.warnings);
		expect(second.warnings).toEqual([]);
	}, 60_000);

	it('a LineString of 100,000 short positions under a 1 MB Maximum File Size: refused at the positions budget', async () => {
		const file = text(
			`{"type":"LineString","coordinates":[${Array(100_000).fill('[0,0]').join(',')}]}`,
		);
		const result = await readInBoundedChild(file, 'dense.geojson', { maxFileBytes: 1_000_000 });
		expect(result.outcome).toBe('refused');
		expect(result.message).toMatch(/"dense\.geojson" gives more than 50,000 coordinate positions/);
	}, 60_000);

	it('a million levels of nested lists (2 MB): skipped with a warning at 100 levels, no stack overflow', async () => {
		const levels = 1_000_000;
		const feature = '{"type":"Point","coordinates":[-51,-12]}';
		const file = text(`[${feature},${'['.repeat(levels)}${']'.repeat(levels)}]`);
		const result = await readInBoundedChild(file, 'deep.json');
		expect(result.outcome).toBe('read');
		expect(result.featureCount).toBe(1);
		expect(result.warnings?.join()).toMatch(
			/nests lists or collections more than 100 levels deep and was skipped/,
		);
	}, 60_000);
});
