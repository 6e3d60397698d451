/**
 * submitOnce over loopback HTTP with a scripted EU answer per operation (the node's
 * integration tests run it against the EU fake): the lookup before sending, If Already Filed,
 * and after a lost answer the lookup before anything is said, never a second submission.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { FILED_BY, submitOnce } from '../../../nodes/shared/dds/submitOnce';
import type { SubmitOnce } from '../../../nodes/shared/dds/submitOnce';
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

describe('submitOnce', () => {
	it('looks the reference up, then files; substring and case-different matches do not count', async () => {
		script([[overview('other', 'po-42', 'AVAILABLE'), overview('x', 'PO-421', 'AVAILABLE')]], 'ok');
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

	it('after a lost answer with nothing found, says it did not arrive and that running again is safe', async () => {
		script([[], []], 'lost');
		const error = (await submitOnce(ctx, order()).catch((e: unknown) => e)) as Error & {
			description: string;
		};
		expect(error.message).toBe(
			'The statement "PO-42" (items 0, 1) was not filed: its submission got no answer, and the EU Information System shows no statement with this Internal Reference now',
		);
		expect(error.description).toMatch(/did not arrive\. Running the workflow again is safe/);
		expect(`${error.message} ${error.description}`).not.toContain(KEY);
		expect(submissions()).toBe(1);
	});
});
