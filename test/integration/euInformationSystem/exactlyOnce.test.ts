/**
 * Submit exactly once where a lookup could be fooled (issue 36), through n8n's engine against
 * the EU fake, checking in the fake's request log that no submission was sent where none may be:
 * the 100-result cap (PO-1 while PO-10 … PO-199 exist, filed before or not), letter case (a
 * standing case variant; one run with "PO-7" and "po-7"), lagging lookups (a lost answer found
 * in the look-again window or not; a quick rerun after a submission the lookups do not show
 * yet), a 429 on the submission (filed once), and one lookup of the common prefix for many
 * statements (a capped prefix splits). The waits of Submit run on an injected clock that also
 * moves the fake's lifecycle clock: no test waits real time for them.
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { resetSubmitMemory } from '../../../nodes/shared/dds/submitMemory';
import {
	LOOK_AGAIN_DELAYS_MS,
	THROTTLED_SUBMIT_TRIES,
	setSubmitTiming,
} from '../../../nodes/shared/dds/submitTiming';
import { resetEuRateLimit } from '../../../nodes/shared/transport/euRateLimit';
import { useFakeEu } from '../../helpers/fakeEu';
import { euStore, jsonOf, keyLeaks, runEu, sdParameters, squarePlot } from './helpers';

const parameters = {
	operation: 'submit',
	hsHeading: '1801',
	descriptionOfGoods: 'Cocoa beans',
	netWeight: '={{ $json.kg }}',
	pointArea: '2',
};
const row = (ref: string, lon = -5.5, over: IDataObject = {}): IDataObject => ({
	internal_reference: ref,
	country: 'CI',
	latitude: 6.812345,
	longitude: lon,
	kg: '1200',
	...over,
});

const eu = useFakeEu({ ratePerSecond: 0 });
const store = () => euStore(eu.fake.url, eu.fake.users[0]);
const submit = async (refs: string[], continueOnFail = false) =>
	await runEu({
		parameters,
		input: refs.map((r, i) => row(r, -5.5 - i * 0.01)),
		store: store(),
		continueOnFail,
	});
const sent = (operation: string, since = 0) =>
	eu.fake
		.requests()
		.slice(since)
		.filter((r) => r.operation === operation);
const lookupsOf = (since: number) => sent('getDdsByInternalReference', since).length;
const filed = (ref: string) =>
	eu.fake.statements().filter((s) => s.internalReferenceNumber === ref && s.kind === 'dds');
const errorText = (r: { error?: { message: string; description?: string } }) =>
	`${r.error?.message ?? ''} ${r.error?.description ?? ''}`;

/** Copies of a statement the fake holds, with other references (what another system filed). */
function cloneAs(refs: string[]): void {
	const all = eu.fake.statements();
	const model = all.find((s) => s.kind === 'dds')!;
	for (const ref of refs)
		all.push({ ...model, uuid: randomUUID(), internalReferenceNumber: ref, groups: [] });
}
const range = (prefix: string, from: number, to: number) =>
	Array.from({ length: to - from + 1 }, (_, i) => `${prefix}${from + i}`);

/** Submit's sleeps, recorded instead of waited; each moves the fake's lifecycle clock too. */
let waited: number[] = [];
let now = 0;
beforeEach(() => {
	resetEuRateLimit();
	resetSubmitMemory();
	eu.fake.faults.clear();
	eu.fake.setLookupLag({});
	waited = [];
	now = Date.now();
	setSubmitTiming({
		now: () => now,
		sleep: async (ms: number) => {
			waited.push(ms);
			now += ms;
			eu.fake.clock.advance(ms);
		},
	});
});
afterAll(() => setSubmitTiming());

beforeAll(async () => {
	// one statement filed by the node: the model of the clones
	const first = await submit(['MODEL-0001']);
	expect(first.error).toBeUndefined();
});

