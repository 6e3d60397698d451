import { lostAnswerReason } from '../../../nodes/shared/transport/lostAnswer';
import { jobsMatchingBody } from '../../../nodes/shared/jobs/createJobOnce';
import type { CheckEntry, PaidChunk } from '../../../nodes/shared/protectedAreas/areaChecks';
import {
	paidBeforeFailure,
	tokensOfCheckAnswer,
} from '../../../nodes/shared/protectedAreas/areaChecks';

describe('the job a lost make_job may have created', () => {
	const body = { job_name: 'n8n 2026-03-01T12:00:00Z ab12cd', plot_ids: ['2', '1'], notes: 'q1' };

	it('same name and the same plots in any order; notes and info, where listed, agree', () => {
		const jobs = [
			{ job_id: '1', job_name: body.job_name, plot_ids: ['1', '2'], notes: 'q1' },
			{ job_id: '2', job_name: body.job_name, plot_ids: ['1'] },
			{ job_id: '3', job_name: 'other', plot_ids: ['1', '2'] },
			{ job_id: '4', job_name: body.job_name, plot_ids: ['1', '2'], notes: 'q2' },
			{ job_id: '5', job_name: body.job_name, plot_ids: ['2', '1'] },
		];
		expect(jobsMatchingBody(body, jobs).map((j) => j.job_id)).toEqual(['1', '5']);
		expect(
			jobsMatchingBody({ ...body, additional_info: { batch: 'A' } }, [
				{ job_name: body.job_name, plot_ids: ['1', '2'], additional_info: { batch: 'B' } },
			]),
		).toEqual([]);
	});
});

describe('why an answer may have been lost', () => {
	it.each([
		[{ networkCode: 'ECONNRESET' }, 'the connection broke after the request was sent (ECONNRESET)'],
		[
			{ networkCode: 'ETIMEDOUT' },
			'no answer came in time (ETIMEDOUT), although the request was sent',
		],
		[
			{ status: 504 },
			'a gateway answered 504 instead of the service, which may have carried the request out',
		],
		[{}, 'the connection broke after the request was sent'],
	])('%j', (failure, text) => {
		expect(lostAnswerReason(failure)).toBe(text);
	});
});

describe('paid protected-area results when a later request fails', () => {
	const plot = (itemIndex: number, plotId: string, indexInItem = 0): CheckEntry => ({
		itemIndex,
		kind: 'plot',
		plotId,
		indexInItem,
	});
	const all = [plot(0, 'a'), plot(1, 'b'), plot(2, 'c'), plot(2, 'd', 1)];
	const paid = (tokens?: number): PaidChunk => ({
		entries: all.slice(0, 3),
		outputs: all
			.slice(0, 3)
			.map((e) => ({ item: e.itemIndex, json: { plot_id: (e as { plotId: string }).plotId } })),
		tokens,
	});

	it('names what was checked and paid, what it cost, what is left, and keeps the rows', () => {
		const note = paidBeforeFailure([paid(3)], all);
		expect(note?.description).toBe(
			'Checked and paid for before the failure: items 0, 1, item 2 (1 of 2 plots and geometries) (3 plots and geometries; 3 tokens charged). Their results are attached to this error (context.checkedBeforeFailure); turn on "Continue On Fail" (Settings → On Error) to get them as output items instead. Run again only item 2 (1 of 2 plots and geometries), or the checks already made will be paid twice.',
		);
		expect(note?.context).toEqual({
			checkedBeforeFailure: [
				{ item: 0, json: { plot_id: 'a' } },
				{ item: 1, json: { plot_id: 'b' } },
				{ item: 2, json: { plot_id: 'c' } },
			],
			tokensChargedBeforeFailure: 3,
		});
	});

	it('says when the answers did not give their cost, and when the failing request may have been charged', () => {
		const note = paidBeforeFailure([paid(undefined)], all, {
			entries: all.slice(3),
			what: 'the connection broke after the request was sent (ECONNRESET)',
		});
		expect(note?.description).toContain('the answers did not say what they cost');
		expect(note?.description).toContain(
			'The failing request for item 2 (1 of 2 plots and geometries) may have been carried out and charged too (the connection broke after the request was sent (ECONNRESET)); its results cannot be looked up.',
		);
		expect(note?.context.tokensChargedBeforeFailure).toBeNull();
	});

	it('nothing paid and nothing possibly charged: nothing to add', () => {
		expect(paidBeforeFailure([], all)).toBeUndefined();
	});

	it('reads the tokens an answer says it charged, wherever it says it', () => {
		expect(tokensOfCheckAnswer({ metadata: { tokens_charged: 4 } })).toBe(4);
		expect(tokensOfCheckAnswer({ token_cost: '7' })).toBe(7);
		expect(tokensOfCheckAnswer({ metadata: { checked: 2 } })).toBeUndefined();
		expect(tokensOfCheckAnswer([])).toBeUndefined();
	});
});
