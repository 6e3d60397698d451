/**
 * The Simplified Declaration service (pack README §4.2, §5, §6, §9; [OPREF §4.2, §5.2]):
 * submit (roles, generated internal reference, `S…` reference numbers, producers located by
 * geometry, postal address or cadastral identifier), update (version + 1), withdraw, getSd by
 * uuid and version, the searches, grouping (SD only), the SOAPActions as the SD WSDL binds them;
 * every answer validated with the SD XSD.
 */
import { validateEuXml } from '../../helpers/euXsd';
import { geo } from '../client';
import { DEFAULT_AVAILABLE_AFTER_MS, REJECT_MARKER } from '../index';
import type { El } from '../xml';
import { COMMON_NS, DDS_NS, SD_NS, kidText, kids, standalone } from '../xml';
import type { Read } from './harness';
import { byReferenceBody, codes, request, submit, textIn, useFakes } from './harness';
import {
	POINT,
	availableSd,
	callSd,
	getSdBody,
	sdByIdentifiersBody,
	sdByReferenceBody,
	submitSd,
	submitSdBody,
	updateSdBody,
	withdrawSdBody,
} from './sdHarness';

const START = Date.parse('2026-05-20T10:00:00Z');
const fake = useFakes({ startTime: START });

async function valid(read: Read): Promise<El> {
	expect(read.fault).toBeUndefined();
	expect(read.status).toBe(200);
	expect((await validateEuXml(standalone(read.body!), 'sd')).errors).toEqual([]);
	return read.body!;
}
const overviews = (body: El) =>
	kids(body, SD_NS, 'sdOverviewList').map((o) => ({
		uuid: kidText(o, COMMON_NS, 'uuid'),
		internalReferenceNumber: kidText(o, COMMON_NS, 'internalReferenceNumber'),
		referenceNumber: kidText(o, COMMON_NS, 'referenceNumber') ?? null,
		verificationNumber: kidText(o, COMMON_NS, 'verificationNumber') ?? null,
		status: kidText(o, COMMON_NS, 'status'),
		date: kidText(o, COMMON_NS, 'date'),
		version: kidText(o, COMMON_NS, 'version'),
	}));

/** The §5.2.1 sample: MICRO_OPERATOR, empty internal reference, wood with MTQ, three kinds of producer location. */
const SAMPLE = {
	internalReference: '',
	hs: '4410',
	measure: { netWeight: '200', unit: '20', qualifier: 'MTQ' },
	producers: [
		{ geometry: POINT },
		{ addresses: [{ street: 'Rue De Geneve 4', postalCode: '1140', city: 'Brussels' }] },
		{ cadastral: ['BE-BRU-2024-PARCEL-001'] },
	],
};

test('§5.2.1 submitSd: sdIdentifier; after the delay AVAILABLE with an S reference number; internal reference generated', async () => {
	const eu = await fake();
	const read = await callSd(eu, 'submitSd', submitSdBody(SAMPLE));
	const body = await valid(read);
	const uuid = textIn(body, 'sdIdentifier', SD_NS)!;
	expect(uuid).toMatch(/^[0-9a-f-]{36}$/);
	let list = overviews(await valid(await callSd(eu, 'getSd', getSdBody([{ uuid }]))));
	expect(list).toEqual([
		expect.objectContaining({ uuid, status: 'SUBMITTED', referenceNumber: null, version: '1' }),
	]);
	expect(list[0].internalReferenceNumber).toMatch(/^26BE[A-Z0-9]{10}$/);
	eu.clock.advance(DEFAULT_AVAILABLE_AFTER_MS);
	list = overviews(await valid(await callSd(eu, 'getSd', getSdBody([{ uuid }]))));
	expect(list[0]).toMatchObject({
		status: 'AVAILABLE',
		date: new Date(START + DEFAULT_AVAILABLE_AFTER_MS).toISOString(),
	});
	expect(list[0].referenceNumber).toMatch(/^S26BE[A-Z0-9]{9}$/);
	expect(list[0].verificationNumber).toMatch(/^[A-Z0-9]{8}$/);
	expect(eu.statements()[0]).toMatchObject({ kind: 'sd', role: 'MICRO_OPERATOR' });
	expect(eu.requests().map((r) => [r.operation, r.service])).toEqual([
		['submitSd', 'sd'],
		['getSd', 'sd'],
		['getSd', 'sd'],
	]);
});

