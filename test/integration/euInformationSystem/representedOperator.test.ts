/**
 * The Represented Operator through n8n's engine against the EU fake, in both node versions
 * (issue 35): a saved version 1 workflow keeps its "Represented Operator …" Statement Options
 * (the same parameter paths, filed as before); version 1.1 reads its "Represented Operator"
 * group, only for the representative role; a representative without it is refused before
 * anything is sent, naming the group. And the Simplified Declaration's Activity Type: Import in a
 * saved version 1 node (its default then), Domestic by default in version 1.1.
 */
import type { INodeParameters } from 'n8n-workflow';

import { resetEuRateLimit } from '../../../nodes/shared/transport/euRateLimit';
import { useFakeEu } from '../../helpers/fakeEu';
import {
	ddsParameters,
	ddsPlotRow,
	euStore,
	jsonOf,
	runEu,
	sdParameters,
	sdPlotRow,
} from './helpers';

const CLIENT = {
	representedName: 'Client Trading SA',
	representedEori: 'FR123456789000',
	representedStreet: '1 rue de la Paix',
	representedPostalCode: '75002',
	representedCity: 'Paris',
	representedCountry: 'FR',
};

describe('Represented Operator and the SD Activity Type, version 1 and 1.1 (EU fake)', () => {
	const eu = useFakeEu({ ratePerSecond: 0 });
	beforeEach(() => resetEuRateLimit());
	const store = () => euStore(eu.fake.url, eu.fake.users[0]);
	const stored = (ref: string) =>
		eu.fake.statements().filter((s) => s.internalReferenceNumber === ref);
	const submit = async (ref: string, typeVersion: number, over: INodeParameters) =>
		await runEu({
			parameters: ddsParameters(over),
			input: [ddsPlotRow(ref)],
			store: store(),
			typeVersion,
		});

	it('a saved version 1 workflow: the Statement Options of the represented operator are filed', async () => {
		const result = await submit('REP-V1-0001', 1, {
			operatorRole: 'REPRESENTATIVE_OPERATOR',
			statementOptions: { ...CLIENT, comment: 'Filed for a client' },
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)[0].status).toBe('SUBMITTED');
		const [filed] = stored('REP-V1-0001');
		expect(filed.role).toBe('REPRESENTATIVE_OPERATOR');
		expect(filed.xml).toMatch(/representedOperator/);
		expect(filed.xml).toMatch(/Client Trading SA/);
		expect(filed.xml).toMatch(/FR123456789000/);
		expect(filed.xml).toMatch(/Filed for a client/);
	});

	it('version 1.1: the Represented Operator group is filed, the Additional Fields beside it', async () => {
		const result = await submit('REP-V11-0001', 1.1, {
			operatorRole: 'REPRESENTATIVE_OPERATOR',
			representedOperator: { operator: CLIENT },
			statementOptions: { comment: 'Filed for a client' },
		});
		expect(result.error).toBeUndefined();
		const [filed] = stored('REP-V11-0001');
		expect(filed.role).toBe('REPRESENTATIVE_OPERATOR');
		expect(filed.xml).toMatch(/representedOperator/);
		expect(filed.xml).toMatch(/Client Trading SA/);
		expect(filed.xml).toMatch(/75002/);
		expect(filed.xml).toMatch(/Filed for a client/);
	});

	it('version 1.1: the group is not read for the Operator role', async () => {
		const result = await submit('REP-V11-0002', 1.1, {
			operatorRole: 'OPERATOR',
			representedOperator: { operator: CLIENT },
		});
		expect(result.error).toBeUndefined();
		const [filed] = stored('REP-V11-0002');
		expect(filed.role).toBe('OPERATOR');
		expect(filed.xml).not.toMatch(/representedOperator/);
		expect(filed.xml).not.toMatch(/Client Trading SA/);
	});

	it('version 1.1: a representative without the group is refused before anything is sent', async () => {
		const before = eu.fake.requests().length;
		const result = await submit('REP-V11-0003', 1.1, { operatorRole: 'REPRESENTATIVE_OPERATOR' });
		expect(result.error?.message).toMatch(/"Represented Operator"/);
		expect(eu.fake.requests().length).toBe(before);
		expect(stored('REP-V11-0003')).toEqual([]);
	});

	it('version 1.1: a character XML cannot carry in the group names its field', async () => {
		const result = await submit('REP-V11-0004', 1.1, {
			operatorRole: 'REPRESENTATIVE_OPERATOR',
			representedOperator: { operator: { ...CLIENT, representedCity: 'Pa\u0001ris' } },
		});
		expect(result.error?.message).toMatch(/"Represented Operator › City"/);
		expect(stored('REP-V11-0004')).toEqual([]);
	});

	it.each([
		[1, 'IMPORT'],
		[1.1, 'DOMESTIC'],
	])(
		'a Simplified Declaration without Activity Type set, version %s: %s',
		async (typeVersion, activity) => {
			const ref = `SDACT${String(typeVersion).replace('.', '')}`;
			const parameters = sdParameters({ hsHeading: '4407' });
			delete parameters.activityType;
			const result = await runEu({
				parameters,
				input: [sdPlotRow(ref)],
				store: store(),
				typeVersion,
			});
			expect(result.error).toBeUndefined();
			expect(stored(ref).map((s) => s.activityType)).toEqual([activity]);
		},
	);
});
