/**
 * The files of the Read File benchmark, made in memory: a KML of N placemarks (polygons of
 * 12 vertices in 10 folders, with ExtendedData, as Google Earth saves them) and a zipped
 * Shapefile of N polygons in WGS 84 / UTM zone 22S with a 5-column Latin-1 table (as QGIS
 * writes it); and the same features as GeoJSON text, the naive way's input (the file
 * converted outside n8n first, then read as rows).
 */
import { zipSync } from 'fflate';
import proj4 from 'proj4';

const { writeDbf, writeShp } = require('../test/fixtures/geofiles/writers') as {
	writeShp: (shapes: unknown[], type: number) => { shp: Buffer; shx: Buffer };
	writeDbf: (fields: unknown[], rows: unknown[], encoding: string) => Buffer;
};

export const UTM22S =
	'PROJCS["WGS_1984_UTM_Zone_22S",GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["False_Easting",500000.0],PARAMETER["False_Northing",10000000.0],PARAMETER["Central_Meridian",-51.0],PARAMETER["Scale_Factor",0.9996],PARAMETER["Latitude_Of_Origin",0.0],UNIT["Meter",1.0]]';

type Ring = number[][];

/** N field boundaries of 12 vertices (about 20 ha each) on a grid in Mato Grosso, counter-clockwise. */
export function plotRings(n: number): Ring[] {
	const rings: Ring[] = [];
	for (let i = 0; i < n; i++) {
		const cx = -52.5 + (i % 100) * 0.01;
		const cy = -12.5 + Math.floor(i / 100) * 0.01;
		const ring: Ring = [];
		for (let k = 0; k < 12; k++) {
			const a = (2 * Math.PI * k) / 12;
			const r = 0.0022 * (1 + 0.15 * Math.sin(3 * a + i));
			ring.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
		}
		ring.push(ring[0]);
		rings.push(ring);
	}
	return rings;
}

const props = (i: number) => ({
	Name: `Talhão ${i + 1}`,
	owner: `Produtor ${i % 97} São João`,
	area_ha: 20 + (i % 13),
	planted: '2020-09-01',
	certified: i % 2 === 0,
});

export function kmlText(n: number): string {
	const rings = plotRings(n);
	const parts: string[] = [
		'<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>bench</name>',
	];
	for (let f = 0; f < 10; f++) {
		parts.push(`<Folder><name>Fazenda ${f + 1}</name>`);
		for (let i = (f * n) / 10; i < ((f + 1) * n) / 10; i++) {
			const p = props(i);
			parts.push(
				`<Placemark><name>${p.Name}</name><ExtendedData><Data name="owner"><value>${p.owner}</value></Data><Data name="area_ha"><value>${p.area_ha}</value></Data><Data name="planted"><value>${p.planted}</value></Data></ExtendedData><Polygon><outerBoundaryIs><LinearRing><coordinates>${rings[i].map((q) => `${q[0]},${q[1]},0`).join(' ')}</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>`,
			);
		}
		parts.push('</Folder>');
	}
	parts.push('</Document></kml>\n');
	return parts.join('\n');
}

export function shapefileZip(n: number): Uint8Array {
	const to = proj4('WGS84', UTM22S);
	const shapes = plotRings(n).map((r) => ({
		type: 'polygon',
		rings: [r.map((q) => to.forward([q[0], q[1]]))],
	}));
	const { shp, shx } = writeShp(shapes, 5);
	const dbf = writeDbf(
		[
			{ name: 'Name', type: 'C', length: 40 },
			{ name: 'owner', type: 'C', length: 40 },
			{ name: 'area_ha', type: 'N', length: 12, decimals: 2 },
			{ name: 'planted', type: 'D', length: 8 },
			{ name: 'certified', type: 'L', length: 1 },
		],
		Array.from({ length: n }, (_, i) => props(i)),
		'latin1',
	);
	return zipSync({
		'talhoes.shp': new Uint8Array(shp),
		'talhoes.shx': new Uint8Array(shx),
		'talhoes.dbf': new Uint8Array(dbf),
		'talhoes.prj': new TextEncoder().encode(UTM22S),
		'talhoes.cpg': new TextEncoder().encode('ISO-8859-1'),
	});
}

/** The same features as a GeoJSON FeatureCollection: what a user converting outside n8n would read. */
export function geoJsonText(n: number): string {
	return JSON.stringify({
		type: 'FeatureCollection',
		features: plotRings(n).map((r, i) => ({
			type: 'Feature',
			properties: props(i),
			geometry: { type: 'Polygon', coordinates: [r] },
		})),
	});
}