test('§5.2.2 updateSd: version + 1, AVAILABLE, same numbers; getSd by version answers the superseded one as OBSOLETE', async () => {
	const eu = await fake();
	const before = await availableSd(eu, { internalReference: 'FARM-2026' });
	eu.clock.advance(1000);
	const read = await callSd(
		eu,
		'updateSd',
		updateSdBody(before.uuid, { internalReference: 'FARM-2026-B', measure: { netWeight: '300' } }),
	);
	const body = await valid(read);
	expect([
		textIn(body, 'uuid', SD_NS),
		textIn(body, 'version', SD_NS),
		textIn(body, 'status', SD_NS),
	]).toEqual([before.uuid, '2', 'AVAILABLE']);
	const current = overviews(
		await valid(await callSd(eu, 'getSd', getSdBody([{ uuid: before.uuid }]))),
	);
	expect(current).toEqual([
		expect.objectContaining({
			internalReferenceNumber: 'FARM-2026-B',
			referenceNumber: before.referenceNumber,
			verificationNumber: before.verificationNumber,
			status: 'AVAILABLE',
			version: '2',
			date: new Date(eu.clock.now()).toISOString(),
		}),
	]);
	const versions = overviews(
		await valid(
			await callSd(
				eu,
				'getSd',
				getSdBody([
					{ uuid: before.uuid, version: 1 },
					{ uuid: before.uuid, version: 2 },
					{ uuid: before.uuid, version: 3 },
				]),
			),
		),
	);
	expect(versions.map((v) => [v.version, v.status, v.internalReferenceNumber])).toEqual([
		['1', 'OBSOLETE', 'FARM-2026'],
		['2', 'AVAILABLE', 'FARM-2026-B'],
	]);
	// the content is the update's
	const content = await valid(
		await callSd(
			eu,
			'getSdByIdentifiers',
			sdByIdentifiersBody(before.referenceNumber!, before.verificationNumber!),
		),
	);
	expect(content.getElementsByTagNameNS(COMMON_NS, 'netWeight')[0].textContent).toBe('300.000000');
});

test('§5.2.3 withdrawSd: WITHDRAWN; then neither update nor withdraw; a SUBMITTED SD is not withdrawn', async () => {
	const eu = await fake();
	const sd = await availableSd(eu);
	const body = await valid(await callSd(eu, 'withdrawSd', withdrawSdBody(sd.uuid)));
	expect([textIn(body, 'uuid', SD_NS), textIn(body, 'status', SD_NS)]).toEqual([
		sd.uuid,
		'WITHDRAWN',
	]);
	expect(codes(await callSd(eu, 'updateSd', updateSdBody(sd.uuid)))).toEqual([
		'EUDR_API_AMEND_NOT_ALLOWED_FOR_STATUS',
	]);
	expect(codes(await callSd(eu, 'withdrawSd', withdrawSdBody(sd.uuid)))).toEqual([
		'EUDR_API_AMEND_OR_WITHDRAW_NOT_ALLOWED_FOR_STATUS',
	]);
	const pending = await submitSd(eu, { internalReference: 'SD-2' });
	expect(codes(await callSd(eu, 'withdrawSd', withdrawSdBody(pending)))).toEqual([
		'EUDR_API_AMEND_OR_WITHDRAW_NOT_ALLOWED_FOR_STATUS',
	]);
});

test('no 72-hour window for SD updates (stated for DDS only, pack §5)', async () => {
	const eu = await fake();
	const sd = await availableSd(eu);
	eu.clock.advance(30 * 24 * 3_600_000);
	const body = await valid(await callSd(eu, 'updateSd', updateSdBody(sd.uuid)));
	expect(textIn(body, 'version', SD_NS)).toBe('2');
});

test('update/withdraw of an unknown sdIdentifier, a DDS uuid or another operator’s SD: NotFoundException in the SD namespace', async () => {
	const eu = await fake({
		users: [{ username: 'a' }, { username: 'b', key: 'b-authentication-key' }],
	});
	const dds = await submit(eu);
	const theirs = await availableSd(eu);
	for (const uuid of ['00000000-0000-0000-0000-000000000000', dds, theirs.uuid]) {
		const security = { username: 'b', key: 'b-authentication-key' };
		for (const [operation, body] of [
			['updateSd', updateSdBody(uuid)],
			['withdrawSd', withdrawSdBody(uuid)],
		]) {
			const read = await callSd(eu, operation, body, { security });
			expect(read.fault?.name).toBe('NotFoundException');
			expect(codes(read)).toEqual(['EUDR_WEBSERVICE_STATEMENT_NOT_FOUND']);
		}
	}
	const last = eu.requests().at(-1)!;
	expect(last.outcome).toBe('EUDR_WEBSERVICE_STATEMENT_NOT_FOUND');
});

