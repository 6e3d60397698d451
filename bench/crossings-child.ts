/**
 * Run by bench/crossings.ts in a fresh process, one case per process so that the peak memory
 * (maxRSS) is that case's alone:
 *   BENCH_CASE=bounded|old|idle  BENCH_SHAPE=star|saw  BENCH_N=<vertices>
 * `bounded`: the whole pre-flight of one item (parse the GeoJSON text, validate: what Validate,
 * Register and Protected Area → Check run); `old`: the sweep as it was before issue 20 (every
 * crossing kept, no budget); `idle`: the same set-up, nothing run (the baseline of maxRSS).
 * Prints one JSON line: { ms (CPU time: user + system, which does not grow when other processes
 * share the cores), wallMs, maxRssMb, codes, crossings }.
 */
import { findCrossings } from '../nodes/shared/geometry/crossings';
import { checkItemGeometry } from '../nodes/shared/plots/geometrySource';
import { saw, star } from '../test/helpers/star';

const mode = process.env.BENCH_CASE ?? 'bounded';
const shape = process.env.BENCH_SHAPE ?? 'star';
const n = Number(process.env.BENCH_N ?? 100_000);
const ring = shape === 'saw' ? saw(n) : star(n);
const text = JSON.stringify({
	type: 'Feature',
	properties: {},
	geometry: { type: 'Polygon', coordinates: [ring] },
});
const started = performance.now();
const cpu = process.cpuUsage();
let codes: string[] = [];
let crossings = 0;
if (mode === 'bounded') {
	const checked = checkItemGeometry('geoJson', { geoJson: text });
	codes =
		checked.kind === 'read'
			? checked.validation.problems.map((p) => p.code)
			: [checked.failure.code];
} else if (mode === 'old') {
	crossings = findCrossings([[ring]]).length;
}
const wallMs = performance.now() - started;
const used = process.cpuUsage(cpu);
const ms = (used.user + used.system) / 1000;
const maxRssMb = process.resourceUsage().maxRSS / 1024;
console.log(JSON.stringify({ ms, wallMs, maxRssMb, codes, crossings }));
