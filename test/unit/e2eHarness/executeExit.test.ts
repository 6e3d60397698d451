/**
 * The e2e harness (test/e2e/n8n.js) counts an `n8n execute` that n8n itself crashed in its
 * teardown (SIGSEGV, seen on n8n 2.40.7 / Node 24) as run only when the complete, successful
 * run was printed first; everything else is still a failure.
 */
const { crashedAfterCompleteRun, extractRunJson } = require('../../e2e/n8n.js') as {
	crashedAfterCompleteRun(r: { code: number | null; signal: string | null }, run: unknown): boolean;
	extractRunJson(text: string): unknown;
};

const complete = { finished: true, status: 'success', data: { resultData: { runData: {} } } };
const printed = (run: object) => `log line\n${JSON.stringify(run, null, 2)}\n`;

describe('an n8n execute that ends by a signal', () => {
	it('counts SIGSEGV after a complete, successful run as n8n’s own exit', () => {
		const run = extractRunJson(printed(complete));
		expect(crashedAfterCompleteRun({ code: null, signal: 'SIGSEGV' }, run)).toBe(true);
		expect(crashedAfterCompleteRun({ code: null, signal: 'SIGABRT' }, run)).toBe(true);
	});

	it('fails a crash before the run was printed in full', () => {
		const text = printed(complete);
		const cut = text.slice(0, text.length - 5);
		expect(extractRunJson(cut)).toBeUndefined();
		expect(crashedAfterCompleteRun({ code: null, signal: 'SIGSEGV' }, extractRunJson(cut))).toBe(
			false,
		);
	});

	it('fails a run that is not a finished success', () => {
		for (const run of [
			{ ...complete, finished: false },
			{ ...complete, status: 'error' },
			{ ...complete, data: { resultData: { runData: {}, error: { message: 'x' } } } },
		])
			expect(crashedAfterCompleteRun({ code: null, signal: 'SIGSEGV' }, run)).toBe(false);
	});

	it('fails the harness’s own timeout (SIGKILL), SIGTERM and a non-zero exit code', () => {
		expect(crashedAfterCompleteRun({ code: null, signal: 'SIGKILL' }, complete)).toBe(false);
		expect(crashedAfterCompleteRun({ code: null, signal: 'SIGTERM' }, complete)).toBe(false);
		expect(crashedAfterCompleteRun({ code: 1, signal: null }, complete)).toBe(false);
	});
});
