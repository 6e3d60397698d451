import type { GeometryInputError } from './geometryError';
import type { Problem, Repair } from './geoJsonTypes';

function where(itemIndex: number, featureIndex: number | undefined): string {
	return featureIndex === undefined || featureIndex < 0
		? `Item ${itemIndex}`
		: `Item ${itemIndex}, feature ${featureIndex}`;
}

/**
 * A problem as one line for the user, e.g.
 * `Item 3, feature 0: the polygon ring is not closed (first and last positions differ) ...`.
 * Warnings are marked `(warning)`. Problems about the whole input (featureIndex -1) name only the item.
 */
export function describeProblem(itemIndex: number, p: Problem): string {
	return `${where(itemIndex, p.featureIndex)}${p.severity === 'warning' ? ' (warning)' : ''}: ${p.message}`;
}

/** A repair as one line, e.g. `Item 3, feature 0: closed ring 0 of polygon`. */
export function describeRepair(itemIndex: number, r: Repair): string {
	return `${where(itemIndex, r.featureIndex)}: ${r.message}`;
}

/** A parse error as one line, e.g. `Item 2: the value is not valid JSON: ...`. */
export function describeInputError(itemIndex: number, error: GeometryInputError): string {
	return `${where(itemIndex, error.featureIndex)}: ${error.message}`;
}