test('getSd: unknown uuids and DDS uuids are omitted (or NotFoundException with notFoundFaultOnGet); ≤ 100 entries', async () => {
	const eu = await fake();
	const sd = await submitSd(eu);
	const dds = await submit(eu);
	const list = overviews(
		await valid(
			await callSd(
				eu,
				'getSd',
				getSdBody([{ uuid: sd }, { uuid: dds }, { uuid: '00000000-0000-0000-0000-000000000000' }]),
			),
		),
	);
	expect(list.map((o) => o.uuid)).toEqual([sd]);
	const many = Array.from({ length: 101 }, () => ({ uuid: sd }));
	expect((await callSd(eu, 'getSd', getSdBody(many))).fault?.string).toMatch(/Unmarshalling/);
	const strict = await fake({ notFoundFaultOnGet: true });
	const read = await callSd(strict, 'getSd', getSdBody([{ uuid: dds }]));
	expect(read.fault?.name).toBe('NotFoundException');
});

test('getSdByInternalReference: case-insensitive substring over the operator’s SDs only; the DDS search sees no SD', async () => {
	const eu = await fake();
	const a = await submitSd(eu, { internalReference: 'FARM-A-01' });
	const b = await submitSd(eu, { internalReference: 'farm-b-02' });
	await submit(eu, { internalReference: 'FARM-DDS' });
	const list = overviews(
		await valid(await callSd(eu, 'getSdByInternalReference', sdByReferenceBody('FaRm'))),
	);
	expect(list.map((o) => o.uuid)).toEqual([a, b]);
	const dds = await request(eu, 'getDdsByInternalReference', byReferenceBody('FARM'));
	expect(
		dds.body!.getElementsByTagNameNS(COMMON_NS, 'internalReferenceNumber')[0].textContent,
	).toBe('FARM-DDS');
	expect(dds.body!.getElementsByTagNameNS(COMMON_NS, 'uuid')).toHaveLength(1);
});

test('getSdByIdentifiers: the SD as stored (decimals padded), any operator’s; SME operators refused; DDS numbers not found', async () => {
	const eu = await fake();
	const sd = await availableSd(eu, SAMPLE);
	const body = await valid(
		await callSd(
			eu,
			'getSdByIdentifiers',
			sdByIdentifiersBody(sd.referenceNumber!, sd.verificationNumber!),
		),
	);
	expect(body.getElementsByTagNameNS(COMMON_NS, 'supplementaryUnit')[0].textContent).toBe(
		'20.000000',
	);
	expect(body.getElementsByTagNameNS(SD_NS, 'cadastralIdentifier')[0].textContent).toBe(
		'BE-BRU-2024-PARCEL-001',
	);
	expect(body.getElementsByTagNameNS(SD_NS, 'producerCity')[0].textContent).toBe('Brussels');
	// the generated internal reference is in the stored statement too
	expect(body.getElementsByTagNameNS(SD_NS, 'internalReferenceNumber')[0].textContent).toBe(
		sd.internalReferenceNumber,
	);
	const dds = await submit(eu);
	eu.clock.advance(DEFAULT_AVAILABLE_AFTER_MS);
	const d = eu.statements().find((s) => s.uuid === dds)!;
	const read = await callSd(
		eu,
		'getSdByIdentifiers',
		sdByIdentifiersBody(d.referenceNumber!, d.verificationNumber!),
	);
	expect(read.fault?.name).toBe('NotFoundException');
	const sme = await fake({
		users: [
			{ username: 'sme', operator: { name: 'S', hasEori: true, euEstablished: true, sme: true } },
		],
	});
	const refused = await callSd(
		sme,
		'getSdByIdentifiers',
		sdByIdentifiersBody('S26BE000000000', 'ABCDEFGH'),
	);
	expect(refused.fault?.name).toBe('PermissionDeniedException');
});

