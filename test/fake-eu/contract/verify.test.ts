/**
 * The Verify Declaration service (pack README §4.3, §9; [DSREF §4.1, §5.1]): DDS and SD by
 * reference and verification number, any operator's; EXISTING_USABLE / EXISTING_NON_USABLE
 * with the status / NON_EXISTENT (HTTP 200, no status); the fake's UNCERTAIN choice (only
 * AVAILABLE is usable, option `verifyUsableStatuses`); every answer validated with the Verify
 * XSD; its own SOAPAction, no BodyIdentity header.
 */
import { validateEuXml } from '../../helpers/euXsd';
import type { FakeEu } from '../index';
import { DEFAULT_AVAILABLE_AFTER_MS } from '../index';
import { BODY_NS, VERIFY_NS, kidText, standalone } from '../xml';
import { envelope, post } from '../client';
import { codes, request, submit, textIn, useFakes, userOf, withdrawBody } from './harness';
import { availableSd, callVerify } from './sdHarness';

const START = Date.parse('2026-05-20T10:00:00Z');
const fake = useFakes({ startTime: START });
const availableDds = async (eu: FakeEu, internalReference = 'REF-1') => {
	const uuid = await submit(eu, { internalReference });
	eu.clock.advance(DEFAULT_AVAILABLE_AFTER_MS);
	return eu.statements().find((s) => s.uuid === uuid)!;
};

async function verified(eu: FakeEu, reference: string, verification: string) {
	const read = await callVerify(eu, reference, verification);
	expect(read.fault).toBeUndefined();
	expect(read.status).toBe(200);
	expect(read.body!.localName).toBe('VerifyDeclarationResponse');
	expect(read.body!.namespaceURI).toBe(VERIFY_NS);
	expect((await validateEuXml(standalone(read.body!), 'verify')).errors).toEqual([]);
	return {
		result: kidText(read.body, VERIFY_NS, 'result'),
		status: kidText(read.body, VERIFY_NS, 'status') ?? null,
		dateTime: kidText(read.body, VERIFY_NS, 'dateTime'),
	};
}

test('§5.1.1 the EU sample request: NON_EXISTENT with HTTP 200, no status, dateTime = now', async () => {
	const eu = await fake();
	expect(await verified(eu, 'EUDR00000001BE', 'VN-2025-ABC12')).toEqual({
		result: 'NON_EXISTENT',
		status: null,
		dateTime: new Date(START).toISOString(),
	});
	expect(eu.requests()[0]).toMatchObject({
		operation: 'verifyDeclaration',
		service: 'verify',
		outcome: 'accepted',
		status: 200,
	});
});

test('an AVAILABLE DDS and an AVAILABLE SD are EXISTING_USABLE with their status', async () => {
	const eu = await fake();
	const dds = await availableDds(eu);
	expect(await verified(eu, dds.referenceNumber!, dds.verificationNumber!)).toEqual({
		result: 'EXISTING_USABLE',
		status: 'AVAILABLE',
		dateTime: new Date(eu.clock.now()).toISOString(),
	});
	const sd = await availableSd(eu);
	expect(sd.referenceNumber).toMatch(/^S/);
	expect(await verified(eu, sd.referenceNumber!, sd.verificationNumber!)).toMatchObject({
		result: 'EXISTING_USABLE',
		status: 'AVAILABLE',
	});
});

test('a verification number that does not match, or a reference nobody has: NON_EXISTENT', async () => {
	const eu = await fake();
	const dds = await availableDds(eu);
	expect(await verified(eu, dds.referenceNumber!, 'WRONG1')).toEqual({
		result: 'NON_EXISTENT',
		status: null,
		dateTime: new Date(eu.clock.now()).toISOString(),
	});
	expect((await verified(eu, '26BE0000000000', dds.verificationNumber!)).result).toBe(
		'NON_EXISTENT',
	);
});

test('another operator verifies a statement (downstream operators and traders, pack §9)', async () => {
	const eu = await fake({
		users: [
			{ username: 'upstream' },
			{ username: 'downstream', key: 'downstream-authentication-key', clientId: 'eudr-test' },
		],
	});
	const dds = await availableDds(eu);
	const read = await callVerify(eu, dds.referenceNumber!, dds.verificationNumber!, {
		security: { username: 'downstream', key: 'downstream-authentication-key' },
	});
	expect(textIn(read.body, 'result', VERIFY_NS)).toBe('EXISTING_USABLE');
});

