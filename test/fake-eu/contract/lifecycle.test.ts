/**
 * The statement lifecycle of README §5 on the fake's controllable clock: SUBMITTED →
 * AVAILABLE / REJECTED, amend only AVAILABLE, withdraw AVAILABLE or SUBMITTED (seen live,
 * README §12; a switch turns the latter off), within 72 h, not GROUPED, activity type unchanged (the EUDR_API_… codes of README §7), grouping, and the get operations.
 */
import type { FakeEu } from '../index';
import { AMEND_WINDOW_MS, DEFAULT_AVAILABLE_AFTER_MS, REJECT_MARKER } from '../index';
import { COMMON_NS } from '../xml';
import {
	amendBody,
	byIdentifiersBody,
	byReferenceBody,
	codes,
	getDdsBody,
	request,
	submit,
	submitBody,
	textIn,
	useFakes,
	withdrawBody,
} from './harness';

const fake = useFakes();

const statusOf = (eu: FakeEu, uuid: string) => eu.statements().find((s) => s.uuid === uuid)?.status;
const available = async (eu: FakeEu, spec = {}) => {
	const uuid = await submit(eu, spec);
	eu.clock.advance(DEFAULT_AVAILABLE_AFTER_MS);
	return eu.statements().find((s) => s.uuid === uuid)!;
};

test('SUBMITTED until the configured delay has passed on the clock, then AVAILABLE with numbers', async () => {
	const eu = await fake({ availableAfterMs: 30 * 60_000 });
	const uuid = await submit(eu);
	expect(statusOf(eu, uuid)).toBe('SUBMITTED');
	eu.clock.advance(30 * 60_000 - 1);
	expect(statusOf(eu, uuid)).toBe('SUBMITTED');
	expect(eu.statements()[0].referenceNumber).toBeNull();
	eu.clock.advance(1);
	const s = eu.statements()[0];
	expect(s.status).toBe('AVAILABLE');
	expect(s.referenceNumber).toMatch(/^\d{2}FR[A-Z0-9]{10}$/);
	expect(s.verificationNumber).toMatch(/^[A-Z0-9]{8}$/);
});

test('the default rule rejects a statement whose comment holds the marker; a custom rule may too', async () => {
	const eu = await fake();
	const uuid = await submit(eu, { comment: `please ${REJECT_MARKER}` });
	eu.clock.advance(DEFAULT_AVAILABLE_AFTER_MS);
	const read = await request(eu, 'getDds', getDdsBody([uuid]));
	expect(read.body!.getElementsByTagNameNS(COMMON_NS, 'status')[0].textContent).toBe('REJECTED');
	expect(read.body!.getElementsByTagNameNS(COMMON_NS, 'rejectionReason')[0].textContent).toContain(
		REJECT_MARKER,
	);
	expect(read.body!.getElementsByTagNameNS(COMMON_NS, 'referenceNumber')).toHaveLength(0);

	const custom = await fake({
		reject: ({ internalReference }) => (internalReference === 'BAD' ? 'Risk too high' : undefined),
	});
	const bad = await submit(custom, { internalReference: 'BAD' });
	const good = await submit(custom, { internalReference: 'GOOD' });
	custom.clock.advance(DEFAULT_AVAILABLE_AFTER_MS);
	expect([statusOf(custom, bad), statusOf(custom, good)]).toEqual(['REJECTED', 'AVAILABLE']);
	expect(custom.statements()[0].rejectionReason).toBe('Risk too high');
});

test('amend: only AVAILABLE, only within 72 hours of submission, activity type unchanged', async () => {
	const eu = await fake();
	const submitted = await submit(eu);
	expect(codes(await request(eu, 'amendDds', amendBody(submitted)))).toEqual([
		'EUDR_API_AMEND_NOT_ALLOWED_FOR_STATUS',
	]);
	expect(
		codes(await request(eu, 'amendDds', amendBody('9b1c0f5e-1111-4222-8333-444455556666'))),
	).toEqual(['EUDR_API_NO_DDS']);
	eu.clock.advance(DEFAULT_AVAILABLE_AFTER_MS);
	const changed = await request(eu, 'amendDds', amendBody(submitted, { activity: 'DOMESTIC' }));
	expect(changed.fault?.name).toBe('BusinessRulesValidationException');
	expect(codes(changed)).toContain('EUDR_API_AMEND_ACTIVITY_TYPE_CHANGE_NOT_ALLOWED');
	const ok = await request(
		eu,
		'amendDds',
		amendBody(submitted, { internalReference: 'REF-AMENDED' }),
	);
	expect(textIn(ok.body, 'status')).toBe('AVAILABLE');
	expect(eu.statements()[0]).toMatchObject({ internalReferenceNumber: 'REF-AMENDED', version: 2 });
	eu.clock.advance(AMEND_WINDOW_MS - DEFAULT_AVAILABLE_AFTER_MS);
	expect((await request(eu, 'amendDds', amendBody(submitted))).status).toBe(200);
	eu.clock.advance(1);
	expect(codes(await request(eu, 'amendDds', amendBody(submitted)))).toEqual([
		'EUDR_API_AMEND_OR_WITHDRAW_DDS_NOT_POSSIBLE',
	]);
});

