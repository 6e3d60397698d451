/**
 * How deep a JSON value nests, found without recursion (pure; no n8n imports).
 *
 * JSON.parse reads a value nested thousands of levels deep, but every recursive walk over it
 * afterwards (a copy, JSON.stringify, structuredClone, n8n's own deep copy) overflows the call
 * stack and ends the whole run ("Maximum call stack size exceeded"). Every value a user maps
 * into a geometry or plot field is therefore measured here first, and a value deeper than
 * `MAX_JSON_DEPTH` is that item's problem, named with where it is.
 */

/** Levels a mapped JSON value may nest (GeoJSON needs 8: collection, features, feature, geometry, coordinates, polygon, ring, position). */
export const MAX_JSON_DEPTH = 100;

interface Frame {
	node: unknown[] | Record<string, unknown>;
	keys: string[] | undefined;
	next: number;
}

/**
 * The path (keys and list indexes) to the first value nested more than `max` levels deep in
 * `value`, or undefined when it is no deeper (a number or text is level 0, `{}` or `[]` level 1).
 * Memory grows with the depth walked, at most `max` frames; time with the size of the value.
 */
export function pathDeeperThan(value: unknown, max = MAX_JSON_DEPTH): string[] | undefined {
	if (value === null || typeof value !== 'object') return undefined;
	const frames: Frame[] = [];
	const path: string[] = [];
	const enter = (node: object): boolean => {
		if (frames.length >= max) return false;
		const list = Array.isArray(node);
		frames.push({
			node: node as Frame['node'],
			keys: list ? undefined : Object.keys(node),
			next: 0,
		});
		return true;
	};
	if (!enter(value)) return [];
	while (frames.length > 0) {
		const top = frames[frames.length - 1];
		const size = top.keys ? top.keys.length : (top.node as unknown[]).length;
		if (top.next >= size) {
			frames.pop();
			path.pop();
			continue;
		}
		const index = top.next++;
		const key = top.keys ? top.keys[index] : String(index);
		const child = top.keys
			? (top.node as Record<string, unknown>)[key]
			: (top.node as unknown[])[index];
		if (child === null || typeof child !== 'object') continue;
		path.push(key);
		if (!enter(child)) return path;
	}
	return undefined;
}

/** A path as `crs.properties.a.a…` (lists as `[0]`), cut to its first `keep` steps. */
export function showPath(path: readonly string[], keep = 8): string {
	const steps = path
		.slice(0, keep)
		.map((k, i) =>
			/^\d+$/.test(k)
				? `[${k}]`
				: /^[A-Za-z_$][\w$]*$/.test(k)
					? `${i === 0 ? '' : '.'}${k}`
					: `[${JSON.stringify(k)}]`,
		)
		.join('');
	return path.length > keep ? `${steps}…` : steps;
}

/** The reason a value too deep is refused, naming where: "it nests more than 100 levels deep (at crs.a.a…). …". */
export function tooDeepReason(path: readonly string[], max = MAX_JSON_DEPTH): string {
	const at = path.length > 0 ? ` (at ${showPath(path)})` : '';
	return `it nests more than ${max} levels deep${at}, which no plot data needs. Remove or flatten the deeply nested value`;
}