test('SOAPActions as the SD WSDL binds them: writes in the SD namespace, reads in the DDS namespace', async () => {
	const eu = await fake();
	const wrongWrite = await callSd(eu, 'submitSd', submitSdBody(), {
		action: `${DDS_NS}/submitSd`,
	});
	expect(wrongWrite.status).toBe(500);
	const wrongRead = await callSd(eu, 'getSd', getSdBody([{ uuid: 'x' }]), {
		action: `${SD_NS}/getSd`,
	});
	expect(wrongRead.status).toBe(500);
	expect(eu.requests().map((r) => r.outcome)).toEqual(['SOAP_ACTION', 'SOAP_ACTION']);
	const uuid = await submitSd(eu);
	await valid(await callSd(eu, 'getSd', getSdBody([{ uuid }])));
});

describe('roles and rules', () => {
	test('REPRESENTATIVE_MSPO needs the represented operator; MEMBER_STATE files; OPERATOR is no SD role (schema)', async () => {
		const eu = await fake();
		expect(
			codes(await callSd(eu, 'submitSd', submitSdBody({ role: 'REPRESENTATIVE_MSPO' }))),
		).toEqual(['EUDR_BEHALF_OPERATOR_NOT_PROVIDED']);
		await valid(
			await callSd(
				eu,
				'submitSd',
				submitSdBody({ role: 'REPRESENTATIVE_MSPO', represented: true }),
			),
		);
		await valid(await callSd(eu, 'submitSd', submitSdBody({ role: 'MEMBER_STATE' })));
		const read = await callSd(eu, 'submitSd', submitSdBody({ role: 'OPERATOR' }));
		expect(read.fault?.string).toMatch(/^Unmarshalling Error: /);
	});

	test('an operator whose profile lacks the role: PermissionDeniedException; a micro operator without EORI may not import', async () => {
		const eu = await fake({
			users: [
				{
					username: 'rep-only',
					operator: {
						name: 'R',
						hasEori: false,
						euEstablished: true,
						sdRoles: ['REPRESENTATIVE_MSPO'],
					},
				},
			],
		});
		const read = await callSd(eu, 'submitSd', submitSdBody());
		expect(read.fault?.name).toBe('PermissionDeniedException');
		expect(read.fault?.errors[0].field).toBeNull();
		const other = await fake({
			users: [{ username: 'mspo', operator: { name: 'M', hasEori: false, euEstablished: true } }],
		});
		expect(codes(await callSd(other, 'submitSd', submitSdBody()))).toEqual([
			'EUDR_OPERATOR_EORI_FOR_ACTIVITY_MISSING',
		]);
		await valid(await callSd(other, 'submitSd', submitSdBody({ activity: 'DOMESTIC' })));
	});

	test('the DDS rules on SD content: Annex I, geometry in producerLocation, a producer per commodity; addresses and cadastral identifiers need no geometry', async () => {
		const eu = await fake();
		const bad = geo({
			type: 'LineString',
			coordinates: [
				[0, 0],
				[1, 1],
			],
		});
		const read = await callSd(
			eu,
			'submitSd',
			submitSdBody({ hs: '0901', producers: [{ cadastral: ['X-1'] }, { geometry: bad }] }),
		);
		expect(read.fault?.errors.map((e) => [e.id, e.field])).toEqual([
			[
				'EUDR_COMMODITIES_PRODUCER_GEO_INVALID_GEOMETRY',
				'commodities[1].producers[2].producerLocation.geometryGeojson',
			],
		]);
		expect(codes(await callSd(eu, 'submitSd', submitSdBody({ hs: '0101' })))).toEqual([
			'EUDR_COMMODITIES_HS_CODE_INVALID',
		]);
		expect(codes(await callSd(eu, 'submitSd', submitSdBody({ producers: [] })))).toEqual([
			'EUDR_COMMODITIES_PRODUCER_GEO_EMPTY',
		]);
		// the producer's country: an ISO 3166-1 alpha-2 code ([VR], GEO item 12), not any two letters
		const unknownCountry = await callSd(
			eu,
			'submitSd',
			submitSdBody().replace(
				'<sd:producerCountry>BE</sd:producerCountry>',
				'<sd:producerCountry>ZZ</sd:producerCountry>',
			),
		);
		expect(unknownCountry.fault?.errors.map((e) => [e.id, e.field])).toEqual([
			[
				'EUDR_COMMODITITY_PRODUCER_COUNTRY_CODE_INVALID',
				'commodities[1].producers[1].producerCountry',
			],
		]);
		await valid(
			await callSd(
				eu,
				'submitSd',
				submitSdBody({
					producers: [
						{ addresses: [{ postalCode: '1000', city: 'Brussels' }] },
						{ cadastral: ['A-1', 'A-2'] },
					],
				}),
			),
		);
	});

	test('the XSD judges the SD shape: an internal reference over 14 characters is a schema fault', async () => {
		const eu = await fake();
		const read = await callSd(
			eu,
			'submitSd',
			submitSdBody({ internalReference: 'FIFTEEN-CHARS-X' }),
		);
		expect(read.fault?.string).toMatch(/^Unmarshalling Error: /);
		expect(eu.requests()[0].outcome).toBe('SCHEMA');
	});

	test('the reject rule applies to SDs (comment marker)', async () => {
		const eu = await fake();
		const uuid = await submitSd(eu, { comment: REJECT_MARKER });
		eu.clock.advance(DEFAULT_AVAILABLE_AFTER_MS);
		const list = overviews(await valid(await callSd(eu, 'getSd', getSdBody([{ uuid }]))));
		expect(list[0].status).toBe('REJECTED');
	});
});