test('withdraw: AVAILABLE within 72 hours → WITHDRAWN; then, or after the window, refused', async () => {
	const eu = await fake();
	const a = (await available(eu)).uuid;
	const read = await request(eu, 'withdrawDds', withdrawBody(a));
	expect([textIn(read.body, 'uuid'), textIn(read.body, 'status')]).toEqual([a, 'WITHDRAWN']);
	expect(codes(await request(eu, 'withdrawDds', withdrawBody(a)))).toEqual([
		'EUDR_API_AMEND_OR_WITHDRAW_NOT_ALLOWED_FOR_STATUS',
	]);
	const b = (await available(eu)).uuid;
	eu.clock.advance(AMEND_WINDOW_MS);
	expect(codes(await request(eu, 'withdrawDds', withdrawBody(b)))).toEqual([
		'EUDR_API_AMEND_OR_WITHDRAW_DDS_NOT_POSSIBLE',
	]);
	expect(statusOf(eu, b)).toBe('AVAILABLE');
});

test('withdraw of a SUBMITTED statement: WITHDRAWN, as seen live on V3 acceptance (pack §12), and it stays so; amend of it refused', async () => {
	const eu = await fake();
	const pending = await submit(eu);
	expect(codes(await request(eu, 'amendDds', amendBody(pending)))).toEqual([
		'EUDR_API_AMEND_NOT_ALLOWED_FOR_STATUS',
	]);
	const read = await request(eu, 'withdrawDds', withdrawBody(pending));
	expect([textIn(read.body, 'uuid'), textIn(read.body, 'status')]).toEqual([pending, 'WITHDRAWN']);
	eu.clock.advance(DEFAULT_AVAILABLE_AFTER_MS);
	expect(eu.statements().find((s) => s.uuid === pending)).toMatchObject({
		status: 'WITHDRAWN',
		referenceNumber: null,
	});
});

test('withdrawSubmitted: false refuses a SUBMITTED withdrawal, as the V3 text says (pack §5)', async () => {
	const eu = await fake({ withdrawSubmitted: false });
	const pending = await submit(eu);
	expect(codes(await request(eu, 'withdrawDds', withdrawBody(pending)))).toEqual([
		'EUDR_API_AMEND_OR_WITHDRAW_NOT_ALLOWED_FOR_STATUS',
	]);
	eu.clock.advance(DEFAULT_AVAILABLE_AFTER_MS);
	expect(statusOf(eu, pending)).toBe('AVAILABLE');
});

test('grouping: AVAILABLE statements become GROUPED and are locked; unknown or not available references are refused', async () => {
	const eu = await fake();
	const a = await available(eu);
	const refused = await request(
		eu,
		'submitDds',
		submitBody({ grouped: [a.referenceNumber!, '26FRYUI34JTQKB'] }),
	);
	expect(codes(refused)).toEqual(['EUDR_REFERENCED_STATEMENT_NOT_FOUND']);
	expect(refused.fault?.errors[0].field).toBe('groupedDeclarations[2].groupedDeclaration');
	expect(statusOf(eu, a.uuid)).toBe('AVAILABLE');

	const group = await submit(eu, { grouped: [a.referenceNumber!], producers: [] });
	expect(statusOf(eu, a.uuid)).toBe('GROUPED');
	expect(codes(await request(eu, 'withdrawDds', withdrawBody(a.uuid)))).toEqual([
		'EUDR_API_AMEND_OR_WITHDRAW_DDS_NOT_POSSIBLE',
	]);
	expect(codes(await request(eu, 'amendDds', amendBody(a.uuid)))).toEqual([
		'EUDR_API_AMEND_OR_WITHDRAW_DDS_NOT_POSSIBLE',
	]);
	// a GROUPED statement cannot be grouped again
	expect(
		codes(await request(eu, 'submitDds', submitBody({ grouped: [a.referenceNumber!] }))),
	).toEqual(['EUDR_REFERENCED_STATEMENT_NOT_FOUND']);
	// withdrawing the grouping declaration releases the grouped one
	eu.clock.advance(DEFAULT_AVAILABLE_AFTER_MS);
	expect(textIn((await request(eu, 'withdrawDds', withdrawBody(group))).body, 'status')).toBe(
		'WITHDRAWN',
	);
	expect(statusOf(eu, a.uuid)).toBe('AVAILABLE');
});

