/**
 * A statement is filed with all its plots or not at all (issue 34): with Continue On Fail, a
 * plot row whose own pre-flight fails (its geometry cannot be read) refuses the WHOLE
 * statement it names by Internal Reference — every row of it an error item, nothing sent for
 * it — while the other statements are filed. The same for Submit (DDS and SD), Amend and
 * Update, in both Output modes; a failed row whose reference cannot be read may belong to any
 * statement of the run, so none is sent. Without Continue On Fail: one error, nothing sent. Asserted
 * at the EU fake: what it holds, and the plots of what it holds.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { FakeStatement } from '../../fake-eu/store';
import {
	ddsParameters,
	ddsPlotRow,
	jsonOf,
	keyLeaks,
	runEu,
	sdParameters,
	sdPlotRow,
	squarePlot,
	useEuFake,
} from './helpers';

const { eu, store, sent } = useEuFake();
const HOUR = 3_600_000;

async function run(parameters: INodeParameters, input: IDataObject[], continueOnFail = true) {
	return await runEu({ parameters, input, store: store(), continueOnFail });
}

const filed = (ref: string) =>
	eu.fake.statements().filter((s) => s.internalReferenceNumber === ref);

/** The plots a stored statement declares: the features of all its producers' geolocations. */
function plotsOf(s: FakeStatement): number {
	let plots = 0;
	for (const m of s.xml.matchAll(/<(?:\w+:)?geometryGeojson>([^<]*)</g)) {
		const geojson = JSON.parse(Buffer.from(m[1], 'base64').toString('utf8')) as {
			features: unknown[];
		};
		plots += geojson.features.length;
	}
	return plots;
}

/** A plot row whose geometry cannot be read (refused in its own pre-flight). */
const broken = (row: IDataObject): IDataObject => ({ ...row, geometry: 'not a geometry' });

/** DDS plot rows, one per reference, a plot each (distinct squares). */
const ddsRows = (refs: string[]) => refs.map((ref, n) => ddsPlotRow(ref, -5.3 + n * 0.01));
const sdRows = (refs: string[]) =>
	refs.map((ref, n) => ({ ...sdPlotRow(ref), geometry: squarePlot(2.5 + n * 0.01, 44.5) }));

/** The error items' texts by item (message and description), `null` for an item that is not one. */
const errorsOf = (result: Awaited<ReturnType<typeof run>>) =>
	jsonOf(result).map((j) => (j.error === undefined ? null : `${j.error} | ${j.description}`));