describe('grouping (pack §6: SD may group SD only; DDS may group DDS and SD)', () => {
	test('an SD grouping AVAILABLE SDs turns them GROUPED; they cannot be updated or withdrawn; withdrawing the group releases them', async () => {
		const eu = await fake();
		const member = await availableSd(eu, { internalReference: 'MEMBER' });
		const group = await availableSd(eu, {
			internalReference: 'GROUP',
			producers: [],
			grouped: [member.referenceNumber!],
		});
		const status = (uuid: string) => eu.statements().find((s) => s.uuid === uuid)!.status;
		expect(status(member.uuid)).toBe('GROUPED');
		expect(codes(await callSd(eu, 'updateSd', updateSdBody(member.uuid)))).toEqual([
			'EUDR_API_AMEND_OR_WITHDRAW_DDS_NOT_POSSIBLE',
		]);
		expect(codes(await callSd(eu, 'withdrawSd', withdrawSdBody(member.uuid)))).toEqual([
			'EUDR_API_AMEND_OR_WITHDRAW_DDS_NOT_POSSIBLE',
		]);
		await valid(await callSd(eu, 'withdrawSd', withdrawSdBody(group.uuid)));
		expect(status(member.uuid)).toBe('AVAILABLE');
	});

	test('an SD referencing a DDS is refused; a DDS may group an SD', async () => {
		const eu = await fake();
		const dds = await submit(eu, { internalReference: 'DDS-1' });
		const sd = await availableSd(eu);
		const d = eu.statements().find((s) => s.uuid === dds)!;
		const read = await callSd(
			eu,
			'submitSd',
			submitSdBody({ internalReference: 'G', grouped: [d.referenceNumber!] }),
		);
		expect(read.fault?.errors.map((e) => [e.id, e.field])).toEqual([
			['EUDR_REFERENCED_STATEMENT_NOT_FOUND', 'groupedDeclarations[1].groupedDeclaration'],
		]);
		expect(read.fault?.errors[0].message).toMatch(/simplified declarations only/);
		await submit(eu, { internalReference: 'DDS-G', grouped: [sd.referenceNumber!] });
		expect(eu.statements().find((s) => s.uuid === sd.uuid)!.status).toBe('GROUPED');
	});
});

test('events and the control API see SDs as kind "sd"', async () => {
	const eu = await fake();
	const sd = await availableSd(eu);
	eu.events.communicate(sd.uuid, 'Please confirm the cadastral parcel');
	const body = await valid(await callSd(eu, 'getSd', getSdBody([{ uuid: sd.uuid }])));
	expect(
		body.getElementsByTagNameNS(COMMON_NS, 'communicationToOperator')[0].textContent,
	).toContain('Please confirm the cadastral parcel');
	const list = (await (
		await fetch(`${new URL(eu.url).origin}/__fake-eu/statements`)
	).json()) as Array<{
		kind: string;
		referenceNumber: string;
	}>;
	expect(list).toEqual([
		expect.objectContaining({ kind: 'sd', referenceNumber: sd.referenceNumber }),
	]);
});
