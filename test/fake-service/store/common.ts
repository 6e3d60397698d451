/** Helpers every resource of the fake's store uses: the timestamp format and request-body checks. */
import { COMMODITIES } from '../data';
import { GeometryError } from '../geo';
import { badRequest, HttpError, unknownProperty } from '../http-error';

/** Python-style isoformat without zone: 2026-03-01T12:00:00.123000 (fraction omitted when zero). */
export function fmtTs(ms: number): string {
	const iso = new Date(ms).toISOString();
	const frac = iso.slice(20, 23);
	return frac === '000' ? iso.slice(0, 19) : `${iso.slice(0, 19)}.${frac}000`;
}

export function isObj(v: unknown): v is Record<string, unknown> {
	return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function checkKeys(o: Record<string, unknown>, allowed: string[]): void {
	for (const k of Object.keys(o)) if (!allowed.includes(k)) throw unknownProperty(k);
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
export function checkDate(v: unknown, field: string): string | undefined {
	if (v === undefined || v === null || v === '') return undefined;
	if (typeof v !== 'string' || !DATE_RE.test(v) || Number.isNaN(Date.parse(v + 'T00:00:00Z')))
		throw badRequest(`Invalid ${field} '${String(v)}': expected a date as YYYY-MM-DD`);
	return v;
}

function invalidCommodity(v: unknown): HttpError {
	return badRequest(`Invalid commodity '${String(v)}'. Allowed types: ${COMMODITIES.join(', ')}`);
}
export function checkCommodity(v: unknown): string | undefined {
	if (v === undefined || v === null || v === '') return undefined;
	if (typeof v !== 'string' || !(COMMODITIES as readonly string[]).includes(v))
		throw invalidCommodity(v);
	return v;
}

/** A FeatureCollection's `crs` member: absent, null, CRS84 or EPSG:4326; anything else is invalid geometry. */
export function checkCrs(crs: unknown): void {
	if (crs === undefined || crs === null) return;
	const name = isObj(crs) && isObj(crs.properties) ? String(crs.properties.name ?? '') : '';
	if (!/CRS84$|EPSG:?:?4326$/i.test(name))
		throw new GeometryError(
			`Invalid Geometry in GeoJSON: unsupported crs '${name || JSON.stringify(crs)}'; coordinates must be WGS84 longitude/latitude`,
		);
}
