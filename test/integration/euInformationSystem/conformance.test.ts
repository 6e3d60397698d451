/**
 * The EU's conformance tests CF1–CF7 (reference pack §10), mapped to V3 and run through n8n's
 * engine with the EU Information System node against the EU fake (written from the EU's
 * documents, not from the node). Statements are filed from plot rows as users have them.
 * After all of it: every body the node sent validated against the official XSDs (the fake
 * checks each one with them and would have answered a schema fault).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { checkEuCredential } from '../../../nodes/shared/transport/euCredentialCheck';
import { plainHttp } from '../../helpers/plainHttp';
import {
	ddsSubmitParameters,
	euStore,
	jsonOf,
	keyLeaks,
	runEu,
	squarePlot,
	useEuFake,
} from './helpers';

const { eu, store, sent } = useEuFake();
const DAY = 24 * 3_600_000;

/** A plot row as Read File → Validate give it: geometry, properties, country. */
const plot = (x: number, name = 'Coop A') => ({
	geometry: squarePlot(x, 6.5),
	country: 'CI',
	producer: name,
});

const submitParameters = (over: INodeParameters = {}): INodeParameters =>
	ddsSubmitParameters('po', over);

async function submit(
	po: string,
	rows: IDataObject[] = [plot(-5.3), plot(-5.29)],
	over: INodeParameters = {},
) {
	return await runEu({
		parameters: submitParameters(over),
		input: rows.map((r) => ({ ...r, po })),
		store: store(),
	});
}

describe('CF1: connect and authenticate', () => {
	it('the credential check proves the key (echo), and says in plain words when it is wrong', async () => {
		const { httpRequest } = plainHttp();
		const data = store().data.euInformationSystemApi as IDataObject;
		await expect(
			checkEuCredential({ helpers: { httpRequest } } as never, data),
		).resolves.toBeUndefined();
		const wrong = ['wrong', 'authentication', 'key', '000'].join('-');
		const error = await checkEuCredential({ helpers: { httpRequest } } as never, {
			...data,
			authKey: wrong,
		}).then(
			() => undefined,
			(e: Error) => e,
		);
		expect(error?.message).toMatch(/did not accept|username|authentication key/i);
		expect(error?.message).not.toContain(wrong);
	});
});

describe('CF2: submit', () => {
	it('files one statement per Internal Reference from plot rows, returns its UUID', async () => {
		const result = await submit('CF2-0001', [plot(-5.3), plot(-5.29), plot(-5.28, 'Coop B')]);
		expect(result.error).toBeUndefined();
		const [out] = jsonOf(result);
		expect(jsonOf(result)).toHaveLength(1);
		expect(out.uuid).toMatch(/^[0-9a-f-]{36}$/);
		expect(out.status).toBe('SUBMITTED');
		const [stored] = eu.fake.statements().filter((s) => s.internalReferenceNumber === 'CF2-0001');
		expect(stored).toBeDefined();
		expect(keyLeaks(result, eu.fake.users[0].key)).toEqual([]);
	});

	it('as authorised representative, with the represented operator', async () => {
		const result = await submit('CF2-0002', undefined, {
			operatorRole: 'REPRESENTATIVE_OPERATOR',
			statementOptions: {
				representedName: 'Client Trading SA',
				representedEori: 'FR123456789000',
				representedStreet: '1 rue de la Paix',
				representedPostalCode: '75002',
				representedCity: 'Paris',
				representedCountry: 'FR',
			},
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)[0].status).toBe('SUBMITTED');
	});
});

