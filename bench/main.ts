/**
 * `npm run bench` (see BENCHMARKS.md). Each section prints its figures with the ratio to the
 * naive way measured in the same run, and a MISSED line for every target not met.
 *
 *   BENCH_ONLY=registration,validation,growth,crossings,overlaps,waiting,trigger,footprint,readfile   (default: all)
 *   the summary ends as a Markdown table (the one in BENCHMARKS.md)
 */
import { startFakeService } from '../test/fake-service';
import { crossingsBench } from './crossings';
import { figures, fmt, markdownTable } from './lib';
import { footprintBench } from './footprint';
import { geofilesBench } from './geofiles';
import { growthBench } from './growth';
import { overlapsBench } from './overlaps';
import { registrationBench } from './registration';
import { triggerBench } from './trigger';
import { validationBench } from './validation';
import { waitingBench } from './waiting';

const SECTIONS = [
	'registration',
	'validation',
	'growth',
	'crossings',
	'overlaps',
	'waiting',
	'trigger',
	'footprint',
	'readfile',
] as const;

export async function main(): Promise<number> {
	const only = (process.env.BENCH_ONLY ?? '')
		.split(',')
		.map((s) => s.trim())
		.filter(Boolean);
	const wanted = (s: string) => only.length === 0 || only.includes(s);
	for (const s of only)
		if (!(SECTIONS as readonly string[]).includes(s))
			throw new Error(`BENCH_ONLY: unknown section '${s}' (use ${SECTIONS.join(', ')})`);
	const started = Date.now();
	if (wanted('registration')) await registrationBench();
	if (wanted('validation')) await validationBench();
	if (wanted('growth')) await growthBench();
	if (wanted('crossings')) await crossingsBench();
	if (wanted('overlaps')) await overlapsBench();
	if (wanted('footprint')) await footprintBench();
	if (wanted('readfile')) await geofilesBench();
	const fake = await startFakeService({ host: '127.0.0.1' });
	try {
		// sections on the fake clock, in this process
		if (wanted('waiting')) await waitingBench(fake);
		if (wanted('trigger')) await triggerBench(fake);
	} finally {
		await fake.close();
	}
	console.log(`\n## Summary (${((Date.now() - started) / 1000).toFixed(0)} s)`);
	console.log(markdownTable(figures));
	const missed = figures.filter((f) => f.ok === false);
	for (const f of missed)
		console.log(`MISSED: ${f.section} / ${f.name}: ${fmt(f.value)} ${f.unit} (target ${f.target})`);
	if (missed.length === 0) console.log('All targets met.');
	return 0;
}