test('getDds: unknown uuids omitted by default, NotFoundException by option; ≤ 100 uuids (schema)', async () => {
	const eu = await fake();
	const uuid = await submit(eu);
	const unknown = '9b1c0f5e-1111-4222-8333-444455556666';
	const read = await request(eu, 'getDds', getDdsBody([uuid, unknown]));
	expect(read.body!.getElementsByTagNameNS(COMMON_NS, 'uuid')).toHaveLength(1);
	const tooMany = await request(eu, 'getDds', getDdsBody(Array.from({ length: 101 }, () => uuid)));
	expect(tooMany.fault?.string).toMatch(/Unmarshalling Error/);
	const strict = await fake({ notFoundFaultOnGet: true });
	const nf = await request(strict, 'getDds', getDdsBody([unknown]));
	expect(nf.fault).toMatchObject({ name: 'NotFoundException', code: 'S:Client' });
});

test('getDdsByInternalReference: case-insensitive substring, ≤ 100 results, none → empty or NotFoundException', async () => {
	const eu = await fake();
	await submit(eu, { internalReference: 'PO-2026-ALPHA' });
	await submit(eu, { internalReference: 'po-2026-beta' });
	await submit(eu, { internalReference: 'OTHER' });
	const read = await request(eu, 'getDdsByInternalReference', byReferenceBody('2026'));
	expect(
		[...read.body!.getElementsByTagNameNS(COMMON_NS, 'internalReferenceNumber')].map(
			(e) => e.textContent,
		),
	).toEqual(['PO-2026-ALPHA', 'po-2026-beta']);
	const none = await request(eu, 'getDdsByInternalReference', byReferenceBody('nothing'));
	expect(none.body!.getElementsByTagNameNS(COMMON_NS, 'uuid')).toHaveLength(0);
	for (let i = 0; i < 101; i++) eu.statements().push({ ...eu.statements()[0], uuid: `copy-${i}` });
	const capped = await request(eu, 'getDdsByInternalReference', byReferenceBody('ALPHA'));
	expect(capped.body!.getElementsByTagNameNS(COMMON_NS, 'uuid')).toHaveLength(100);
	const strict = await fake({ notFoundFaultOnEmptySearch: true });
	expect(
		(await request(strict, 'getDdsByInternalReference', byReferenceBody('nothing'))).fault?.name,
	).toBe('NotFoundException');
});

test('getDdsByIdentifiers: AVAILABLE only; number errors; hyphenated codes by option', async () => {
	const eu = await fake();
	const a = await available(eu);
	const ok = await request(
		eu,
		'getDdsByIdentifiers',
		byIdentifiersBody(a.referenceNumber!, a.verificationNumber!),
	);
	expect(ok.body?.localName).toBe('GetDdsByIdentifiersResponse');
	expect(
		codes(await request(eu, 'getDdsByIdentifiers', byIdentifiersBody('', a.verificationNumber!))),
	).toEqual(['EUDR_NUMBER_EMPTY']);
	expect(
		codes(
			await request(eu, 'getDdsByIdentifiers', byIdentifiersBody('26fr', a.verificationNumber!)),
		),
	).toEqual(['EUDR_REFERENCE_NUMBER_INVALID']);
	const wrong = await request(
		eu,
		'getDdsByIdentifiers',
		byIdentifiersBody(a.referenceNumber!, 'ZZZZZZZZ'),
	);
	expect(wrong.fault?.name).toBe('NotFoundException');
	expect(codes(wrong)).toEqual(['EUDR_WEBSERVICE_STATEMENT_NOT_FOUND']);
	await request(eu, 'withdrawDds', withdrawBody(a.uuid));
	expect(
		(
			await request(
				eu,
				'getDdsByIdentifiers',
				byIdentifiersBody(a.referenceNumber!, a.verificationNumber!),
			)
		).fault?.name,
	).toBe('NotFoundException');

	const hyphen = await fake({ codeStyle: 'hyphen' });
	expect(
		codes(await request(hyphen, 'getDdsByIdentifiers', byIdentifiersBody('26fr', 'AAAAAAAA'))),
	).toEqual(['EUDR-REFERENCE-NUMBER-INVALID']);
});

test('statements of another operator are not visible', async () => {
	const eu = await fake({
		users: [{ username: 'a' }, { username: 'b', key: 'b-key', clientId: 'eudr-test' }],
	});
	const uuid = await submit(eu);
	const asB = await request(eu, 'getDds', getDdsBody([uuid]), { username: 'b', key: 'b-key' });
	expect(asB.body!.getElementsByTagNameNS(COMMON_NS, 'uuid')).toHaveLength(0);
	expect(
		codes(await request(eu, 'withdrawDds', withdrawBody(uuid), { username: 'b', key: 'b-key' })),
	).toEqual(['EUDR_API_NO_DDS']);
});
