/**
 * The area of a plot given as a point, and the two 4 ha rules (pure; no n8n imports).
 *
 * - EUDR: a point may stand for a plot of up to 4 ha; a larger plot must be a polygon
 *   (`meets4haRule`: true up to 4 ha, false above, null without an area).
 * - The service: `point_ha` must be below 4.0 (service-interface.md), so a point of exactly
 *   4 ha meets EUDR (Export writes it) but Register would be refused.
 *
 * The area is read from, in this order: the mapped field (Point Area (Hectares) in Register and
 * Validate, Area of Points (Hectares) in Export), then the feature's own properties `point_ha` (the
 * service's name), `Area` (the EU Information System's), `area_ha` and `AREA` (common
 * spellings in supplier files). Plot → Validate, Register and Export read it here alone.
 */
import type { Reading } from '../input';
import { isObject } from '../values/answerValues';
import { showValue } from './shape';

/** EUDR: a point stands for a plot of at most this many hectares. */
export const EUDR_POINT_MAX_HA = 4;

/** The service takes `point_ha` only below this (service-interface.md: "float below 4.0"). */
export const SERVICE_POINT_HA_BELOW = 4;

/** Feature properties read as the area of a point, in order. */
const POINT_AREA_PROPERTIES = ['point_ha', 'Area', 'area_ha', 'AREA'] as const;

type PointAreaProperty = (typeof POINT_AREA_PROPERTIES)[number];

/** Where a point's area came from: the mapped field (by its label) or a feature property. */
export type PointAreaFrom =
	| { kind: 'field'; name: string }
	| { kind: 'property'; name: PointAreaProperty };

type PointAreaReading =
	| { kind: 'missing' }
	| { kind: 'invalid'; from: PointAreaFrom; reason: string }
	| { kind: 'value'; value: number; from: PointAreaFrom };

/**
 * How a message names where the area came from: `point_ha` for Point Area (Hectares) (Register sends
 * it as point_ha), the field's label in quotes for another field, `properties.Area` for a property.
 */
export function describeFrom(from: PointAreaFrom): string {
	if (from.kind === 'property') return `properties.${from.name}`;
	return from.name === 'Point Area (Hectares)' ? 'point_ha' : `"${from.name}"`;
}

/**
 * A point's area: the mapped field as the input layer read it once (`readHectares`; missing
 * means "not given") when given, else the first of the feature's POINT_AREA_PROPERTIES that is
 * present (a JSON number: text there would reach the service as text).
 */
export function readPointArea(
	properties: unknown,
	mapped: Reading<number> | undefined,
	fieldLabel = 'Point Area (Hectares)',
): PointAreaReading {
	const from: PointAreaFrom = { kind: 'field', name: fieldLabel };
	if (mapped?.kind === 'value') return { kind: 'value', value: mapped.value, from };
	if (mapped?.kind === 'invalid') return { kind: 'invalid', from, reason: mapped.reason };
	if (!isObject(properties)) return { kind: 'missing' };
	for (const name of POINT_AREA_PROPERTIES) {
		const own = properties[name];
		if (own === undefined || own === null) continue;
		const from: PointAreaFrom = { kind: 'property', name };
		if (typeof own === 'number' && Number.isFinite(own)) return { kind: 'value', value: own, from };
		const text =
			typeof own === 'string' ? ' It must be a JSON number, not text: remove the quotes.' : '';
		return { kind: 'invalid', from, reason: `${showValue(own)} is not a number.${text}` };
	}
	return { kind: 'missing' };
}

/** EUDR's 4 ha rule for one feature: polygons meet it; a point meets it up to 4 ha; null for a point without an area. */
export function meets4haRule(geometryType: string, pointHa: number | undefined): boolean | null {
	if (geometryType !== 'Point') return true;
	if (pointHa === undefined) return null;
	return pointHa <= EUDR_POINT_MAX_HA;
}
