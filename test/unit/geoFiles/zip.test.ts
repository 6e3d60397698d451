/**
 * The zip reader of Read File (nodes/shared/geoFiles/zip.ts): its own central-directory
 * reader checked against fflate's unzipSync on every fixture, and each structure checked
 * against the file's real size; the hostile cases in a child process are in attacks.test.ts.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { deflateSync, unzipSync, zipSync } from 'fflate';

import { readGeoFile } from '../../../nodes/shared/geoFiles';
import { readZip } from '../../../nodes/shared/geoFiles/zip';
import { refusal, text, writeZip } from '../../helpers/geoFileTests';

const dir = path.join(__dirname, '../../fixtures/geofiles');
const KML =
	'<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><name>Sede</name><Point><coordinates>-51.2,-12.5</coordinates></Point></Placemark></kml>';

const all = () => true;

describe('Read File zip reader: the same entries as fflate on every fixture', () => {
	const zips = fs
		.readdirSync(dir)
		// (the zip bomb's 300 MB are left to its own tests)
		.filter((n) => /\.(zip|kmz)$/.test(n) && !/truncated-zip|zip-bomb/.test(n));
	it.each(zips)('%s', (name) => {
		const bytes = new Uint8Array(fs.readFileSync(path.join(dir, name)));
		const theirs = unzipSync(bytes);
		const ours = readZip(bytes, name, all, 1e9);
		expect([...ours.files.keys()].sort()).toEqual(Object.keys(theirs).sort());
		for (const [entry, data] of ours.files)
			expect(Buffer.from(data).equals(Buffer.from(theirs[entry]))).toBe(true);
	});
	it('large entries (inflated in chunks) come out whole', () => {
		const big = new Uint8Array(3_000_000).map((_, i) => (i * 7919) % 251 & (i % 3 ? 255 : 7));
		const zip = zipSync({ 'a.bin': big, 'b.bin': new Uint8Array(2_000_000) });
		const read = readZip(zip, 'big.zip', all, 1e9);
		expect(Buffer.from(read.files.get('a.bin')!).equals(Buffer.from(big))).toBe(true);
		expect(read.files.get('b.bin')!.length).toBe(2_000_000);
	});
});

describe('Read File zip reader: kept behaviours', () => {
	it('an entry written with a data descriptor (zero sizes in its local header): the central directory sizes are used', () => {
		const data = deflateSync(text(KML));
		const zip = writeZip([
			{ name: 'doc.kml', data, method: 8, size: KML.length, flags: 8, localSizes: false },
		]);
		const file = readGeoFile(zip, 'descriptor.kmz');
		expect(file.format).toBe('kmz');
		expect(file.features[0].properties.name).toBe('Sede');
	});
	it('an encrypted entry: refused naming it', () => {
		const zip = writeZip([
			{ name: 'doc.kml', data: text(KML), method: 0, size: KML.length, flags: 1 },
		]);
		expect(refusal(() => readGeoFile(zip, 'secret.kmz')).message).toMatch(
			/"secret\.kmz" holds the encrypted \(password-protected\) entry "doc\.kml", which this node cannot read/,
		);
	});
	it('an entry in a compression method other than stored or deflate: cannot be opened, naming the method', () => {
		const zip = writeZip([{ name: 'doc.kml', data: text(KML), method: 12, size: KML.length }]);
		expect(refusal(() => readGeoFile(zip, 'bz.kmz')).message).toMatch(
			/cannot be opened: the entry "doc\.kml" uses the compression method 12/,
		);
	});
	it('folders and __MACOSX resource forks are not listed', () => {
		const zip = zipSync({
			'export/': new Uint8Array(),
			'__MACOSX/export/._doc.kml': new Uint8Array([0, 5, 22, 7]),
			'export/doc.kml': text(KML),
		});
		expect(readZip(zip, 'mac.kmz', all, 1e9).names).toEqual(['export/doc.kml']);
	});
	it('the declared sizes are summed against Maximum Uncompressed Size before anything is inflated', () => {
		// The second entry is not a deflate stream: were the first inflated before the check, it would fail there.
		const zip = writeZip([
			{ name: 'a.shp', data: deflateSync(new Uint8Array(10)), method: 8, size: 600 },
			{ name: 'b.shp', data: new Uint8Array([0xff, 0xff, 0xff]), method: 8, size: 600 },
		]);
		expect(refusal(() => readZip(zip, 'two.zip', all, 1000)).message).toMatch(
			/would unpack to more than 0 MB \("b\.shp" alone declares 0\.0 MB\): refused, nothing was unpacked past the limit/,
		);
	});
	it('an entry producing more than it declares (a small one, inflated in one call): refused naming it', () => {
		const zip = writeZip([{ name: 'doc.kml', data: deflateSync(text(KML)), method: 8, size: 20 }]);
		expect(refusal(() => readGeoFile(zip, 'liar.kmz')).message).toMatch(
			/"liar\.kmz" is damaged or crafted: the entry "doc\.kml" unpacks to more than the 20 bytes it declares/,
		);
	});
	it('an entry producing less than it declares: what it gives, for its reader to judge', () => {
		const zip = writeZip([{ name: 'a.txt', data: deflateSync(text('abc')), method: 8, size: 100 }]);
		expect(new TextDecoder().decode(readZip(zip, 'short.zip', all, 1e9).files.get('a.txt'))).toBe(
			'abc',
		);
	});
	it('a deflate stream cut short: cannot be opened, naming the entry', () => {
		const stream = deflateSync(new Uint8Array(100_000).map((_, i) => (i * 31) % 256));
		const zip = writeZip([
			{ name: 'a.shp', data: stream.subarray(0, stream.length >> 1), method: 8, size: 100_000 },
		]);
		expect(refusal(() => readZip(zip, 'cut.zip', all, 1e9)).message).toMatch(
			/The zip file "cut\.zip" cannot be opened: the entry "a\.shp": .*\(is it complete\?/,
		);
	});
});

describe('Read File zip reader: structures checked against the real size', () => {
	/** The zip with its end record moved to zip64 (record + locator + an end record of 0xFFFF fields). */
	function asZip64(zip: Buffer, entries = -1): Buffer {
		const end = zip.length - 22;
		const count = zip.readUInt16LE(end + 10);
		const size = zip.readUInt32LE(end + 12);
		const offset = zip.readUInt32LE(end + 16);
		const record = Buffer.alloc(56);
		record.writeUInt32LE(0x06064b50, 0);
		record.writeUInt32LE(44, 4);
		record.writeUInt32LE(entries < 0 ? count : entries, 24);
		record.writeUInt32LE(entries < 0 ? count : entries, 32);
		record.writeUInt32LE(size, 40);
		record.writeUInt32LE(offset, 48);
		const locator = Buffer.alloc(20);
		locator.writeUInt32LE(0x07064b50, 0);
		locator.writeUInt32LE(end, 8);
		locator.writeUInt32LE(1, 16);
		const last = Buffer.alloc(22);
		last.writeUInt32LE(0x06054b50, 0);
		last.writeUInt16LE(0xffff, 8);
		last.writeUInt16LE(0xffff, 10);
		last.writeUInt32LE(0xffffffff, 12);
		last.writeUInt32LE(0xffffffff, 16);
		return Buffer.concat([zip.subarray(0, end), record, locator, last]);
	}
	it('a zip64 end record that agrees with the file: read', () => {
		const zip = asZip64(Buffer.from(zipSync({ 'doc.kml': text(KML) })));
		expect(readGeoFile(zip, 'z64.kmz').features[0].properties.name).toBe('Sede');
	});
	it('a zip64 end record claiming more entries than its directory holds: refused naming both', () => {
		const zip = asZip64(Buffer.from(zipSync({ 'doc.kml': text(KML) })), 1_000_000);
		expect(refusal(() => readGeoFile(zip, 'z64.kmz')).message).toMatch(
			/its directory claims 1,000,000 entries, more than its \d+ bytes of directory can hold \(at least 46 bytes each/,
		);
	});
	it('a zip64 locator pointing outside the file: refused', () => {
		const zip = asZip64(Buffer.from(zipSync({ 'doc.kml': text(KML) })));
		zip.writeUInt32LE(0x7fffffff, zip.length - 42 + 8);
		expect(refusal(() => readGeoFile(zip, 'z64.kmz')).message).toMatch(
			/its zip64 locator points to a record at byte 2,147,483,647, outside its \d+ bytes/,
		);
	});
	it('the end record of a classic zip claiming more entries than its directory holds: refused', () => {
		const zip = Buffer.from(zipSync({ 'doc.kml': text(KML) }));
		zip.writeUInt16LE(60_000, zip.length - 22 + 10);
		expect(refusal(() => readGeoFile(zip, 'many.kmz')).message).toMatch(
			/its directory claims 60,000 entries, more than its \d+ bytes of directory can hold/,
		);
	});
	it('a directory stated where no directory entry is: cannot be opened, saying how many entries were found', () => {
		const zip = writeZip([
			{ name: 'a.kml', data: text(KML), method: 0, size: KML.length },
			{ name: 'b.kml', data: text(KML), method: 0, size: KML.length },
		]);
		const end = zip.length - 22;
		zip.writeUInt16LE(3, end + 10);
		zip.writeUInt32LE(zip.readUInt32LE(end + 12) + 46, end + 12); // a size that holds 3 …
		zip.writeUInt32LE(zip.readUInt32LE(end + 16) - 46, end + 16); // … ending where it ends
		expect(refusal(() => readZip(zip, 'three.zip', all, 1e9)).message).toMatch(
			/cannot be opened: its central directory ends after 0 of the 3 entries it states/,
		);
	});
	it('a zip split over several files: refused saying so', () => {
		const zip = Buffer.from(zipSync({ 'doc.kml': text(KML) }));
		zip.writeUInt16LE(2, zip.length - 22 + 4);
		expect(refusal(() => readGeoFile(zip, 'part.kmz')).message).toMatch(
			/one part of a zip split over several files/,
		);
	});
	it('a local header not where the directory says: cannot be opened', () => {
		const zip = Buffer.from(zipSync({ 'doc.kml': text(KML) }));
		zip.writeUInt32LE(0, 0);
		zip[0] = 0x50;
		zip[1] = 0x4b;
		zip[2] = 5;
		zip[3] = 6; // still a zip to the sniffing, no longer a local header
		expect(refusal(() => readGeoFile(zip, 'moved.kmz')).message).toMatch(
			/the entry "doc\.kml" is not where its directory says/,
		);
	});
	it('an entry whose data runs past the entries: cannot be opened (cut short)', () => {
		const zip = writeZip([{ name: 'doc.kml', data: text(KML), method: 0, size: KML.length }]);
		const cen = zip.indexOf(Buffer.from([0x50, 0x4b, 1, 2]));
		zip.writeUInt32LE(KML.length + 1000, cen + 20);
		zip.writeUInt32LE(KML.length + 1000, cen + 24);
		expect(refusal(() => readGeoFile(zip, 'long.kmz')).message).toMatch(
			/the entry "doc\.kml" is cut short/,
		);
	});
	it('no end record at all: cannot be opened (is it complete?)', () => {
		const zip = Buffer.from(zipSync({ 'doc.kml': text(KML) }));
		expect(refusal(() => readGeoFile(zip.subarray(0, zip.length - 30), 'cut.kmz')).message).toMatch(
			/"cut\.kmz" cannot be opened: its end-of-central-directory record is missing \(is it complete\?/,
		);
	});
});
