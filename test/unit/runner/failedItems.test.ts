/**
 * A batched operation's plan is told the items whose pre-flight failed (Continue On Fail), so
 * that it can refuse what must not go without them (a statement is filed with all its rows or
 * not at all) and add a note to their error items; without Continue On Fail nothing is
 * planned (one error, as before); per-item operations are run as before.
 */
import type { IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Failed, Problems, Ready } from '../../../nodes/shared/runner';
import { runItems } from '../../../nodes/shared/runner';

const ctx = (continueOnFail: boolean) =>
	({
		getNode: () => ({ name: 'EU', type: 'x.euInformationSystem', parameters: {} }) as INode,
		continueOnFail: () => continueOnFail,
	}) as unknown as IExecuteFunctions;

/** Rows of statements: item 1 of "PO-1" (items 0, 1, 2) cannot be read; "PO-2" (item 3) can. */
const items = ['PO-1', 'PO-1', 'PO-1', 'PO-2'].map((ref, n) => ({ json: { ref, n } }));
const prepare = (i: number, problems: Problems) => {
	if (i === 1) problems.field('Geometry', 'it cannot be read.');
	return items[i].json.ref;
};

describe('the items whose pre-flight failed go to the plan', () => {
	it('with Continue On Fail: the plan gets their indexes and problems, refuses what needs them, and notes why on their error items', async () => {
		const told: Array<{ ready: number[]; failed: Failed[] }> = [];
		const sent: string[] = [];
		const out = await runItems(ctx(true), items, {
			prepare,
			plan: (ready: Array<Ready<string>>, failed: Failed[]) => {
				told.push({ ready: ready.map((r) => r.itemIndex), failed });
				const held = new Set(failed.map((f) => items[f.itemIndex].json.ref));
				const go = ready.filter((r) => !held.has(r.value));
				return {
					batches: go.map((r) => ({
						items: [r.itemIndex],
						send: async () => {
							sent.push(r.value);
							return [{ item: r.itemIndex, json: { filed: r.value } }];
						},
					})),
					refused: [
						{ items: [0, 2], lines: ['Statement "PO-1" (items 0, 1, 2): item 1 has problems.'] },
					],
					notes: [{ item: 1, lines: ['Statement "PO-1" was not sent either.'] }],
				};
			},
		});
		expect(told).toEqual([
			{
				ready: [0, 2, 3],
				failed: [{ itemIndex: 1, lines: ['Item 1, field "Geometry": it cannot be read.'] }],
			},
		]);
		expect(sent).toEqual(['PO-2']);
		expect(out.map((o) => o.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
		expect(out[0].json).toEqual({
			error: 'Statement "PO-1" (items 0, 1, 2): item 1 has problems.',
			description: 'Nothing was sent for this item. Fix the input and run again.',
		});
		expect(out[2].json).toEqual(out[0].json);
		expect(out[1].json).toEqual({
			error: 'Item 1, field "Geometry": it cannot be read.',
			description: 'Nothing was sent for this item. Statement "PO-1" was not sent either.',
		});
		expect(out[3].json).toEqual({ filed: 'PO-2' });
	});

	it('without Continue On Fail: one error, nothing planned nor sent (unchanged)', async () => {
		let planned = false;
		const error = await runItems(ctx(false), items, {
			prepare,
			plan: () => {
				planned = true;
				return [];
			},
		}).then(
			() => undefined,
			(e: unknown) => e,
		);
		expect(planned).toBe(false);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as NodeOperationError).message).toBe(
			'Item 1, field "Geometry": it cannot be read.',
		);
	});

	it('a plan that ignores them (and notes nothing): the failed item keeps its own error item', async () => {
		const out = await runItems(ctx(true), items.slice(0, 2), {
			prepare,
			plan: (ready: Array<Ready<string>>) =>
				ready.map((r) => ({
					items: [r.itemIndex],
					send: async () => [{ item: r.itemIndex, json: { ok: r.itemIndex } }],
				})),
		});
		expect(out.map((o) => o.json)).toEqual([
			{ ok: 0 },
			{
				error: 'Item 1, field "Geometry": it cannot be read.',
				description: 'Nothing was sent for this item. Fix the input and run again.',
			},
		]);
	});

	it('per-item operations: unchanged (the failed item an error item, the others run)', async () => {
		const out = await runItems(ctx(true), items.slice(0, 3), {
			prepare,
			run: async (i) => ({ ran: i }),
		});
		expect(out.map((o) => o.json)).toEqual([
			{ ran: 0 },
			{
				error: 'Item 1, field "Geometry": it cannot be read.',
				description: 'Nothing was sent for this item. Fix the input and run again.',
			},
			{ ran: 2 },
		]);
	});
});