describe('the 100-result cap: a lookup proves "not filed" only when complete', () => {
	it('refuses PO-1 before sending while PO-10 … PO-199 exist (the EU lists 100 of them, none is PO-1)', async () => {
		cloneAs(range('PO-', 10, 199));
		const mark = eu.fake.requests().length;
		const result = await submit(['PO-1']);
		expect(result.error?.message).toMatch(
			/^Not sent: whether the statement "PO-1" \(item 0\) is already filed cannot be checked: the EU Information System lists at most 100 statements whose Internal Reference contains "PO-1", and at least that many do \("PO-10", "PO-11", "PO-12", …\)$/,
		);
		expect(result.error?.description).toMatch(/^Nothing was sent\./);
		expect(result.error?.description).toMatch(/fixed width \("PO-0001"/);
		expect(result.error?.description).toMatch(/TRACES/);
		expect(sent('submitDds', mark)).toHaveLength(0);
		expect(filed('PO-1')).toHaveLength(0);
	});

	it('refuses PB-1 when it WAS filed before but lies past the first 100: never a second one', async () => {
		cloneAs([...range('PB-', 10, 199), 'PB-1']);
		const mark = eu.fake.requests().length;
		const result = await submit(['PB-1']);
		expect(result.error?.message).toMatch(/^Not sent: whether the statement "PB-1" \(item 0\)/);
		expect(sent('submitDds', mark)).toHaveLength(0);
		expect(filed('PB-1')).toHaveLength(1);
	});

	it('a capped answer that shows the reference standing settles it: the statement is returned', async () => {
		cloneAs(['PC-1', ...range('PC-', 10, 199)]);
		const mark = eu.fake.requests().length;
		const result = await submit(['PC-1']);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([
			expect.objectContaining({ internalReferenceNumber: 'PC-1', filedBy: 'before this run' }),
		]);
		expect(sent('submitDds', mark)).toHaveLength(0);
	});
});

describe('letter case', () => {
	it('refuses CASE-7 before sending while "case-7" stands, naming both', async () => {
		cloneAs(['case-7']);
		const mark = eu.fake.requests().length;
		const result = await submit(['CASE-7']);
		expect(result.error?.message).toMatch(
			/^Not sent: the Internal Reference "CASE-7" \(item 0\) differs only in letter case from "case-7", a statement already filed \(UUID [0-9a-f-]+, status [A-Z]+/,
		);
		expect(result.error?.description).toMatch(
			/write its Internal Reference exactly as filed \("case-7"\)/,
		);
		expect(sent('submitDds', mark)).toHaveLength(0);
		expect(filed('CASE-7')).toHaveLength(0);
	});

	it('one run with rows "PO-7" and "po-7": refused in the pre-flight, naming both items and the field; nothing sent', async () => {
		const mark = eu.fake.requests().length;
		const result = await submit(['PO-7', 'OTHER-0007', 'po-7']);
		const text = errorText(result);
		expect(result.error?.message).toMatch(
			/^Statement "PO-7" \(item 0\), field "Internal Reference": it differs from "po-7" \(item 2\) only in letter case/,
		);
		expect(text).toMatch(
			/Statement "po-7" \(item 2\), field "Internal Reference": it differs from "PO-7" \(item 0\)/,
		);
		expect(text).toMatch(/^.*Nothing was sent to the EU Information System/m);
		expect(eu.fake.requests().length).toBe(mark);
	});

	it('with Continue On Fail the two are error items and the other statements are filed', async () => {
		const mark = eu.fake.requests().length;
		const result = await submit(['QO-7', 'QTHER-0007', 'qo-7'], true);
		const out = result.items.map((i) => i.json);
		expect(out[1]).toEqual(expect.objectContaining({ internalReferenceNumber: 'QTHER-0007' }));
		expect(String(out[0].error)).toMatch(/differs from "qo-7" \(item 2\) only in letter case/);
		expect(String(out[2].error)).toMatch(/differs from "QO-7" \(item 0\) only in letter case/);
		expect(sent('submitDds', mark)).toHaveLength(1);
		expect(filed('QO-7')).toHaveLength(0);
		expect(filed('qo-7')).toHaveLength(0);
	});
});

describe('lagging lookups (pack §12)', () => {
	it('a lost answer while the lookups lag: found inside the look-again window, sent once', async () => {
		eu.fake.setLookupLag({ lookups: 2 });
		eu.fake.faults.loseAnswers('submitDds', 1);
		const mark = eu.fake.requests().length;
		const result = await submit(['LAG-0001']);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([
			expect.objectContaining({
				internalReferenceNumber: 'LAG-0001',
				filedBy: 'this run, answer lost',
			}),
		]);
		// before sending 1, then 3 in the window (the first two left it out)
		expect(lookupsOf(mark)).toBe(4);
		expect(waited).toEqual(LOOK_AGAIN_DELAYS_MS.slice(1, 3));
		expect(sent('submitDds', mark)).toHaveLength(1);
		expect(filed('LAG-0001')).toHaveLength(1);
	});

	it('the same when the lookups lag by time (20 s on the lifecycle clock)', async () => {
		eu.fake.setLookupLag({ ms: 20_000 });
		eu.fake.faults.loseAnswers('submitDds', 1);
		const mark = eu.fake.requests().length;
		const result = await submit(['LAG-0002']);
		expect(jsonOf(result)).toEqual([expect.objectContaining({ filedBy: 'this run, answer lost' })]);
		expect(waited.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(20_000);
		expect(sent('submitDds', mark)).toHaveLength(1);
	});

	it('not found in the window: "not known" (never "running again is safe"), and a quick rerun sends nothing', async () => {
		eu.fake.setLookupLag({ lookups: 1000 });
		eu.fake.faults.loseAnswers('submitDds', 1);
		const mark = eu.fake.requests().length;
		const result = await submit(['LAG-0003']);
		expect(result.error?.message).toBe(
			'It is not known whether the statement "LAG-0003" (item 0) was filed: its submission got no answer, and the EU Information System did not list it in 5 lookups over 60 s',
		);
		const text = errorText(result);
		expect(text).toMatch(/Nothing was sent again\. The EU's lookups can lag/);
		expect(text).toMatch(/after \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
		expect(text).not.toMatch(/running (the workflow )?again is safe/i);
		expect(keyLeaks(result, eu.fake.users[0].key)).toEqual([]);
		expect(sent('submitDds', mark)).toHaveLength(1);
		// a quick rerun: remembered, looked up once more, refused
		const again = await submit(['LAG-0003']);
		expect(again.error?.message).toMatch(
			/^Not sent again: the statement "LAG-0003" \(item 0\) was sent by this n8n at .* UTC, its answer was lost, and it is not known yet whether it was filed$/,
		);
		expect(sent('submitDds', mark)).toHaveLength(1);
		expect(filed('LAG-0003')).toHaveLength(1);
		// once the lookups show it, a rerun outputs it
		eu.fake.setLookupLag({});
		const later = await submit(['LAG-0003']);
		expect(jsonOf(later)).toEqual([
			expect.objectContaining({ internalReferenceNumber: 'LAG-0003', filedBy: 'before this run' }),
		]);
		expect(sent('submitDds', mark)).toHaveLength(1);
	});

	it('a quick rerun after a successful submission the lookups do not show yet: ONE statement', async () => {
		eu.fake.setLookupLag({ lookups: 1000 });
		const mark = eu.fake.requests().length;
		const first = await submit(['LAG-0004']);
		expect(jsonOf(first)).toEqual([expect.objectContaining({ filedBy: 'this run' })]);
		const again = await submit(['LAG-0004']);
		expect(again.error).toBeUndefined();
		expect(jsonOf(again)).toEqual([
			expect.objectContaining({
				uuid: jsonOf(first)[0].uuid,
				status: 'SUBMITTED',
				filedBy: 'before this run',
				note: expect.stringMatching(/^Filed by this n8n at .* UTC .*Not sent again\./),
			}),
		]);
		expect(sent('submitDds', mark)).toHaveLength(1);
		expect(filed('LAG-0004')).toHaveLength(1);
	});

	it("after the memory's 30 minutes the reference is looked up again (and found, the lag over)", async () => {
		const first = await submit(['LAG-0005']);
		const mark = eu.fake.requests().length;
		now += 31 * 60_000;
		const again = await submit(['LAG-0005']);
		expect(jsonOf(again)).toEqual([
			expect.objectContaining({ uuid: jsonOf(first)[0].uuid, filedBy: 'before this run' }),
		]);
		expect(lookupsOf(mark)).toBe(1);
		expect(sent('submitDds', mark)).toHaveLength(0);
	});
});

describe('429 on the submission', () => {
	it('waits the Retry-After and goes again through the lookup: filed once', async () => {
		eu.fake.faults.failNext('submitDds', { status: 429, retryAfter: '3' });
		const mark = eu.fake.requests().length;
		const result = await submit(['THR-0001']);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([expect.objectContaining({ filedBy: 'this run' })]);
		expect(waited).toEqual([3000]);
		expect(
			eu.fake
				.requests()
				.slice(mark)
				.map((r) => `${r.operation} ${r.outcome}`),
		).toEqual([
			'getDdsByInternalReference accepted',
			'submitDds http-429',
			'getDdsByInternalReference accepted',
			'submitDds accepted',
		]);
		expect(filed('THR-0001')).toHaveLength(1);
	});

	it("refused every time: stops after THROTTLED_SUBMIT_TRIES (8) tries with the EU's refusal, nothing filed", async () => {
		expect(THROTTLED_SUBMIT_TRIES).toBe(8);
		eu.fake.faults.failNext('submitDds', { status: 429, count: 10 });
		const mark = eu.fake.requests().length;
		const result = await submit(['THR-0002']);
		expect(result.error?.message).toMatch(/limiting the number of calls \(HTTP 429\)/);
		expect(sent('submitDds', mark)).toHaveLength(8);
		expect(waited).toEqual(Array(7).fill(2000));
		expect(filed('THR-0002')).toHaveLength(0);
	});
});

describe('one lookup of the common prefix for many statements', () => {
	it('12 statements, one lookup, 12 submissions', async () => {
		const refs = range('BATCH-00', 10, 21);
		const mark = eu.fake.requests().length;
		const result = await submit(refs);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).map((j) => [j.internalReferenceNumber, j.filedBy])).toEqual(
			refs.map((r) => [r, 'this run']),
		);
		expect(lookupsOf(mark)).toBe(1);
		expect(sent('submitDds', mark)).toHaveLength(12);
		// a rerun: one lookup again, nothing sent (the memory answers first)
		resetSubmitMemory();
		const mark2 = eu.fake.requests().length;
		const again = await submit(refs);
		expect(jsonOf(again).every((j) => j.filedBy === 'before this run')).toBe(true);
		expect(lookupsOf(mark2)).toBe(1);
		expect(sent('submitDds', mark2)).toHaveLength(0);
	});

	it('a capped prefix splits into longer prefixes, then one lookup per reference', async () => {
		cloneAs(range('FB-0OLD-', 1, 100));
		const mark = eu.fake.requests().length;
		const result = await submit(['FB-01', 'FB-02', 'FB-03']);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).map((j) => j.filedBy)).toEqual(['this run', 'this run', 'this run']);
		expect(sent('getDdsByInternalReference', mark).length).toBe(4);
		expect(sent('submitDds', mark)).toHaveLength(3);
	});
});

describe('the Simplified Declaration shares the path', () => {
	const plot = (ref: string, x: number) => ({
		ref,
		producer: 'Ferme A',
		country: 'FR',
		geometry: squarePlot(x, 44.5, 0.002),
	});
	const submitSd = async (refs: string[]) =>
		await runEu({
			parameters: sdParameters(),
			input: refs.map((r, i) => plot(r, 2.5 + i * 0.01)),
			store: store(),
		});
	const declarations = (ref: string) =>
		eu.fake.statements().filter((s) => s.internalReferenceNumber === ref && s.kind === 'sd');

	it('several declarations: one lookup of the common prefix', async () => {
		const refs = ['SDP-0001', 'SDP-0002', 'SDP-0003'];
		const mark = eu.fake.requests().length;
		const result = await submitSd(refs);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).map((j) => j.filedBy)).toEqual(['this run', 'this run', 'this run']);
		expect(sent('getSdByInternalReference', mark)).toHaveLength(1);
		expect(sent('submitSd', mark)).toHaveLength(3);
	});

	it('"SDQ-7" and "sdq-7" in one run: refused before any request', async () => {
		const mark = eu.fake.requests().length;
		const result = await submitSd(['SDQ-7', 'sdq-7']);
		expect(result.error?.message).toMatch(
			/^Declaration "SDQ-7" \(item 0\), field "Internal Reference": it differs from "sdq-7" \(item 1\) only in letter case/,
		);
		expect(eu.fake.requests().length).toBe(mark);
	});

	it('a lost answer the lagging lookups do not show: "not known", and a quick rerun sends nothing', async () => {
		eu.fake.setLookupLag({ lookups: 1000 });
		eu.fake.faults.loseAnswers('submitSd', 1);
		const mark = eu.fake.requests().length;
		const result = await submitSd(['SDL-0001']);
		expect(result.error?.message).toBe(
			'It is not known whether the declaration "SDL-0001" (item 0) was filed: its submission got no answer, and the EU Information System did not list it in 5 lookups over 60 s',
		);
		const again = await submitSd(['SDL-0001']);
		expect(again.error?.message).toMatch(/^Not sent again: the declaration "SDL-0001" \(item 0\)/);
		expect(sent('submitSd', mark)).toHaveLength(1);
		expect(declarations('SDL-0001')).toHaveLength(1);
	});

	it('a quick rerun after a submission the lookups do not show yet: ONE declaration', async () => {
		eu.fake.setLookupLag({ lookups: 1000 });
		const mark = eu.fake.requests().length;
		const first = await submitSd(['SDL-0002']);
		const again = await submitSd(['SDL-0002']);
		expect(jsonOf(again)).toEqual([
			expect.objectContaining({ uuid: jsonOf(first)[0].uuid, filedBy: 'before this run' }),
		]);
		expect(sent('submitSd', mark)).toHaveLength(1);
		expect(declarations('SDL-0002')).toHaveLength(1);
	});
});
