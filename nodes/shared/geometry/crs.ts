import { isObject } from '../values/answerValues';
import { showValue } from './shape';

const WGS84_NAMES = [
	/^epsg:+4326$/,
	/^urn:ogc:def:crs:epsg:[\d.]*:4326$/,
	/^urn:ogc:def:crs:ogc:[\d.]*:crs84$/,
	/^(ogc:)?crs:?84$/,
	/^wgs ?84$/,
	/^https?:\/\/www\.opengis\.net\/def\/crs\/ogc\/[\d.]+\/crs84$/,
	/^https?:\/\/www\.opengis\.net\/def\/crs\/epsg\/[\d.]+\/4326$/,
	/^4326$/,
];

/** The text a `crs` member names: `{type: 'name', properties: {name}}`, the old `{type: 'EPSG', properties: {code}}`, or a plain string. */
export function crsName(crs: unknown): string | undefined {
	if (typeof crs === 'string' || typeof crs === 'number') return String(crs);
	if (!isObject(crs) || !isObject(crs.properties)) return undefined;
	const { name, code, href } = crs.properties;
	if (typeof name === 'string') return name;
	if (typeof code === 'string' || typeof code === 'number') return `EPSG:${code}`;
	if (typeof href === 'string') return href;
	return undefined;
}

/** True when a `crs` member is absent, null or names WGS84 (EPSG:4326 or OGC CRS84). */
export function isWgs84Crs(crs: unknown): boolean {
	if (crs === undefined || crs === null) return true;
	const name = crsName(crs);
	if (name === undefined) return false;
	const text = name.trim().toLowerCase();
	return WGS84_NAMES.some((pattern) => pattern.test(text));
}

export function crsMessage(crs: unknown, where: string): string {
	const name = crsName(crs);
	const shown = name === undefined ? showValue(crs) : `"${name}"`;
	return (
		`${where} declares the coordinate reference system ${shown} (crs member); the service only takes ` +
		'WGS84 longitude/latitude degrees (EPSG:4326 / CRS84). Reproject the data to WGS84 and remove the crs member.'
	);
}