describe('EXISTING_NON_USABLE with the status', () => {
	test('WITHDRAWN (withdrawn by the operator)', async () => {
		const eu = await fake();
		const dds = await availableDds(eu);
		await request(eu, 'withdrawDds', withdrawBody(dds.uuid));
		expect(await verified(eu, dds.referenceNumber!, dds.verificationNumber!)).toMatchObject({
			result: 'EXISTING_NON_USABLE',
			status: 'WITHDRAWN',
		});
	});

	test('GROUPED (referenced by another statement): the fake counts it not usable', async () => {
		const eu = await fake();
		const dds = await availableDds(eu);
		await submit(eu, { internalReference: 'GROUP', grouped: [dds.referenceNumber!] });
		expect(await verified(eu, dds.referenceNumber!, dds.verificationNumber!)).toMatchObject({
			result: 'EXISTING_NON_USABLE',
			status: 'GROUPED',
		});
	});

	test.each(['REJECTED', 'SUSPENDED', 'ARCHIVED', 'OBSOLETE'])(
		'%s (an EU-side event)',
		async (status) => {
			const eu = await fake();
			const sd = await availableSd(eu);
			eu.events.setStatus(sd.uuid, status);
			expect(await verified(eu, sd.referenceNumber!, sd.verificationNumber!)).toMatchObject({
				result: 'EXISTING_NON_USABLE',
				status,
			});
		},
	);

	test('option verifyUsableStatuses: the other reading (ARCHIVED usable) is one setting away', async () => {
		const eu = await fake({ verifyUsableStatuses: ['AVAILABLE', 'ARCHIVED'] });
		const dds = await availableDds(eu);
		eu.events.setStatus(dds.uuid, 'ARCHIVED');
		expect(await verified(eu, dds.referenceNumber!, dds.verificationNumber!)).toMatchObject({
			result: 'EXISTING_USABLE',
			status: 'ARCHIVED',
		});
	});
});

describe('refusals', () => {
	test('a reference number of the wrong format: BusinessRulesValidationException in the Verify namespace', async () => {
		const eu = await fake();
		for (const reference of ['26be7xtvczaq2s', 'SHORT123', '26BE7XTVCZ-Q2S']) {
			const read = await callVerify(eu, reference, 'ABCDE');
			expect(read.status).toBe(500);
			expect(read.fault?.name).toBe('BusinessRulesValidationException');
			expect(codes(read)).toEqual(['EUDR_REFERENCE_NUMBER_INVALID']);
			expect(read.fault?.errors[0].field).toBe('referenceNumber');
			expect(read.text).toContain(`xmlns:ns5="${VERIFY_NS}"`);
		}
	});

	test('the XSD facets (reference ≤ 14, verification 5–35) are schema faults', async () => {
		const eu = await fake();
		for (const [reference, verification] of [
			['26BE7XTVCZAQ2SX', 'ABCDE'],
			['26BE7XTVCZAQ2S', 'ABCD'],
			['26BE7XTVCZAQ2S', 'A'.repeat(36)],
		]) {
			const read = await callVerify(eu, reference, verification);
			expect(read.fault?.string).toMatch(/^Unmarshalling Error: /);
			expect(read.fault?.name).toBeNull();
		}
		expect(eu.requests().map((r) => r.outcome)).toEqual(['SCHEMA', 'SCHEMA', 'SCHEMA']);
	});

	test('the SOAPAction must be the WSDL one (not the service namespace)', async () => {
		const eu = await fake();
		const read = await callVerify(eu, 'EUDR00000001BE', 'ABCDE', {
			action: `${VERIFY_NS}/verifyDeclaration`,
		});
		expect(read.status).toBe(500);
		expect(eu.requests()[0].outcome).toBe('SOAP_ACTION');
	});

	test('a BodyIdentity header is refused: the Verify WSDL binds none', async () => {
		const eu = await fake();
		const read = await callVerify(eu, 'EUDR00000001BE', 'ABCDE', {
			security: {
				headers: [
					`<body:BodyIdentity xmlns:body="${BODY_NS}"><identifier>abc</identifier></body:BodyIdentity>`,
				],
			},
		});
		expect(read.status).toBe(500);
		expect(read.fault?.string).toMatch(/no BodyIdentity header/);
		expect(eu.requests()[0].outcome).toBe('BODY_IDENTITY');
	});

	test('a user whose profile may not verify: PermissionDeniedException', async () => {
		const eu = await fake({
			users: [
				{
					username: 'no-verify',
					operator: { name: 'X', hasEori: true, euEstablished: true, mayVerify: false },
				},
			],
		});
		const read = await callVerify(eu, 'EUDR00000001BE', 'ABCDE');
		expect(read.fault?.name).toBe('PermissionDeniedException');
	});

	test('a DDS operation posted to the Verify endpoint is no operation of it', async () => {
		const eu = await fake();
		const answer = await post(
			`${eu.url}ws/EUDRVerifyDeclarationServiceV3`,
			envelope(
				`<dds:GetDdsRequest xmlns:dds="http://ec.europa.eu/tracesnt/certificate/eudr/due-diligence-statement/v3"><dds:uuidList>x</dds:uuidList></dds:GetDdsRequest>`,
				userOf(eu),
			),
			'http://ec.europa.eu/tracesnt/certificate/eudr/due-diligence-statement/v3/getDds',
		);
		expect(answer.status).toBe(500);
		expect(answer.text).toContain('Cannot find dispatch method');
	});
});
