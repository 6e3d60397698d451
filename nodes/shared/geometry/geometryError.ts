import type { Location } from './geoJsonTypes';

/**
 * Thrown by the parse functions when an input value cannot be turned into
 * GeoJSON features at all. `message` is user-facing: it says what is wrong and
 * what to do, and starts in lower case so that it can follow a prefix such as
 * `Item 3: ` (see `describeInputError`).
 */
export class GeometryInputError extends Error {
	readonly code: string;

	/** Index of the offending feature inside a FeatureCollection, when there is one. */
	readonly featureIndex?: number;

	/** Where inside the feature (polygon, ring, position), when known. */
	readonly where?: Location;

	constructor(code: string, message: string, featureIndex?: number, where?: Location) {
		super(message);
		this.name = 'GeometryInputError';
		this.code = code;
		if (featureIndex !== undefined) this.featureIndex = featureIndex;
		if (where !== undefined) this.where = where;
	}
}
