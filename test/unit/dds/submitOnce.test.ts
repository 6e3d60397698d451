/**
 * submitOnce over loopback HTTP with a scripted EU answer per operation (the node's
 * integration tests run it against the EU fake): the lookup before sending, If Already Filed,
 * and after a lost answer the lookup before anything is said, never a second submission.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { resetSubmitMemory } from '../../../nodes/shared/dds/submitMemory';
import { FILED_BY, submitOnce } from '../../../nodes/shared/dds/submitOnce';
import type { SubmitOnce } from '../../../nodes/shared/dds/submitOnce';
import { LOOK_AGAIN_DELAYS_MS, setSubmitTiming } from '../../../nodes/shared/dds/submitTiming';
import type { Loopback, SeenRequest } from '../../helpers/loopback';
import { useEuLoopback } from '../../helpers/euLoopback';
import { plainHttp } from '../../helpers/plainHttp';

const KEY = ['submit', 'once', 'value-0123456789'].join('-');
const DDS = 'http://ec.europa.eu/tracesnt/certificate/eudr/due-diligence-statement/v3';
const COMMON = 'http://ec.europa.eu/tracesnt/certificate/eudr/common/v3';
const SOAP = (body: string) =>
	`<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body>${body}</S:Body></S:Envelope>`;
const overview = (uuid: string, ref: string, status: string) =>
	`<d:ddsOverviewList><c:uuid>${uuid}</c:uuid><c:internalReferenceNumber>${ref}</c:internalReferenceNumber><c:status>${status}</c:status></d:ddsOverviewList>`;
const listAnswer = (entries: string[]) =>
	SOAP(
		`<d:GetDdsByInternalReferenceResponse xmlns:d="${DDS}" xmlns:c="${COMMON}">${entries.join('')}</d:GetDdsByInternalReferenceResponse>`,
	);
const submitAnswer = (uuid: string) =>
	SOAP(`<d:SubmitDdsResponse xmlns:d="${DDS}"><d:uuid>${uuid}</d:uuid></d:SubmitDdsResponse>`);

let server: Loopback;
const { httpRequest } = plainHttp();

const operationOf = (r: SeenRequest) =>
	String(r.headers.soapaction ?? '')
		.replace(/^"|"$/g, '')
		.split('/')
		.pop();

/** Scripted answers: lookups answer from `lookups` in turn; submit as `submit` says. */
function script(lookups: string[][], submit: 'ok' | 'lost') {
	let lookup = 0;
	server.handle((req, res) => {
		const op = operationOf(req);
		if (op === 'getDdsByInternalReference') {
			res.writeHead(200, { 'Content-Type': 'text/xml' });
			res.end(listAnswer(lookups[Math.min(lookup++, lookups.length - 1)]));
		} else if (op === 'submitDds' && submit === 'ok') {
			res.writeHead(200, { 'Content-Type': 'text/xml' });
			res.end(submitAnswer('new-uuid'));
		} else res.destroy();
	});
}

const ctx = {
	helpers: { httpRequest },
	getNode: () => ({ name: 'EU', type: 'eu', typeVersion: 1, position: [0, 0], parameters: {} }),
	getNodeParameter: (_n: string, _i: number, fallback: unknown) => fallback,
	getCredentials: async () => ({
		environment: 'custom',
		customUrl: `${server.url}/tracesnt`,
		username: 'user1',
		authKey: KEY,
		clientId: 'eudr-test',
	}),
} as unknown as IExecuteFunctions;

const order = (over: Partial<SubmitOnce> = {}): SubmitOnce => ({
	internalReference: 'PO-42',
	body: `<d:SubmitDdsRequest xmlns:d="${DDS}"/>`,
	itemIndex: 0,
	ifAlreadyFiled: 'returnExisting',
	simplify: true,
	itemsLabel: 'items 0, 1',
	...over,
});

const submissions = () => server.requests.filter((r) => operationOf(r) === 'submitDds').length;

useEuLoopback((s) => (server = s));

/** The waits of the look-again window, recorded instead of waited (no test waits real time). */
let waited: number[] = [];
beforeEach(() => {
	resetSubmitMemory();
	waited = [];
	let now = Date.parse('2026-12-06T12:00:00Z');
	setSubmitTiming({
		now: () => now,
		sleep: async (ms: number) => {
			waited.push(ms);
			now += ms;
		},
	});
});
afterAll(() => setSubmitTiming());

