/**
 * Hostile KML/KMZ/GPX read in a child process with a 512 MB heap (test/helpers/boundedRead.ts),
 * as an attacker's attachment would be read inside n8n (issue 28): each ends in a refusal
 * naming the limit, or in a right answer, and never runs the process out of memory. The
 * jest timeout is the "within seconds"; nothing here measures time.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { zipSync } from 'fflate';

import { readInBoundedChild } from '../../helpers/boundedRead';

const dir = path.join(__dirname, '../../fixtures/geofiles');
const enc = (s: string) => new TextEncoder().encode(s);

/** A KMZ whose doc.kml is `head`, then `unit` repeated to about `bytes`, then `tail` (level 9). */
function inflatingKmz(head: string, unit: string, tail: string, bytes: number): Uint8Array {
	const buf = Buffer.alloc(bytes);
	let at = buf.write(head, 0);
	const body = Buffer.from(unit.repeat(Math.ceil(65536 / unit.length)));
	while (at + body.length + tail.length < bytes) at += body.copy(buf, at);
	at += buf.write(tail, at);
	return zipSync({ 'doc.kml': buf.subarray(0, at) }, { level: 9 });
}

const HEAD =
	'<?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark><name>p</name>';

describe('Read File: hostile XML files in a 512 MB child process', () => {
	it('a small KMZ whose doc.kml inflates to 249 MB of coordinates: refused naming the limit, the heap never near the cap', async () => {
		const kmz = inflatingKmz(
			`${HEAD}<LineString><coordinates>`,
			'-51.2,-12.5 ',
			'</coordinates></LineString></Placemark></Document></kml>',
			249_000_000,
		);
		expect(kmz.length).toBeLessThan(600_000);
		const result = await readInBoundedChild(kmz, 'bomb.kmz');
		expect(result.outcome).toBe('refused');
		expect(result.message).toMatch(
			/gives more than 2,500,000 coordinate positions .*per MB of Maximum File Size|unpack to more than|Maximum/,
		);
	}, 120_000);

	it('a small KMZ whose doc.kml inflates to 200 MB of one description: refused naming Maximum File Size', async () => {
		const kmz = inflatingKmz(
			`${HEAD}<description>`,
			'lorem ipsum ',
			'</description><Point><coordinates>1,2</coordinates></Point></Placemark></Document></kml>',
			200_000_000,
		);
		const result = await readInBoundedChild(kmz, 'text.kmz');
		expect(result.outcome).toBe('refused');
		expect(result.message).toMatch(
			/more than 50 MB of names, descriptions and attributes|unpack to more than/,
		);
	}, 120_000);

	it('a small KMZ whose doc.kml inflates to 200 MB of empty elements: refused, not built', async () => {
		const kmz = inflatingKmz(
			`${HEAD}<ExtendedData>`,
			'<a/>',
			'</ExtendedData></Placemark></Document></kml>',
			200_000_000,
		);
		const result = await readInBoundedChild(kmz, 'elements.kmz');
		expect(result.outcome).toBe('refused');
		expect(result.message).toMatch(/names, descriptions and attributes|unpack to more than/);
	}, 120_000);

	it('100,000 placemarks without geometry (Maximum Features): read, the warnings counted (not 100,000 distinct strings)', async () => {
		const body = '<Placemark><name>x</name></Placemark>'.repeat(99_999);
		const result = await readInBoundedChild(
			enc(`${HEAD}</Placemark>${body}</Document></kml>`),
			'many.kml',
			{},
			{ keep: 25 },
		);
		expect(result.outcome).toBe('read');
		expect(result.featureCount).toBe(100_000);
		expect(result.warnings).toContain(
			'100000 placemarks have no geometry that could be read (the first 20 are named in their warnings)',
		);
		const distinct = new Set(
			(result.features as Array<{ warnings: string[] }>).flatMap((f) => f.warnings),
		);
		expect(distinct.size).toBeLessThanOrEqual(23);
	}, 120_000);

	it('KML attribute names that are JavaScript object members: read, each an own property in the output', async () => {
		const bytes = new Uint8Array(fs.readFileSync(path.join(dir, 'kml-object-member-names.kml')));
		const result = await readInBoundedChild(bytes, 'members.kml');
		expect(result.outcome).toBe('read');
		const [simple, data] = result.features as Array<{ properties: Record<string, unknown> }>;
		expect(Object.getOwnPropertyDescriptor(simple.properties, '__proto__')?.value).toBe(3);
		expect(data.properties).toMatchObject({
			toString: 'dado toString',
			valueOf: 'dado valueOf',
			hasOwnProperty: 'dado hasOwnProperty',
			constructor: 'dado constructor',
		});
		expect(Object.getOwnPropertyDescriptor(data.properties, '__proto__')?.value).toBe(
			'dado __proto__',
		);
	}, 60_000);

	it.each([
		['hostile-entity-expansion.kml', /declares XML entities/],
		['hostile-external-entity.kml', /declares XML entities/],
	])(
		'%s: refused',
		async (file, message) => {
			const result = await readInBoundedChild(
				new Uint8Array(fs.readFileSync(path.join(dir, file))),
				file,
			);
			expect(result.outcome).toBe('refused');
			expect(result.message).toMatch(message);
		},
		60_000,
	);

	it('a KMZ of folders nested a million deep: refused as too deep', async () => {
		const kmz = zipSync(
			{
				'doc.kml': enc(
					`<kml xmlns="http://www.opengis.net/kml/2.2"><Document>${'<Folder>'.repeat(1_000_000)}${'</Folder>'.repeat(1_000_000)}</Document></kml>`,
				),
			},
			{ level: 9 },
		);
		const result = await readInBoundedChild(kmz, 'deep.kmz');
		expect(result.outcome).toBe('refused');
		expect(result.message).toMatch(/nests its XML elements more than 200 deep/);
	}, 60_000);
});