describe('CF3: status, reference and verification numbers', () => {
	it('by UUID, one and many, and by internal reference (the EU matches part of it)', async () => {
		const a = jsonOf(await submit('CF3-ALPHA'))[0];
		const b = jsonOf(await submit('CF3-BETA'))[0];
		const early = jsonOf(
			await runEu({ parameters: { operation: 'get', uuids: String(a.uuid) }, store: store() }),
		)[0];
		expect(early).toMatchObject({
			status: 'SUBMITTED',
			referenceNumber: null,
			verificationNumber: null,
		});
		eu.fake.clock.advance(2 * 60_000);
		const both = jsonOf(
			await runEu({
				parameters: { operation: 'get', uuids: `${String(a.uuid)},${String(b.uuid)}` },
				store: store(),
			}),
		);
		expect(both.map((s) => s.status)).toEqual(['AVAILABLE', 'AVAILABLE']);
		expect(both[0].referenceNumber).toEqual(expect.any(String));
		expect(both[0].verificationNumber).toEqual(expect.any(String));
		const found = jsonOf(
			await runEu({
				parameters: { operation: 'getByInternalReference', internalReference: 'CF3-' },
				store: store(),
			}),
		);
		expect(found.map((s) => s.uuid).sort()).toEqual([a.uuid, b.uuid].sort());
	});

	it('a rejected statement comes with its reason', async () => {
		const r = jsonOf(
			await submit('CF3-REJECTED', undefined, {
				statementOptions: { comment: 'FAKE-REJECT please' },
			}),
		)[0];
		eu.fake.clock.advance(2 * 60_000);
		const [got] = jsonOf(
			await runEu({ parameters: { operation: 'get', uuids: String(r.uuid) }, store: store() }),
		);
		expect(got.status).toBe('REJECTED');
		expect(got.rejectionReason).toEqual(expect.any(String));
	});
});

describe('CF4: errors are caught, before sending where we can', () => {
	it.each<[string, INodeParameters, RegExp]>([
		['an HS heading that does not match its commodity', { hsHeading: '0901' }, /HS Heading/],
		['a missing net weight for an import', { netWeight: '' }, /Net Weight \(kg\)/],
	])('%s is refused before sending, naming the field', async (_name, over, field) => {
		const before = sent('submitDds').length + sent('getDdsByInternalReference').length;
		const result = await submit('CF4-PRE', undefined, over);
		expect(result.error).toBeDefined();
		expect(`${result.error!.message} ${result.error!.description ?? ''}`).toMatch(field);
		expect(sent('submitDds').length + sent('getDdsByInternalReference').length).toBe(before);
	});

	it('a statement over 25 MB is refused before sending, naming its geolocation', async () => {
		// 12 plots of 100,000 vertices each (about 30 MB of GeoJSON), far enough apart at six decimals
		const rows = Array.from({ length: 12 }, (_, k) => {
			const ring: number[][] = [];
			const n = 100_000;
			for (let i = 0; i < n; i++) {
				const a = (2 * Math.PI * i) / n;
				ring.push([
					Number((-8 + k + 0.2 * Math.cos(a)).toFixed(6)),
					Number((6.5 + 0.2 * Math.sin(a)).toFixed(6)),
				]);
			}
			ring.push(ring[0]);
			return {
				geometry: { type: 'Polygon', coordinates: [ring] },
				country: 'CI',
				producer: 'Coop A',
			};
		});
		const before = sent('submitDds').length;
		const result = await submit('CF4-HUGE', rows);
		expect(result.error).toBeDefined();
		expect(`${result.error!.message} ${result.error!.description ?? ''}`).toMatch(
			/25 MB|Geolocation/,
		);
		expect(sent('submitDds').length).toBe(before);
	}, 120_000);

	it('a business rule the EU enforces is said with its sentence (an operator without EORI importing)', async () => {
		const noEori = await (async () => {
			const { startFakeEu } = await import('../../fake-eu');
			return await startFakeEu({
				ratePerSecond: 0,
				users: [
					{
						username: 'no-eori',
						operator: { name: 'No EORI Ltd', hasEori: false, euEstablished: true },
					},
				],
			});
		})();
		try {
			const result = await runEu({
				parameters: submitParameters(),
				input: [{ ...plot(-5.3), po: 'CF4-EORI' }],
				store: euStore(noEori.url, noEori.users[0]),
			});
			expect(result.error).toBeDefined();
			expect(`${result.error!.message} ${result.error!.description ?? ''}`).toMatch(/EORI/);
		} finally {
			await noEori.stop();
		}
	});
});