describe('submitOnce', () => {
	it('looks the reference up, then files; substring matches do not count', async () => {
		script(
			[[overview('other', 'PO-420', 'AVAILABLE'), overview('x', 'PO-421', 'AVAILABLE')]],
			'ok',
		);
		const out = await submitOnce(ctx, order());
		expect(out).toEqual([
			expect.objectContaining({
				uuid: 'new-uuid',
				status: 'SUBMITTED',
				internalReferenceNumber: 'PO-42',
				filedBy: FILED_BY.now,
			}),
		]);
		expect(server.requests.map(operationOf)).toEqual(['getDdsByInternalReference', 'submitDds']);
	});

	it('returns the statement already filed instead of filing again (rejected or withdrawn ones do not count)', async () => {
		script([[overview('old', 'PO-42', 'REJECTED'), overview('kept', 'PO-42', 'AVAILABLE')]], 'ok');
		const out = await submitOnce(ctx, order());
		expect(out).toEqual([expect.objectContaining({ uuid: 'kept', filedBy: FILED_BY.earlier })]);
		expect(submissions()).toBe(0);
	});

	it('fails naming the UUID, status and reference number with If Already Filed: Fail', async () => {
		script([[overview('kept', 'PO-42', 'SUBMITTED')]], 'ok');
		await expect(submitOnce(ctx, order({ ifAlreadyFiled: 'fail' }))).rejects.toThrow(
			'A statement with Internal Reference "PO-42" (items 0, 1) is already filed: UUID kept, status SUBMITTED, reference number (none yet)',
		);
		expect(submissions()).toBe(0);
	});

	it('after a lost answer, outputs the statement the EU shows now, marked as recovered, sent once', async () => {
		script([[], [overview('arrived', 'PO-42', 'SUBMITTED')]], 'lost');
		const out = await submitOnce(ctx, order());
		expect(out).toEqual([
			expect.objectContaining({ uuid: 'arrived', filedBy: FILED_BY.recovered }),
		]);
		expect(submissions()).toBe(1);
	});

	it('a lost answer whose lookups come back capped without the reference: not known, the cap named', async () => {
		const capped = Array.from({ length: 100 }, (_, i) =>
			overview(`o-${i}`, `PO-42-${i}`, 'AVAILABLE'),
		);
		script([[], capped], 'lost');
		const error = (await submitOnce(ctx, order()).catch((e: unknown) => e)) as Error & {
			description: string;
		};
		expect(error.message).toBe(
			'It is not known whether the statement "PO-42" (items 0, 1) was filed: its submission got no answer, and the lookup cannot show it: the EU lists at most 100 statements whose Internal Reference contains "PO-42", and at least that many do',
		);
		expect(error.description).toMatch(/check in TRACES/);
		// a capped answer stays capped: no waiting for more lookups
		expect(waited).toEqual([]);
		expect(submissions()).toBe(1);
	});

	it('a standing statement whose reference differs only in letter case is refused before sending', async () => {
		script([[overview('other', 'po-42', 'AVAILABLE'), overview('x', 'PO-421', 'AVAILABLE')]], 'ok');
		const error = (await submitOnce(ctx, order()).catch((e: unknown) => e)) as Error & {
			description: string;
		};
		expect(error.message).toBe(
			'Not sent: the Internal Reference "PO-42" (items 0, 1) differs only in letter case from "po-42", a statement already filed (UUID other, status AVAILABLE, reference number (none yet))',
		);
		expect(error.description).toMatch(/^Nothing was sent\. .*does not tell letter case apart/);
		expect(submissions()).toBe(0);
	});

	it('after a lost answer with nothing found over the look-again window, says it is NOT known (never "running again is safe")', async () => {
		script([[], []], 'lost');
		const error = (await submitOnce(ctx, order()).catch((e: unknown) => e)) as Error & {
			description: string;
		};
		expect(error.message).toBe(
			'It is not known whether the statement "PO-42" (items 0, 1) was filed: its submission got no answer, and the EU Information System did not list it in 5 lookups over 60 s',
		);
		expect(error.description).toMatch(/Nothing was sent again\. The EU's lookups can lag/);
		expect(error.description).toMatch(/after 2026-12-06 12:30 UTC/);
		expect(error.description).not.toMatch(/safe/);
		expect(waited).toEqual(LOOK_AGAIN_DELAYS_MS.filter((ms) => ms > 0));
		expect(`${error.message} ${error.description}`).not.toContain(KEY);
		expect(submissions()).toBe(1);
		expect(server.requests.map(operationOf).filter((op) => op !== 'submitDds')).toHaveLength(6);
	});
});
