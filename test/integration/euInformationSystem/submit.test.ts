/**
 * Due Diligence Statement → Submit through n8n's engine against the EU fake: rows of plots
 * become one statement per Internal Reference; a lost answer is recovered and a re-run files
 * nothing more (issue 29's acceptance); pre-flight refusals name the field and send nothing.
 */
import type { IDataObject } from 'n8n-workflow';

import { resetEuRateLimit } from '../../../nodes/shared/transport/euRateLimit';
import { useFakeEu } from '../../helpers/fakeEu';
import { euStore, jsonOf, keyLeaks, runEu } from './helpers';

const parameters = {
	operation: 'submit',
	hsHeading: '1801',
	descriptionOfGoods: 'Cocoa beans',
	netWeight: '={{ $json.kg }}',
	pointArea: '2',
};
const row = (ref: string, lon: number, over: IDataObject = {}): IDataObject => ({
	internal_reference: ref,
	country: 'CI',
	latitude: 6.812345,
	longitude: lon,
	kg: '1200',
	...over,
});

describe('Due Diligence Statement → Submit (EU fake)', () => {
	const eu = useFakeEu({ ratePerSecond: 0 });
	beforeEach(() => {
		resetEuRateLimit();
		eu.fake.faults.clear();
	});
	const store = () => euStore(eu.fake.url, eu.fake.users[0]);
	const filed = (ref: string) =>
		eu.fake.statements().filter((s) => s.internalReferenceNumber === ref);

	it('files one statement per Internal Reference, paired with all its rows', async () => {
		const result = await runEu({
			parameters,
			input: [
				row('SUB-A-001', -5.212345),
				row('SUB-B-001', -5.312345),
				row('SUB-A-001', -5.412345),
			],
			store: store(),
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).map((j) => [j.internalReferenceNumber, j.status, j.filedBy])).toEqual([
			['SUB-A-001', 'SUBMITTED', 'this run'],
			['SUB-B-001', 'SUBMITTED', 'this run'],
		]);
		expect(result.items[0].pairedItem).toEqual([{ item: 0 }, { item: 2 }]);
		expect(filed('SUB-A-001')).toHaveLength(1);
		expect(keyLeaks(result, eu.fake.users[0].key)).toEqual([]);
	});

	it('recovers a lost answer, and a re-run gives ONE statement on the fake', async () => {
		eu.fake.faults.loseAnswers('submitDds', 1);
		const first = await runEu({ parameters, input: [row('SUB-LOST-1', -5.5)], store: store() });
		expect(jsonOf(first)).toEqual([expect.objectContaining({ filedBy: 'this run, answer lost' })]);
		const again = await runEu({ parameters, input: [row('SUB-LOST-1', -5.5)], store: store() });
		expect(jsonOf(again)).toEqual([
			expect.objectContaining({ uuid: jsonOf(first)[0].uuid, filedBy: 'before this run' }),
		]);
		expect(filed('SUB-LOST-1')).toHaveLength(1);
	});

	it('refuses an HS heading that does not match the commodity, and a missing net weight for an import, before any request', async () => {
		const before = eu.fake.requests().length;
		const result = await runEu({
			parameters: { ...parameters, hsHeading: '={{ $json.hs }}' },
			input: [
				row('SUB-BAD-1', -5.6, { hs: '0901' }),
				row('SUB-BAD-2', -5.7, { hs: '1801', kg: '' }),
			],
			store: store(),
		});
		expect(result.error).toBeDefined();
		const text = `${result.error?.message} ${result.error?.description}`;
		expect(text).toMatch(/HS Heading/);
		expect(text).toMatch(/Net Weight/);
		expect(eu.fake.requests().length).toBe(before);
	});
});
