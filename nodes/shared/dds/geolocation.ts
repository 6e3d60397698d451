/**
 * A producer's geolocation as the EU Information System sends it back in a statement's content
 * (geometryGeojson: Base64 of the GeoJSON's UTF-8 text), decoded to the GeoJSON object within
 * limits decided BEFORE the text is parsed: the decoded text is measured first (how deep it
 * nests, how many arrays and objects it would become), without building anything, and only a
 * geolocation within the limits is parsed. Beyond a limit that producer's geolocation is null
 * with the reason, naming the limit; the rest of the statement is output. So the output can
 * always be copied and saved by n8n (no nesting that overflows a recursive walk) and one
 * hostile answer cannot fill the process's memory. Pure: no n8n imports.
 */

/**
 * Levels a decoded geolocation may nest. The deepest GeoJSON the EU accepts nests 10 levels
 * (FeatureCollection › features › Feature › GeometryCollection › geometries › MultiPolygon ›
 * coordinates › polygon › ring › position; a FeatureCollection of Points, Polygons and
 * MultiPolygons, the EU's usual shape, at most 8); 32 leaves room for nested properties,
 * and stays far below where a recursive copy or save of the output fails (thousands).
 */
export const MAX_GEOLOCATION_DEPTH = 32;

/**
 * Arrays and objects the geolocations of ONE statement may decode into, all its producers
 * together. A statement is at most 25 MB (the EU's limit per message): 18.75 MB of GeoJSON
 * once out of Base64, where a position at six decimals (`[-12.345678,1.234567],`, one array)
 * takes 22 bytes: at most about 850,000 positions. A million covers any statement the EU
 * can hold; decoded, a million arrays take about 70 MB, where a hostile 27 MB of `[],` would
 * have become 9 million (over 700 MB).
 */
export const MAX_GEOLOCATION_NODES = 1_000_000;

/** What is left of one statement's allowance of arrays and objects (MAX_GEOLOCATION_NODES). */
export interface GeolocationBudget {
	nodesLeft: number;
}

export function geolocationBudget(): GeolocationBudget {
	return { nodesLeft: MAX_GEOLOCATION_NODES };
}

export interface DecodedGeolocation {
	geometryGeojson: unknown;
	/** Why geometryGeojson is null. */
	geometryGeojsonProblem?: string;
}

type Measure =
	| { kind: 'ok'; nodes: number }
	| { kind: 'tooDeep' }
	| { kind: 'tooMany'; over: number };

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_OBJECT = 123;
const OPEN_ARRAY = 91;
const CLOSE_OBJECT = 125;
const CLOSE_ARRAY = 93;

/**
 * How deep the JSON text nests and how many arrays and objects it holds, stopping at the first
 * limit crossed; one pass over the characters, nothing built. (Invalid JSON may measure
 * anything: JSON.parse refuses it afterwards.)
 */
function measureJson(text: string, maxDepth: number, maxNodes: number): Measure {
	let depth = 0;
	let nodes = 0;
	let inString = false;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (inString) {
			if (c === BACKSLASH) i++;
			else if (c === QUOTE) inString = false;
		} else if (c === QUOTE) inString = true;
		else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
			if (++depth > maxDepth) return { kind: 'tooDeep' };
			if (++nodes > maxNodes) return { kind: 'tooMany', over: maxNodes };
		} else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
	}
	return { kind: 'ok', nodes };
}

const refused = (problem: string): DecodedGeolocation => ({
	geometryGeojson: null,
	geometryGeojsonProblem: problem,
});

const N = (n: number) => n.toLocaleString('en-US');

/**
 * A producer's geometryGeojson decoded to the GeoJSON object, or null with the reason: not
 * Base64, not UTF-8, not JSON, nesting deeper than MAX_GEOLOCATION_DEPTH, or more arrays and
 * objects than what is left of the statement's `budget` (which it then uses up).
 */
export function decodeGeolocation(base64: string, budget: GeolocationBudget): DecodedGeolocation {
	const compact = base64.replace(/\s+/g, '');
	if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 !== 0)
		return refused('the geolocation the service sent is not Base64');
	let text: string;
	try {
		text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(compact, 'base64'));
	} catch {
		return refused('the geolocation the service sent is not UTF-8 text');
	}
	const measure = measureJson(text, MAX_GEOLOCATION_DEPTH, budget.nodesLeft);
	if (measure.kind === 'tooDeep')
		return refused(
			`the geolocation the service sent nests more than ${MAX_GEOLOCATION_DEPTH} levels deep (a GeoJSON geolocation nests at most 10), so it is not output; see it in TRACES`,
		);
	if (measure.kind === 'tooMany')
		return refused(
			measure.over === MAX_GEOLOCATION_NODES
				? `the geolocation the service sent holds more than ${N(MAX_GEOLOCATION_NODES)} arrays and objects (more than a statement of 25 MB can carry), so it is not output; see it in TRACES`
				: `the geolocations of this statement together hold more than ${N(MAX_GEOLOCATION_NODES)} arrays and objects (more than a statement of 25 MB can carry): this producer's is not output; see it in TRACES`,
		);
	let geometryGeojson: unknown;
	try {
		geometryGeojson = JSON.parse(text) as unknown;
	} catch {
		return refused('the geolocation the service sent is not JSON');
	}
	budget.nodesLeft -= measure.nodes;
	return { geometryGeojson };
}
