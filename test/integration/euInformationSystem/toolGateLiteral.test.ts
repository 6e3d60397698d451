/**
 * "Allow Filing Statements" is the user's alone (issue 36), through n8n's engine against the EU
 * fake: a tool saved with a write and the setting as `$fromAI(…)` (the model asked for it) or
 * as an expression (`={{ true }}`) refuses before any request, saying why, even though n8n
 * resolves both to true; only a literal true saved in the workflow files.
 *
 * The model's arguments: n8n gives a tool call's arguments to the tool as its input item, and
 * `$fromAI('name', …)` reads them from there (the first test shows it in this harness).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { resetEuRateLimit } from '../../../nodes/shared/transport/euRateLimit';
import { useFakeEu } from '../../helpers/fakeEu';
import {
	ddsParameters,
	ddsPlotRow as ddsRow,
	euStore,
	jsonOf,
	runEuTool,
	sdParameters,
	sdPlotRow as sdRow,
} from './helpers';

const eu = useFakeEu({ ratePerSecond: 0 });
const store = () => euStore(eu.fake.url, eu.fake.users[0]);

beforeEach(() => {
	resetEuRateLimit();
	eu.fake.faults.clear();
});

const FROM_AI =
	"={{ $fromAI('allowFilingStatements', 'Whether this tool may file the statement', 'boolean') }}";
const EXPRESSION_TRUE = '={{ true }}';

const UUID = '5a4c0c0b-4d9a-4a43-9c3e-2f3c1e1d0b9a';

/** Every write of both resources, saved with what it needs (the refusal comes first anyway). */
const writes: Array<[string, string, INodeParameters, IDataObject]> = [
	['dueDiligenceStatement', 'submit', ddsParameters(), ddsRow('GATE-DDS-SUB-1')],
	[
		'dueDiligenceStatement',
		'amend',
		ddsParameters({ operation: 'amend', uuid: UUID }),
		ddsRow('X'),
	],
	['dueDiligenceStatement', 'withdraw', { operation: 'withdraw', uuid: UUID }, {}],
	['simplifiedDeclaration', 'submit', sdParameters(), sdRow('GATE-SD-SUB-1')],
	[
		'simplifiedDeclaration',
		'update',
		sdParameters({ operation: 'update', uuid: UUID }),
		sdRow('Y'),
	],
	['simplifiedDeclaration', 'withdraw', sdParameters({ operation: 'withdraw', uuid: UUID }), {}],
];

describe('"Allow Filing Statements" is a literal: the model and expressions cannot switch it on (EU fake)', () => {
	it("the harness gives $fromAI the tool call's arguments, as n8n does (the model's true would arrive)", async () => {
		const result = await runEuTool({
			parameters: {
				operation: 'getByInternalReference',
				internalReference: "={{ $fromAI('internalReference', 'The reference', 'string') }}",
			},
			input: [{ internalReference: 'GATE-NOT-FILED-1' }],
			store: store(),
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([]);
		// the node read the model's value: a reference of 3 to 50 characters, looked up once
		expect(eu.fake.requests().at(-1)?.operation).toBe('getDdsByInternalReference');
	});

	describe.each([
		['$fromAI (the model passes true)', FROM_AI],
		['an expression that is true', EXPRESSION_TRUE],
		// n8n 2.x drops the "=" of a noDataExpression parameter's expression before the node runs
		['an expression as n8n 2.x hands it to the node', '{{ true }}'],
	])('the setting as %s', (_label, setting) => {
		it.each(writes)(
			'%s → %s is refused before any request, saying why',
			async (resource, operation, parameters, row) => {
				const before = eu.fake.requests().length;
				const statements = eu.fake.statements().length;
				const result = await runEuTool({
					parameters: { ...parameters, resource, [`allowFilingStatements`]: setting },
					// the tool call's arguments: the model asks for the setting
					input: [{ ...row, allowFilingStatements: true }],
					store: store(),
				});
				expect(result.error?.message).toBe(
					`Item 0, field "Allow Filing Statements": it is set by an expression (or "defined automatically by the model"), so this AI Agent tool may not ${operation} statements: that files a statement with legal value, which only a person may allow, never an expression or the model. Switch "Allow Filing Statements" on in this tool node itself (a plain on, not an expression) if the agent is meant to ${operation} statements, or choose an operation that reads.`,
				);
				expect(result.error?.description).toMatch(/^Nothing was sent to the service\./);
				// the fake EU's log: no request at all, so no write; nothing filed
				expect(eu.fake.requests().slice(before)).toEqual([]);
				expect(eu.fake.statements()).toHaveLength(statements);
			},
		);
	});

	it('with Continue On Fail (what an agent reads), each item gets the refusal and nothing is sent', async () => {
		const before = eu.fake.requests().length;
		const result = await runEuTool({
			parameters: { ...ddsParameters(), allowFilingStatements: FROM_AI },
			input: [
				{ ...ddsRow('GATE-COF-1'), allowFilingStatements: true },
				{ ...ddsRow('GATE-COF-2'), allowFilingStatements: true },
			],
			store: store(),
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => i.json.error)).toEqual([
			expect.stringMatching(/^Item 0, field "Allow Filing Statements": it is set by an expression/),
			expect.stringMatching(/^Item 1, field "Allow Filing Statements": it is set by an expression/),
		]);
		// never told to supply the setting as a tool input: the model may not switch it on
		expect(JSON.stringify(result.items)).not.toMatch(/tool input/);
		expect(eu.fake.requests().slice(before)).toEqual([]);
	});

	it.each([
		['dueDiligenceStatement', ddsParameters(), ddsRow('GATE-DDS-LIT-1'), 'submitDds'],
		['simplifiedDeclaration', sdParameters(), sdRow('GATE-SD-LIT-1'), 'submitSd'],
	])(
		'%s → submit with the setting a literal true files (once)',
		async (resource, parameters, row, submitted) => {
			const before = eu.fake.requests().length;
			const result = await runEuTool({
				parameters: { ...parameters, resource, allowFilingStatements: true },
				input: [row],
				store: store(),
			});
			expect(result.error).toBeUndefined();
			expect(jsonOf(result)).toEqual([
				expect.objectContaining({ internalReferenceNumber: row.ref, filedBy: 'this run' }),
			]);
			const sent = eu.fake.requests().slice(before);
			expect(sent.filter((r) => r.operation === submitted)).toHaveLength(1);
			expect(
				eu.fake.statements().filter((s) => s.internalReferenceNumber === row.ref),
			).toHaveLength(1);
		},
	);
});
