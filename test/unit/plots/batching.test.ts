import type { RegistrationUnit } from '../../../nodes/shared/plots/batching';
import { planRegistrationRequests, plotsOfResponse } from '../../../nodes/shared/plots/batching';
import { runPool } from '../../../nodes/shared/runner';

const unit = (
	itemIndex: number,
	featureCount = 1,
	fields: RegistrationUnit['fields'] = {},
): RegistrationUnit => ({
	itemIndex,
	featureCount,
	fields,
});

describe('planRegistrationRequests', () => {
	it('packs 45 single-feature items without per-plot fields into 3 requests of 20, 20 and 5', () => {
		const plan = planRegistrationRequests(Array.from({ length: 45 }, (_, i) => unit(i)));
		expect(plan.map((r) => r.featureCount)).toEqual([20, 20, 5]);
		expect(plan.flatMap((r) => r.units)).toEqual(Array.from({ length: 45 }, (_, i) => i));
	});

	it('never puts more than 20 features in a request and never splits an item', () => {
		const units = [unit(0, 15), unit(1, 10), unit(2, 5), unit(3, 20), unit(4, 1)];
		const plan = planRegistrationRequests(units);
		for (const r of plan) expect(r.featureCount).toBeLessThanOrEqual(20);
		expect(plan.map((r) => r.units)).toEqual([[0, 2], [1, 4], [3]]);
	});

	it('shares a request only between items whose request-level fields are equal (key order does not matter)', () => {
		const units = [
			unit(0, 1, { commodity: 'cocoa', harvest_date: '2024-03-15' }),
			unit(1, 1, { commodity: 'coffee' }),
			unit(2, 1, { harvest_date: '2024-03-15', commodity: 'cocoa' }),
			unit(3, 1, { commodity: 'cocoa', additional_info: { a: '1', b: '2' } }),
			unit(4, 1, { commodity: 'cocoa', additional_info: { b: '2', a: '1' } }),
			unit(5, 1, { commodity: 'cocoa', additional_info: { a: '1', b: '3' } }),
		];
		const plan = planRegistrationRequests(units);
		expect(plan.map((r) => r.units)).toEqual([[0, 2], [1], [3, 4], [5]]);
		expect(plan[0].fields).toEqual({ commodity: 'cocoa', harvest_date: '2024-03-15' });
	});

	it('gives every item with its own plot name its own request, even when the names are equal', () => {
		const plan = planRegistrationRequests([
			unit(0, 1, { plot_name: 'A' }),
			unit(1, 1, { plot_name: 'A' }),
			unit(2),
			unit(3),
		]);
		expect(plan.map((r) => r.units)).toEqual([[0], [1], [2, 3]]);
	});

	it('rejects an item of more than 20 features or of none', () => {
		expect(() => planRegistrationRequests([unit(0, 21)])).toThrow(/Item 0 holds 21 features/);
		expect(() => planRegistrationRequests([unit(3, 0)])).toThrow(/Item 3 holds 0 features/);
	});
});

describe('plotsOfResponse', () => {
	it('reads a single plot object and a plots array alike', () => {
		expect(plotsOfResponse({ plot_id: '1' })).toEqual([{ plot_id: '1' }]);
		expect(plotsOfResponse({ plots: [{ plot_id: '1' }, { plot_id: '2' }] })).toEqual([
			{ plot_id: '1' },
			{ plot_id: '2' },
		]);
		expect(plotsOfResponse([{ plot_id: '3' }])).toEqual([{ plot_id: '3' }]);
		// An answer that is no plot is an error naming the endpoint, never an empty list.
		expect(() => plotsOfResponse('nope')).toThrow(/POST \/plots\/make_plot/);
	});
});

describe('runPool', () => {
	it('never runs more than the given number of tasks at once and keeps results in task order', async () => {
		let running = 0;
		let most = 0;
		const release: Array<() => void> = [];
		const pool = runPool([1, 2, 3, 4, 5], 2, async (n) => {
			running++;
			most = Math.max(most, running);
			await new Promise<void>((resolve) => release.push(resolve));
			running--;
			return n * 10;
		});
		while (release.length > 0 || running > 0) {
			await Promise.resolve();
			release.shift()?.();
			await new Promise((r) => setImmediate(r));
		}
		const { results } = await pool;
		expect(most).toBe(2);
		expect(results).toEqual([10, 20, 30, 40, 50].map((value) => ({ status: 'fulfilled', value })));
	});

	it('with stopOnError starts nothing after a failure; without it every task runs', async () => {
		const work = async (n: number) => {
			if (n === 2) throw new Error('boom');
			return n;
		};
		const stopped = await runPool([1, 2, 3, 4], 1, work, true);
		expect(stopped.results.map((r) => r.status)).toEqual([
			'fulfilled',
			'rejected',
			'skipped',
			'skipped',
		]);
		const all = await runPool([1, 2, 3, 4], 1, work, false);
		expect(all.results.map((r) => r.status)).toEqual([
			'fulfilled',
			'rejected',
			'fulfilled',
			'fulfilled',
		]);
	});
});
