/**
 * Answers no EU Information System sends, through n8n's engine in a child process with a
 * 512 MB heap (boundedEuRun.ts), against the EU fake with the answer injected (answerNext):
 * - huge answers (100, 400 and 700 MB, streamed as the node reads them, or announced by their
 *   Content-Length) end in an error naming the limit, never in "could not be reached" or "a web
 *   page instead of SOAP", with the child's heap far below the answer's size;
 * - a submission whose answer is that large arrived: the statement is found by the lookup
 *   that follows and output once, never filed again;
 * - a fault of 3,000 errors of 1 KB gives an error of its first codes and the count of the
 *   others (not 3 MB), and a small run.
 * The child never dies (outcome `done`), and the key appears nowhere.
 */
import { EU_MAX_ANSWER_BYTES } from '../../../nodes/shared/transport/euAnswer';
import { MAX_FAULT_ERRORS } from '../../../nodes/shared/soap/soapAnswer';
import type { BoundedEuRuns } from '../../helpers/boundedEuRun';
import { runEuInBoundedChild } from '../../helpers/boundedEuRun';
import { useFakeEu } from '../../helpers/fakeEu';
import { ddsSubmitParameters, squarePlot } from './helpers';

const MB = 1_000_000;
const UUID = '00000000-0000-4000-8000-000000000001';
const LIMIT = '32,000,000 bytes';
/** Heap the child may hold at the end: well below the smallest hostile answer (100 MB). */
const HEAP_BOUND = 200 * 1024 * 1024;

const eu = useFakeEu({ ratePerSecond: 0 });

const FAULT_ERRORS = 3000;
/** A business-rules fault of `n` errors of about 1 KB each. */
function faultOf(n: number): string {
	const errors = Array.from(
		{ length: n },
		(_, i) =>
			`<e:Error><e:ID>EUDR_TEST_CODE_${i}</e:ID><e:Message>${`problem ${i} `.padEnd(1000, 'x')}</e:Message><e:Field>commodities[${i}]</e:Field></e:Error>`,
	).join('');
	return (
		`<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body><S:Fault><faultcode>S:Client</faultcode>` +
		`<faultstring>Some business rules are not met</faultstring><detail><ns5:BusinessRulesValidationException xmlns:ns5="http://ec.europa.eu/tracesnt/certificate/eudr/due-diligence-statement/v3" xmlns:e="http://ec.europa.eu/sanco/tracesnt/error/v01">${errors}</ns5:BusinessRulesValidationException></detail></S:Fault></S:Body></S:Envelope>`
	);
}

const getRun = { parameters: { operation: 'get', uuids: UUID } };
const submitRun = {
	parameters: ddsSubmitParameters('po'),
	input: [
		{
			po: 'HUGE-ANSWER-1',
			producer: 'Coop A',
			country: 'CI',
			geometry: squarePlot(-5.3, 6.5),
		},
	],
};

/** The hostile answers, in the order the runs meet them (one child runs them all). */
const STREAMED = [100, 400, 700];
let runs: BoundedEuRuns;

beforeAll(async () => {
	eu.fake.faults.clear();
	for (const size of STREAMED) eu.fake.faults.answerNext('getDds', { streamBytes: size * MB });
	eu.fake.faults.answerNext('getDds', { streamBytes: 400 * MB, contentLength: true });
	eu.fake.faults.answerNext('getDds', { status: 500, body: faultOf(FAULT_ERRORS) });
	eu.fake.faults.answerNext('submitDds', { streamBytes: 400 * MB, afterProcessing: true });
	runs = await runEuInBoundedChild({
		url: eu.fake.url,
		user: eu.fake.users[0],
		runs: [getRun, getRun, getRun, getRun, getRun, submitRun],
	});
}, 240_000);

describe('in a child process with a 512 MB heap', () => {
	it('never dies, and the key appears in no run', () => {
		expect(runs.stderr).toBeUndefined();
		expect(runs.results.map((r) => r.outcome)).toEqual(Array(6).fill('done'));
		for (const r of runs.results) expect(r.leaks).toEqual([]);
	});
});

describe('an answer larger than the limit', () => {
	it('states the limit it reads up to (a little over the EU 25 MB message limit)', () => {
		expect(EU_MAX_ANSWER_BYTES).toBe(32 * MB);
	});

	it.each(STREAMED.map((size, i) => [size, i]))(
		'%i MB streamed: abandoned at the limit, with an error naming it',
		(size, i) => {
			const result = runs.results[i];
			expect(result.error?.message).toContain(`larger than ${LIMIT}`);
			expect(result.error?.message).toContain('nothing past that was read');
			expect(result.error?.message).not.toMatch(/could not be reached|web page|Cannot create/);
			expect(result.heapUsed).toBeLessThan(HEAP_BOUND);
			expect(
				eu.fake
					.requests()
					.filter((r) => r.operation === 'getDds' && r.outcome === `stream-${size * MB}`),
			).toHaveLength(
				size === 400 ? 2 : 1, // 400 MB: this one and the announced one
			);
		},
	);

	it('announced by its Content-Length: refused before reading', () => {
		const result = runs.results[3];
		expect(result.error?.message).toContain(`larger than ${LIMIT}`);
		expect(result.error?.message).toContain('it announced 400,000,000 bytes, and was not read');
		expect(result.heapUsed).toBeLessThan(HEAP_BOUND);
	});

	it('is not retried: one call per run, however idempotent', () => {
		expect(eu.fake.requests().filter((r) => r.operation === 'getDds')).toHaveLength(5);
	});

	it('to a submission: the statement arrived, is found by the lookup and output once', () => {
		const result = runs.results[5];
		expect(result.error).toBeUndefined();
		const filed = eu.fake.statements().filter((s) => s.internalReferenceNumber === 'HUGE-ANSWER-1');
		expect(filed).toHaveLength(1);
		expect(result.items).toEqual([
			expect.objectContaining({
				uuid: filed[0].uuid,
				internalReferenceNumber: 'HUGE-ANSWER-1',
				filedBy: 'this run, answer lost',
			}),
		]);
		expect(eu.fake.requests().filter((r) => r.operation === 'submitDds')).toHaveLength(1);
		expect(result.heapUsed).toBeLessThan(HEAP_BOUND);
	});
});

describe('a fault of 3,000 errors of 1 KB', () => {
	it('keeps the first codes and says how many more there were', () => {
		expect(faultOf(FAULT_ERRORS).length).toBeGreaterThan(3 * MB);
		const message = runs.results[4].error?.message ?? '';
		for (let i = 0; i < MAX_FAULT_ERRORS; i++) expect(message).toContain(`EUDR_TEST_CODE_${i}:`);
		expect(message).not.toContain(`EUDR_TEST_CODE_${MAX_FAULT_ERRORS}:`);
		expect(message).toContain(
			`and ${FAULT_ERRORS - MAX_FAULT_ERRORS} more errors not shown (the first ${MAX_FAULT_ERRORS} are above)`,
		);
		expect(message.length).toBeLessThan(20_000);
		// the whole run (items, error with its stack, run data) stays small: not 18 MB
		expect(runs.results[4].runBytes).toBeLessThan(200_000);
	});
});
