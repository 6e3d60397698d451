/**
 * A plan may refuse items together before anything is sent (the rows of a statement the EU's
 * rules refuse): the runner refuses them as it refuses items whose `prepare` found a problem —
 * one error listing every problem and nothing sent, or with Continue On Fail an error item
 * for each refused item while the other batches are sent.
 */
import type { IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Planned } from '../../../nodes/shared/runner';
import { runItems } from '../../../nodes/shared/runner';

const ctx = (continueOnFail: boolean) =>
	({
		getNode: () => ({ name: 'EU', type: 'x.euInformationSystem', parameters: {} }) as INode,
		continueOnFail: () => continueOnFail,
	}) as unknown as IExecuteFunctions;

const items = [0, 1, 2, 3].map((n) => ({ json: { n } }));
const words = {
	service: 'the EU Information System',
	skipped: 'the statements with problems',
	unit: 'statement',
};

/** Items 0 and 2 are one refused statement, 1 and 3 another (1 refused, 3 sent). */
function plan(sent: number[][]): (ready: Array<{ itemIndex: number }>) => Planned {
	return () => ({
		batches: [
			{
				items: [3],
				send: async () => {
					sent.push([3]);
					return [{ item: 3, json: { filed: 'PO-3' } }];
				},
			},
		],
		refused: [
			{ items: [0, 2], lines: ['Statement "PO-0" (items 0, 2), field "HS Heading": wrong.'] },
			{
				items: [1],
				lines: [
					'Statement "PO-1" (item 1), field "Net Weight": missing.',
					'Statement "PO-1" (item 1), field "Country": missing.',
				],
			},
		],
		words,
	});
}

describe('refusals of a plan go through the runner', () => {
	it('without Continue On Fail: one error listing every refused statement, nothing sent', async () => {
		const sent: number[][] = [];
		const error = await runItems(ctx(false), items, { plan: plan(sent) }).then(
			() => undefined,
			(e: unknown) => e,
		);
		expect(sent).toEqual([]);
		expect(error).toBeInstanceOf(NodeOperationError);
		const e = error as NodeOperationError;
		expect(e.message).toBe(
			'Statement "PO-0" (items 0, 2), field "HS Heading": wrong. (and 2 more problems in 2 statements)',
		);
		expect(e.description).toMatch(
			/^Nothing was sent to the EU Information System\. Fix these inputs \(or turn on "Continue On Fail" to skip the statements with problems\) and run again:\n/,
		);
		expect(e.description).toContain('field "Country": missing.');
		expect(e.context.itemIndex).toBe(0);
	});

	it('with Continue On Fail: an error item for every refused item, in input order, the others sent', async () => {
		const sent: number[][] = [];
		const out = await runItems(ctx(true), items, { plan: plan(sent) });
		expect(sent).toEqual([[3]]);
		expect(out.map((o) => o.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
		expect(out[0].json).toEqual({
			error: 'Statement "PO-0" (items 0, 2), field "HS Heading": wrong.',
			description: 'Nothing was sent for this statement. Fix the input and run again.',
		});
		expect(out[2].json).toEqual(out[0].json);
		expect(String(out[1].json.error)).toMatch(/^2 problems: .*Net Weight.*\| .*Country/);
		expect(out[3].json).toEqual({ filed: 'PO-3' });
	});

	it('a plan of batches alone (no refusals) is run as before', async () => {
		const out = await runItems(ctx(false), items.slice(0, 1), {
			plan: () => [{ items: [0], send: async () => [{ item: 0, json: { ok: true } }] }],
		});
		expect(out).toEqual([{ json: { ok: true }, pairedItem: { item: 0 } }]);
	});
});
