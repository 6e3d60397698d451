/**
 * The simplified output names what the panel calls "Internal Reference" `internalReference`
 * and the EU's last update `updatedAt`; the names before (`internalReferenceNumber`, `date`)
 * stay, last, so that saved workflows' expressions keep working (docs/notes/i35-cred.md).
 * Through n8n's engine against the EU fake: Submit (no update time yet: null under both
 * names), then Get once the statement is AVAILABLE.
 */
import { resetEuRateLimit } from '../../../nodes/shared/transport/euRateLimit';
import { useFakeEu } from '../../helpers/fakeEu';
import { euStore, jsonOf, runEu } from './helpers';

describe('output names of the EU Information System node (EU fake)', () => {
	const eu = useFakeEu({ ratePerSecond: 0, availableAfterMs: 60_000 });
	beforeEach(() => resetEuRateLimit());
	const store = () => euStore(eu.fake.url, eu.fake.users[0]);

	it('Submit, then Get: internalReference and updatedAt, with internalReferenceNumber and date kept last', async () => {
		const submitted = await runEu({
			parameters: {
				operation: 'submit',
				hsHeading: '1801',
				descriptionOfGoods: 'Cocoa beans',
				netWeight: '1200',
				pointArea: '2',
			},
			input: [
				{ internal_reference: 'NAMES-0001', country: 'CI', latitude: 6.81, longitude: -5.21 },
			],
			store: store(),
		});
		expect(submitted.error).toBeUndefined();
		const [filed] = jsonOf(submitted);
		expect(filed).toMatchObject({
			internalReference: 'NAMES-0001',
			internalReferenceNumber: 'NAMES-0001',
			updatedAt: null,
			date: null,
		});

		eu.fake.clock.advance(61_000);
		const got = await runEu({
			parameters: { operation: 'get', uuids: String(filed.uuid) },
			store: store(),
		});
		expect(got.error).toBeUndefined();
		const [read] = jsonOf(got);
		expect(read.status).toBe('AVAILABLE');
		expect(read.internalReference).toBe('NAMES-0001');
		expect(read.internalReferenceNumber).toBe('NAMES-0001');
		expect(typeof read.updatedAt).toBe('string');
		expect(read.date).toBe(read.updatedAt);
		const keys = Object.keys(read);
		expect(keys.indexOf('internalReference')).toBe(4);
		expect(keys.slice(-2)).toEqual(['internalReferenceNumber', 'date']);
	});
});
