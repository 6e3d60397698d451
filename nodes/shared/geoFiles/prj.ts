/**
 * A Shapefile layer's coordinate system from its `.prj` (ESRI or OGC WKT), turned into a
 * conversion to WGS84 longitude/latitude with proj4. Geographic systems on a datum that
 * agrees with WGS84 to well under a metre (WGS84, SIRGAS 2000, ETRS89, NAD83, GDA, ITRF…)
 * are read as they are; projected ones (UTM, SIRGAS 2000 / UTM, …) go through proj4. A
 * `.prj` proj4 cannot read, or in a projection outside SUPPORTED_PROJECTIONS, is refused
 * naming the system: never read as degrees.
 */
import proj4 from 'proj4';

import { SUPPORTED_PROJECTIONS } from './projectionNames';

import type { Position } from './geoFileTypes';
import { GeoFileError } from './geoFileTypes';

export interface LayerCrs {
	/** The system's name as the `.prj` gives it. */
	name: string;
	geographic: boolean;
	/** Source position → WGS84 [lon, lat]; undefined when no conversion is needed. */
	toWgs84?: (p: Position) => Position;
	warnings: string[];
}

/** Datums (and their ellipsoids) that coincide with WGS84 to well under a metre. */
const WGS84_LIKE =
	/wgs.?(19)?84|sirgas|etrs.?(19)?89|nad.?(19)?83|gda.?(94|2020)|itrf|grs.?(19)?80|rgf.?93|nzgd.?2000|pz.?90|cgcs.?2000|mgi.?2020|igs/i;

/** The first quoted name of a WKT text (`PROJCS["SIRGAS 2000 / UTM zone 22S", …` → that name). */
function wktName(wkt: string): string {
	return /^\s*[A-Za-z_]+\s*[[(]\s*"([^"]*)"/.exec(wkt)?.[1] ?? wkt.trim().slice(0, 80);
}

interface ProjLike {
	names?: string[];
	projName?: string;
	datumCode?: string;
	ellps?: string;
	datum_params?: unknown;
	datum?: { datum_type?: number };
	GEOGCS?: { DATUM?: { name?: string } };
	DATUM?: { name?: string };
}

export function layerCrs(prjText: string, layer: string): LayerCrs {
	const wkt = prjText.replace(/^\uFEFF/, '').trim();
	const name = wktName(wkt);
	const refuse = (why: string) =>
		new GeoFileError(
			`The .prj of layer "${layer}" names the coordinate system "${name}", which cannot be recognized (${why}): the layer is refused rather than read as degrees`,
			'Reproject the layer to WGS84 (EPSG:4326) in QGIS (Export → Save Features As…, CRS EPSG:4326) or ask the supplier for it, and send the zip again.',
		);
	let proj: ProjLike;
	try {
		proj = new proj4.Proj(wkt) as unknown as ProjLike;
	} catch (error) {
		throw refuse((error as Error)?.message || 'not a coordinate system proj4 can read');
	}
	if (!proj || typeof proj.projName !== 'string') throw refuse('no projection found');
	const names = Array.isArray(proj.names) ? proj.names : [];
	if (!SUPPORTED_PROJECTIONS.some((n) => names.includes(n)))
		throw refuse(`the projection "${proj.projName}" is not one this node converts from`);
	const warnings: string[] = [];
	const datumName = proj.GEOGCS?.DATUM?.name ?? proj.DATUM?.name ?? proj.datumCode ?? '';
	const wgs84Like =
		WGS84_LIKE.test(datumName) ||
		WGS84_LIKE.test(String(proj.datumCode ?? '')) ||
		(proj.datum?.datum_type === 4 && /^wgs84$/i.test(String(proj.datumCode ?? '')));
	const shifted = proj.datum_params !== undefined && proj.datum?.datum_type !== 5;
	if (!wgs84Like && !shifted) {
		warnings.push(
			`Layer "${layer}": the datum "${datumName || 'unnamed'}" of "${name}" has no stated shift to WGS84 (TOWGS84): coordinates were converted without a datum shift and may be off by up to about 100 m`,
		);
	}
	const geographic = proj.projName === 'longlat';
	if (geographic && (wgs84Like || !shifted)) return { name, geographic, warnings };
	let converter: proj4.Converter;
	try {
		converter = proj4(wkt, 'WGS84');
	} catch (error) {
		throw refuse((error as Error)?.message || 'proj4 cannot convert from it');
	}
	return {
		name,
		geographic,
		toWgs84: (p) => converter.forward([p[0], p[1]]),
		warnings,
	};
}
