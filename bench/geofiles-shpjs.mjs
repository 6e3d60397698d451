// Run by bench/geofiles.ts: shpjs 6 (the maintained JavaScript Shapefile reader, ES modules
// only) reading the zip given on stdin; prints the median of 3 runs in ms and the feature count.
import shp from 'shpjs';

const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const zip = Buffer.concat(chunks);
const times = [];
let count = 0;
for (let i = 0; i < 3; i++) {
	const t0 = performance.now();
	const fc = await shp(zip);
	times.push(performance.now() - t0);
	count = fc.features.length;
}
times.sort((a, b) => a - b);
process.stdout.write(JSON.stringify({ ms: times[1], count }));
