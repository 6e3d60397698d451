/**
 * Due Diligence Statement → Get, Get by Internal Reference, Get Content and Withdraw through
 * n8n's engine against EU answers scripted over loopback (until the EU fake is merged).
 */
import type { Loopback } from '../../helpers/loopback';
import { useEuLoopback } from '../../helpers/euLoopback';
import {
	COMMON_NS,
	DDS_NS,
	euStore,
	jsonOf,
	keyLeaks,
	listXml,
	operationOf,
	runEu,
	soap,
	uuidsAsked,
} from './helpers';

const user = {
	username: 'operator1',
	key: ['get', 'test', 'value-0123456789'].join('-'),
	clientId: 'eudr-test',
};
let server: Loopback;
const store = () => euStore(`${server.url}/tracesnt`, user);
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

useEuLoopback((s) => (server = s));

describe('Due Diligence Statement → Get', () => {
	it('asks for at most 100 UUIDs per call across items, one output per statement paired to the items that asked', async () => {
		server.handle((req, res) => {
			expect(operationOf(req.headers)).toBe('getDds');
			res.writeHead(200, { 'Content-Type': 'text/xml' });
			res.end(
				listXml(
					'GetDdsResponse',
					uuidsAsked(req.body).map((u) => ({ uuid: u, status: 'SUBMITTED' })),
				),
			);
		});
		const first = Array.from({ length: 80 }, (_, i) => uuid(i));
		const second = [uuid(79), ...Array.from({ length: 40 }, (_, i) => uuid(100 + i))];
		const result = await runEu({
			parameters: { operation: 'get', uuids: '={{ $json.ids }}' },
			input: [{ ids: first }, { ids: second.join(', ') }],
			store: store(),
		});
		expect(result.error).toBeUndefined();
		expect(server.requests.map((r) => uuidsAsked(r.body).length)).toEqual([100, 20]);
		expect(result.items).toHaveLength(120);
		const shared = result.items.find((i) => i.json.uuid === uuid(79))!;
		expect(shared.pairedItem).toEqual([{ item: 0 }, { item: 1 }]);
		expect(Object.keys(shared.json).slice(0, 4)).toEqual([
			'status',
			'referenceNumber',
			'verificationNumber',
			'uuid',
		]);
		expect(shared.json.numbersNote).toMatch(/AVAILABLE/);
		expect(keyLeaks(result, user.key)).toEqual([]);
	});

	it('names a UUID the EU does not know (NotFoundException)', async () => {
		server.handle((_req, res) => {
			res.writeHead(500, { 'Content-Type': 'text/xml' });
			res.end(
				soap(
					`<S:Fault><faultcode>S:Client</faultcode><faultstring>Not found</faultstring><detail><d:NotFoundException xmlns:d="${DDS_NS}"/></detail></S:Fault>`,
				),
			);
		});
		const result = await runEu({
			parameters: { operation: 'get', uuids: uuid(1) },
			store: store(),
		});
		expect(result.error?.message).toBe(
			`No statement with UUID ${uuid(1)} is visible to this account in the EU Information System`,
		);
	});

	it('refuses an empty UUID field before any request, naming the field', async () => {
		const result = await runEu({
			parameters: { operation: 'get', uuids: '={{ $json.id }}' },
			input: [{ id: '' }],
			store: store(),
		});
		expect(result.error?.message).toBe(
			'Item 0, field "Statement UUIDs": no statement UUID was given. Map the uuid of the due-diligence statement, e.g. {{ $json.uuid }}.',
		);
		expect(server.requests).toHaveLength(0);
	});
});

describe('Due Diligence Statement → Get by Internal Reference', () => {
	beforeEach(() =>
		server.handle((_req, res) => {
			res.writeHead(200, { 'Content-Type': 'text/xml' });
			res.end(
				listXml('GetDdsByInternalReferenceResponse', [
					{
						uuid: uuid(1),
						internalReferenceNumber: 'PO-42',
						status: 'AVAILABLE',
						referenceNumber: '26BE7XTVCZAQ2S',
						verificationNumber: 'SFFCB4Y3',
					},
					{ uuid: uuid(2), internalReferenceNumber: 'po-421', status: 'SUBMITTED' },
				]),
			);
		}),
	);

	it('outputs every statement the EU finds (a substring search there)', async () => {
		const result = await runEu({
			parameters: { operation: 'getByInternalReference', internalReference: 'PO-42' },
			store: store(),
		});
		expect(jsonOf(result).map((j) => j.uuid)).toEqual([uuid(1), uuid(2)]);
		expect(server.requests[0].body).toContain('PO-42');
	});

	it('with Exact Match Only, keeps the exact reference only', async () => {
		const result = await runEu({
			parameters: {
				operation: 'getByInternalReference',
				internalReference: 'PO-42',
				options: { exactOnly: true },
			},
			store: store(),
		});
		expect(jsonOf(result)).toEqual([
			expect.objectContaining({
				uuid: uuid(1),
				status: 'AVAILABLE',
				referenceNumber: '26BE7XTVCZAQ2S',
			}),
		]);
	});
});