describe('Continue On Fail: a statement is filed with all its plots or not at all', () => {
	it('DDS Submit: row 2 of "PO-1" has a broken geometry → nothing filed for "PO-1", every row of it an error item; the other statements filed; a case variant held too', async () => {
		const sheet = ddsRows(['RF-PO-1', 'RF-PO-1', 'RF-PO-2', 'RF-PO-1', 'RF-PO-3', 'rf-po-3']);
		sheet[1] = broken(sheet[1]);
		sheet[5] = broken(sheet[5]);
		const result = await run(ddsParameters(), sheet);
		expect(result.error).toBeUndefined();
		// at the fake: nothing for RF-PO-1 (never a statement with 2 of its 3 plots), nor RF-PO-3
		expect(filed('RF-PO-1').map(plotsOf)).toEqual([]);
		expect(filed('RF-PO-3').map(plotsOf)).toEqual([]);
		expect(filed('rf-po-3')).toEqual([]);
		expect(filed('RF-PO-2').map(plotsOf)).toEqual([1]);
		expect(result.items.map((i) => i.pairedItem)).toEqual(
			[0, 1, 2, 3, 4, 5].map((item) => (item === 2 ? [{ item }] : { item })),
		);
		const errors = errorsOf(result);
		for (const at of [0, 3])
			expect(errors[at]).toMatch(
				/^Statement "RF-PO-1" \(items 0, 1, 3\): item 1 of it has problems \(Item 1: the value is not valid JSON.*\); a statement is filed with all its rows or not at all, so nothing was sent for it\. Fix item 1 and run again\. \| Nothing was sent for this statement\. Fix the input and run again\.$/,
			);
		// the failed row: its own problem, and the statement it held back
		expect(errors[1]).toMatch(/^Item 1: the value is not valid JSON/);
		expect(errors[1]).toContain(
			'Statement "RF-PO-1" (items 0, 1, 3) was not sent either: a statement is filed with all its rows or not at all. Fix this item and run again.',
		);
		expect(jsonOf(result)[2]).toEqual(
			expect.objectContaining({ internalReferenceNumber: 'RF-PO-2', filedBy: 'this run' }),
		);
		// a failed row whose reference differs only in letter case holds that statement too
		expect(errors[4]).toMatch(
			/^Statement "RF-PO-3" \(items 4, 5\): item 5 of it \(named "rf-po-3": the same reference but for letter case, which the EU's lookup does not tell apart\) has problems \(Item 5: /,
		);
		expect(errors[5]).toContain('Statement "RF-PO-3" (items 4, 5) was not sent either');
		expect(keyLeaks(result, eu.fake.users[0].key)).toEqual([]);
	});

	it('DDS Submit: a failed row whose Internal Reference cannot be read may belong to any statement of the run → nothing sent at all, every row saying which row to fix', async () => {
		const sheet = ddsRows(['RF-UN-1', 'RF-UN-2', 'RF-UN-1', 'unreadable']);
		sheet[3] = broken({ ...sheet[3], ref: { po: 3 } });
		const before = eu.fake.requests().length;
		const result = await run(ddsParameters(), sheet);
		expect(result.error).toBeUndefined();
		// unknown is never "not this statement": nothing at the fake, not even a lookup
		expect(eu.fake.requests().length).toBe(before);
		expect(filed('RF-UN-1')).toEqual([]);
		expect(filed('RF-UN-2')).toEqual([]);
		const errors = errorsOf(result);
		expect(errors[0]).toMatch(
			/^Statement "RF-UN-1" \(items 0, 2\): not sent, because item 3 of this run has problems and no readable Internal Reference, so it may belong to this statement; a statement is filed with all its rows or not at all\. Fix item 3 and run again\./,
		);
		expect(errors[2]).toBe(errors[0]);
		expect(errors[1]).toMatch(/^Statement "RF-UN-2" \(item 1\): not sent, because item 3 /);
		expect(errors[3]).toMatch(/^\d+ problems: Item 3, field "Internal Reference"/);
		expect(errors[3]).toContain(
			'Its Internal Reference cannot be read (it is an object, not text. Map a text value), so it is not known which statement it belongs to: a statement is filed with all its rows or not at all, so no statement of this run was sent. Fix this row and run again.',
		);
		expect(keyLeaks(result, eu.fake.users[0].key)).toEqual([]);
	});

	it('DDS Submit without Continue On Fail: unchanged, one error naming the row, nothing sent', async () => {
		const sheet = ddsRows(['RF-OFF-1', 'RF-OFF-1', 'RF-OFF-2']);
		sheet[1] = broken(sheet[1]);
		const before = eu.fake.requests().length;
		const result = await run(ddsParameters(), sheet, false);
		expect(result.error?.message).toMatch(/^Item 1: the value is not valid JSON/);
		expect(result.error?.description).toMatch(/^Nothing was sent to the service\./);
		expect(eu.fake.requests().length).toBe(before);
	});

	it('DDS Submit, Output "Input Rows with Statement Fields": every row of the held statement kept whole with its dds_error', async () => {
		const sheet: IDataObject[] = ddsRows(['RF-ROWS-1', 'RF-ROWS-1', 'RF-ROWS-2', 'RF-ROWS-1']).map(
			(r, n) => ({
				...r,
				plot_id: `P-${n}`,
			}),
		);
		sheet[1] = broken(sheet[1]);
		const result = await run(ddsParameters({ outputMode: 'inputRows' }), sheet);
		expect(result.error).toBeUndefined();
		expect(filed('RF-ROWS-1')).toEqual([]);
		expect(filed('RF-ROWS-2').map(plotsOf)).toEqual([1]);
		const rows = jsonOf(result);
		expect(result.items.map((i) => i.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
		for (const [n, row] of rows.entries()) {
			const own = Object.fromEntries(Object.entries(row).filter(([k]) => !k.startsWith('dds_')));
			expect(own).toEqual(sheet[n]);
		}
		expect(rows[2]).toMatchObject({ dds_status: 'SUBMITTED', dds_error: null });
		for (const at of [0, 3]) {
			expect(rows[at].dds_uuid).toBeNull();
			expect(rows[at].dds_error).toMatch(
				/^Statement "RF-ROWS-1" \(items 0, 1, 3\): item 1 of it has problems .*Fix item 1 and run again\. Nothing was sent for this statement\./,
			);
		}
		expect(rows[1].dds_uuid).toBeNull();
		expect(rows[1].dds_error).toMatch(/^Item 1: the value is not valid JSON/);
		expect(rows[1].dds_error).toContain(
			'Statement "RF-ROWS-1" (items 0, 1, 3) was not sent either',
		);
	});

	it('Simplified Declaration Submit: the same, nothing filed for the declaration of the failed row', async () => {
		const sheet: IDataObject[] = sdRows(['SD-RF-1', 'SD-RF-1', 'SD-RF-2', 'SD-RF-1']);
		sheet[1] = broken(sheet[1]);
		const result = await run(sdParameters(), sheet);
		expect(result.error).toBeUndefined();
		expect(filed('SD-RF-1')).toEqual([]);
		expect(filed('SD-RF-2').map(plotsOf)).toEqual([1]);
		const errors = errorsOf(result);
		for (const at of [0, 3])
			expect(errors[at]).toMatch(
				/^Declaration "SD-RF-1" \(items 0, 1, 3\): item 1 of it has problems \(Item 1: .*\); a declaration is filed with all its rows or not at all, so nothing was sent for it\. Fix item 1 and run again\. \| Nothing was sent for this declaration\./,
			);
		expect(errors[1]).toContain('Declaration "SD-RF-1" (items 0, 1, 3) was not sent either');
		expect(errors[2]).toBeNull();
	});

	it('DDS Amend: an amendment missing a plot is as wrong: nothing sent for it, the statement unchanged', async () => {
		const [first] = jsonOf(await run(ddsParameters(), ddsRows(['RF-AM-1', 'RF-AM-1']), false));
		expect(first.uuid).toEqual(expect.any(String));
		eu.fake.clock.advance(2 * 60_000);
		const amendments = sent('amendDds').length;
		const sheet = ddsRows(['RF-AM-1', 'RF-AM-1', 'RF-AM-1']);
		sheet[1] = broken(sheet[1]);
		const result = await run(
			ddsParameters({ operation: 'amend', uuid: String(first.uuid) }),
			sheet,
		);
		expect(result.error).toBeUndefined();
		expect(sent('amendDds').length).toBe(amendments);
		const [stored] = filed('RF-AM-1');
		expect([stored.version, plotsOf(stored)]).toEqual([1, 2]);
		const errors = errorsOf(result);
		for (const at of [0, 2])
			expect(errors[at]).toMatch(
				/^Statement "RF-AM-1" \(items 0, 1, 2\): item 1 of it has problems .*so nothing was sent for it\. Fix item 1 and run again\./,
			);
		expect(errors[1]).toMatch(/^Item 1: the value is not valid JSON/);
	});

	it('Simplified Declaration Update, Output "Input Rows with Statement Fields": nothing sent, each row kept with its sd_error', async () => {
		const filedRows = jsonOf(
			await run(sdParameters({ outputMode: 'inputRows' }), sdRows(['SD-RF-UP', 'SD-RF-UP']), false),
		);
		expect(filedRows[0].sd_uuid).toEqual(expect.any(String));
		eu.fake.clock.advance(HOUR);
		const updates = sent('updateSd').length;
		const sheet = [...filedRows, { ...filedRows[0], geometry: squarePlot(2.6, 44.5) }];
		sheet[1] = broken(sheet[1]);
		const result = await run(
			sdParameters({ operation: 'update', uuid: '={{ $json.sd_uuid }}', outputMode: 'inputRows' }),
			sheet,
		);
		expect(result.error).toBeUndefined();
		expect(sent('updateSd').length).toBe(updates);
		const [stored] = filed('SD-RF-UP');
		expect([stored.version, plotsOf(stored)]).toEqual([1, 2]);
		const rows = jsonOf(result);
		for (const at of [0, 2]) {
			// the row keeps the declaration fields it had (its UUID: the next Update can use it)
			expect(rows[at].sd_uuid).toBe(filedRows[0].sd_uuid);
			expect(rows[at].sd_error).toMatch(
				/^Declaration "SD-RF-UP" \(items 0, 1, 2\): item 1 of it has problems .*Fix item 1 and run again\./,
			);
		}
		expect(rows[1].sd_error).toMatch(/^Item 1: the value is not valid JSON/);
		expect(rows[1].sd_error).toContain(
			'Declaration "SD-RF-UP" (items 0, 1, 2) was not sent either',
		);
	});
});