describe('CF5: amend', () => {
	it('replaces an AVAILABLE statement within 72 hours; a change of activity type is refused before sending', async () => {
		const s = jsonOf(await submit('CF5-0001'))[0];
		eu.fake.clock.advance(2 * 60_000);
		const amended = await runEu({
			parameters: {
				...submitParameters({ netWeight: '11000' }),
				operation: 'amend',
				uuid: String(s.uuid),
			},
			input: [{ ...plot(-5.3), po: 'CF5-0001' }],
			store: store(),
		});
		expect(amended.error).toBeUndefined();
		expect(jsonOf(amended)[0]).toMatchObject({ uuid: s.uuid, status: 'AVAILABLE' });
		const before = sent('amendDds').length;
		const changed = await runEu({
			parameters: {
				...submitParameters({ activityType: 'EXPORT' }),
				operation: 'amend',
				uuid: String(s.uuid),
			},
			input: [{ ...plot(-5.3), po: 'CF5-0001' }],
			store: store(),
		});
		expect(changed.error).toBeDefined();
		expect(`${changed.error!.message} ${changed.error!.description ?? ''}`).toMatch(
			/activity type cannot change/i,
		);
		expect(sent('amendDds').length).toBe(before);
	});
});

describe('CF6: withdraw', () => {
	it('withdraws an AVAILABLE statement within 72 hours; after them, the refusal is said in plain words', async () => {
		const s = jsonOf(await submit('CF6-0001'))[0];
		eu.fake.clock.advance(2 * 60_000);
		const w = await runEu({
			parameters: { operation: 'withdraw', uuid: String(s.uuid) },
			store: store(),
		});
		expect(w.error).toBeUndefined();
		expect(jsonOf(w)[0]).toMatchObject({ status: 'WITHDRAWN' });
		const t = jsonOf(await submit('CF6-0002'))[0];
		eu.fake.clock.advance(4 * DAY);
		// the node leaves the 72 hours to the EU (no answer carries the submission date): the EU's
		// refusal is what is tested (with the last-update note: withdraw.test.ts and amend.test.ts,
		// a fake whose clock started 73 hours ago, so that its dates and this machine's agree)
		const late = await runEu({
			parameters: { operation: 'withdraw', uuid: String(t.uuid) },
			store: store(),
		});
		expect(`${late.error?.message} ${late.error?.description ?? ''}`).toMatch(
			/no longer be amended or withdrawn|72-hour/,
		);
	});
});

describe('CF7: retrieve by reference and verification number', () => {
	it('the full statement, geolocation decoded; wrong numbers are said plainly', async () => {
		const s = jsonOf(await submit('CF7-0001'))[0];
		eu.fake.clock.advance(2 * 60_000);
		const [got] = jsonOf(
			await runEu({ parameters: { operation: 'get', uuids: String(s.uuid) }, store: store() }),
		);
		const content = await runEu({
			parameters: {
				operation: 'getContent',
				referenceNumber: String(got.referenceNumber),
				verificationNumber: String(got.verificationNumber),
			},
			store: store(),
		});
		expect(content.error).toBeUndefined();
		const text = JSON.stringify(jsonOf(content));
		expect(text).toContain('"type":"FeatureCollection"');
		expect(text).toContain('CF7-0001');
		const wrong = await runEu({
			parameters: {
				operation: 'getContent',
				referenceNumber: String(got.referenceNumber),
				verificationNumber: 'XXXXXXXX',
			},
			store: store(),
		});
		expect(wrong.error).toBeDefined();
		expect(keyLeaks(wrong, eu.fake.users[0].key)).toEqual([]);
	});
});
