/**
 * What the feature checks of checkFeatures.ts and polygonChecks.ts share: how a check reports a
 * problem (`Add`), the Repair Geometry hint, and position comparison. Pure.
 */
import type { Location, Position, Problem } from './geoJsonTypes';

/** The hint for what Repair Geometry fixes. */
export const REPAIR = 'turn on "Repair Geometry"';

/** How a check reports a problem of the feature it checks. */
export type Add = (
	severity: Problem['severity'],
	code: string,
	message: string,
	where?: Location,
) => void;

export function round6(n: number): number {
	return Math.round(n * 1e6) / 1e6;
}

export function samePosition(a: Position, b: Position): boolean {
	if (a.length !== b.length) return false;
	for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
	return true;
}