describe('Due Diligence Statement → Get Content', () => {
	it('outputs the full statement with its geolocation decoded', async () => {
		const geojson = { type: 'Point', coordinates: [-55.512345, -6.712345] };
		const encoded = Buffer.from(JSON.stringify(geojson)).toString('base64');
		server.handle((_req, res) => {
			res.writeHead(200, { 'Content-Type': 'text/xml' });
			res.end(
				soap(
					`<d:GetDdsByIdentifiersResponse xmlns:d="${DDS_NS}" xmlns:c="${COMMON_NS}"><d:statement><d:internalReferenceNumber>PO-42</d:internalReferenceNumber><d:activityType>IMPORT</d:activityType><d:commodities><d:descriptors><c:descriptionOfGoods>Soy beans</c:descriptionOfGoods><c:goodsMeasure><c:netWeight>300.000000</c:netWeight></c:goodsMeasure></d:descriptors><d:hsHeading>1201</d:hsHeading><d:producers><d:country>BR</d:country><d:geometryGeojson>${encoded}</d:geometryGeojson></d:producers></d:commodities><d:geoLocationConfidential>false</d:geoLocationConfidential></d:statement></d:GetDdsByIdentifiersResponse>`,
				),
			);
		});
		const result = await runEu({
			parameters: {
				operation: 'getContent',
				referenceNumber: '26BE7XTVCZAQ2S',
				verificationNumber: 'SFFCB4Y3',
			},
			store: store(),
		});
		expect(result.error).toBeUndefined();
		const [json] = jsonOf(result);
		expect(json).toMatchObject({
			referenceNumber: '26BE7XTVCZAQ2S',
			verificationNumber: 'SFFCB4Y3',
			internalReferenceNumber: 'PO-42',
			activityType: 'IMPORT',
		});
		expect(JSON.stringify(json)).toContain('"coordinates":[-55.512345,-6.712345]');
		expect(operationOf(server.requests[0].headers)).toBe('getDdsByIdentifiers');
	});
});

describe('Due Diligence Statement → Withdraw', () => {
	const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();

	function eu(submittedHoursAgo: number) {
		server.handle((req, res) => {
			res.writeHead(200, { 'Content-Type': 'text/xml' });
			if (operationOf(req.headers) === 'getDds')
				res.end(
					listXml('GetDdsResponse', [
						{
							uuid: uuid(7),
							status: 'AVAILABLE',
							referenceNumber: '26BE7XTVCZAQ2S',
							date: hoursAgo(submittedHoursAgo),
						},
					]),
				);
			else
				res.end(
					soap(
						`<d:WithdrawDdsResponse xmlns:d="${DDS_NS}"><d:uuid>${uuid(7)}</d:uuid><d:status>WITHDRAWN</d:status></d:WithdrawDdsResponse>`,
					),
				);
		});
	}

	it('withdraws inside the 72-hour window after a fresh look at the statement', async () => {
		eu(1);
		const result = await runEu({
			parameters: { operation: 'withdraw', uuid: uuid(7) },
			store: store(),
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([
			expect.objectContaining({ uuid: uuid(7), status: 'WITHDRAWN' }),
		]);
		expect(server.requests.map((r) => operationOf(r.headers))).toEqual(['getDds', 'withdrawDds']);
	});

	it('an overview date 73 hours old is no submission date: the withdrawal is sent and the EU decides (here it accepts, as after an extension by the authority)', async () => {
		eu(73);
		const result = await runEu({
			parameters: { operation: 'withdraw', uuid: uuid(7) },
			store: store(),
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([
			expect.objectContaining({ uuid: uuid(7), status: 'WITHDRAWN' }),
		]);
		expect(server.requests.map((r) => operationOf(r.headers))).toEqual(['getDds', 'withdrawDds']);
		expect(keyLeaks(result, user.key)).toEqual([]);
	});
});
