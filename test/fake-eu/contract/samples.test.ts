/**
 * The EU's own sample requests (operator-api-reference-v3.md §5.1, §3.6, rewritten as fixtures
 * in test/fixtures/eu-information-system/requests/ with our WS-Security header) are accepted,
 * and the answers validate against the EU's XSDs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EU_WSDL_DIR, validateEuXml } from '../../helpers/euXsd';
import { post } from '../client';
import type { FakeEu } from '../index';
import { startFakeEu } from '../index';
import { COMMON_NS, standalone } from '../xml';
import { callDds, fixture, readAnswer, submitSample, textIn, userOf } from './harness';

let eu: FakeEu;
beforeAll(async () => {
	eu = await startFakeEu({ ratePerSecond: 0 });
});
afterAll(async () => {
	await eu.stop();
});

test('§5.1.1 submitDds is accepted with a uuid; the answer validates against the XSD', async () => {
	const read = await callDds(eu, 'submitDds', fixture('submitDds', {}, userOf(eu)));
	expect(read.status).toBe(200);
	expect(textIn(read.body, 'uuid')).toMatch(/^[0-9a-f-]{36}$/);
	expect(read.requestId).toMatch(/^[0-9a-f-]{36}$/);
	expect((await validateEuXml(standalone(read.body!), 'dds')).errors).toEqual([]);
	expect(eu.statements().at(-1)?.status).toBe('SUBMITTED');
});

test('§5.1.5 getDds, §5.1.6 getDdsByInternalReference, §5.1.7 getDdsByIdentifiers once AVAILABLE', async () => {
	const uuid = await submitSample(eu);
	eu.statements().find((s) => s.uuid === uuid)!.internalReferenceNumber = 'Sample-Ref-515';
	let read = await callDds(eu, 'getDds', fixture('getDds', { uuid }, userOf(eu)));
	const overview = () => read.body!.getElementsByTagNameNS(COMMON_NS, 'status')[0]?.textContent;
	expect(overview()).toBe('SUBMITTED');
	eu.clock.advance(60_000);
	read = await callDds(eu, 'getDds', fixture('getDds', { uuid }, userOf(eu)));
	expect(overview()).toBe('AVAILABLE');
	expect((await validateEuXml(standalone(read.body!), 'dds')).errors).toEqual([]);
	const referenceNumber = read.body!.getElementsByTagNameNS(COMMON_NS, 'referenceNumber')[0]
		.textContent!;
	const verificationNumber = read.body!.getElementsByTagNameNS(COMMON_NS, 'verificationNumber')[0]
		.textContent!;
	expect(referenceNumber).toMatch(/^\d{2}BE[A-Z0-9]{10}$/);
	expect(verificationNumber).toMatch(/^[A-Z0-9]{8}$/);

	read = await callDds(
		eu,
		'getDdsByInternalReference',
		fixture('getDdsByInternalReference', { internal_reference: 'ref-515' }, userOf(eu)),
	);
	expect(read.body!.getElementsByTagNameNS(COMMON_NS, 'uuid')[0].textContent).toBe(uuid);
	expect((await validateEuXml(standalone(read.body!), 'dds')).errors).toEqual([]);

	read = await callDds(
		eu,
		'getDdsByIdentifiers',
		fixture(
			'getDdsByIdentifiers',
			{ reference_number: referenceNumber, verification_number: verificationNumber },
			userOf(eu),
		),
	);
	expect(read.status).toBe(200);
	expect((await validateEuXml(standalone(read.body!), 'dds')).errors).toEqual([]);
	expect(read.body!.getElementsByTagNameNS(COMMON_NS, 'netWeight')[0].textContent).toBe(
		'200.000000',
	);
});

test('§5.1.3 amendDds and §5.1.4 withdrawDds of an AVAILABLE statement', async () => {
	const uuid = await submitSample(eu);
	eu.clock.advance(60_000);
	let read = await callDds(eu, 'amendDds', fixture('amendDds', { uuid }, userOf(eu)));
	expect(read.status).toBe(200);
	expect(textIn(read.body, 'status')).toBe('AVAILABLE');
	expect((await validateEuXml(standalone(read.body!), 'dds')).errors).toEqual([]);
	// complete replacement: the content is the amended one (as in the OPREF §5.1.7 response)
	const s = eu.statements().find((x) => x.uuid === uuid)!;
	const content = await callDds(
		eu,
		'getDdsByIdentifiers',
		fixture(
			'getDdsByIdentifiers',
			{ reference_number: s.referenceNumber!, verification_number: s.verificationNumber! },
			userOf(eu),
		),
	);
	expect(content.body!.getElementsByTagNameNS(COMMON_NS, 'descriptionOfGoods')[0].textContent).toBe(
		'Test wood product amended',
	);
	expect(content.body!.getElementsByTagNameNS(COMMON_NS, 'netWeight')[0].textContent).toBe(
		'300.000000',
	);
	expect(s.version).toBe(2);
	read = await callDds(eu, 'withdrawDds', fixture('withdrawDds', { uuid }, userOf(eu)));
	expect(textIn(read.body, 'status')).toBe('WITHDRAWN');
	expect((await validateEuXml(standalone(read.body!), 'dds')).errors).toEqual([]);
});

test('§5.1.2 submitDds with grouped declarations turns the referenced statements GROUPED', async () => {
	const a = await submitSample(eu);
	const b = await submitSample(eu);
	eu.clock.advance(60_000);
	const ref = (uuid: string) => eu.statements().find((s) => s.uuid === uuid)!.referenceNumber!;
	const read = await callDds(
		eu,
		'submitDds',
		fixture('submitDdsGrouped', { grouped_1: ref(a), grouped_2: ref(b) }, userOf(eu)),
	);
	expect(read.status).toBe(200);
	expect(
		eu
			.statements()
			.filter((s) => s.uuid === a || s.uuid === b)
			.map((s) => s.status),
	).toEqual(['GROUPED', 'GROUPED']);
});

test('§3.6 echo on both paths, query qualified or not', async () => {
	for (const path of ['ws/eudr/echo', 'ws/EudrEchoService']) {
		const answer = await post(
			`${eu.url}${path}`,
			fixture('echo', { query: 'Hello EUDR' }, userOf(eu)),
			'http://ec.europa.eu/tracesnt/eudr/echo',
		);
		expect(answer.status).toBe(200);
		expect(readAnswer(answer.status, answer.text).body?.localName).toBe('EudrEchoResponse');
	}
	const unqualified = fixture('echo', { query: 'x' }, userOf(eu)).replace(/echo:query/g, 'query');
	const answer = await post(
		`${eu.url}ws/eudr/echo`,
		unqualified,
		'http://ec.europa.eu/tracesnt/eudr/echo',
	);
	expect(answer.text).toContain('<ns2:status>OK</ns2:status>');
});

test('serves the WSDL and its parts', async () => {
	for (const q of ['?wsdl', '?wsdl=1', '?wsdl=2', '?xsd=1', '?xsd=3', '?xsd=4', '?xsd=7']) {
		const res = await fetch(`${eu.url}ws/EUDRDueDiligenceStatementServiceV3${q}`);
		expect([q, res.status]).toEqual([q, 200]);
		expect(await res.text()).toMatch(/^<\?xml/);
	}
	// byte for byte the pack's file
	const served = Buffer.from(
		await (await fetch(`${eu.url}ws/EUDRDueDiligenceStatementServiceV3?xsd=4`)).arrayBuffer(),
	);
	expect(
		served.equals(
			readFileSync(
				join(
					EU_WSDL_DIR,
					'EUDRDueDiligenceStatementServiceV3',
					'xsd4-due-diligence-statement-v3.xsd',
				),
			),
		),
	).toBe(true);
	expect((await fetch(`${eu.url}ws/eudr/echo?wsdl`)).status).toBe(200);
	expect((await fetch(`${eu.url}ws/EUDRDueDiligenceStatementServiceV3?xsd=99`)).status).toBe(404);
});
