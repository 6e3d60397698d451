/**
 * The filing gate through n8n's engine against the EU fake: the node's tool variant (what n8n
 * makes of a usableAsTool node: its type named "…Tool", as the agent runs it) refuses a write
 * before any request unless "Allow Filing Statements" is on, and reads as it is; the node
 * itself (not a tool) is not gated.
 */
import { resetEuRateLimit } from '../../../nodes/shared/transport/euRateLimit';
import { runNode } from '../../helpers/engine';
import { useFakeEu } from '../../helpers/fakeEu';
import { EU_CREDENTIAL, EU_TOOL_TYPE, euStore, keyLeaks, runEu } from './helpers';

const UUID = '5a4c0c0b-4d9a-4a43-9c3e-2f3c1e1d0b9a';

describe('the EU Information System node as an AI Agent tool (EU fake)', () => {
	const eu = useFakeEu({ ratePerSecond: 0 });
	beforeEach(() => resetEuRateLimit());
	const store = () => euStore(eu.fake.url, eu.fake.users[0]);
	const runTool = async (parameters: Record<string, unknown>) =>
		await runNode({
			parameters: { resource: 'dueDiligenceStatement', ...parameters },
			nodeType: EU_TOOL_TYPE,
			credentialType: EU_CREDENTIAL,
			typeVersion: 1,
			store: store(),
		});

	// The statement's required fields filled, as n8n wants them before it runs a node at all.
	const statement = { hsHeading: '1801', descriptionOfGoods: 'Cocoa beans' };
	it.each([
		['withdraw', { uuid: UUID }],
		['amend', { uuid: UUID, ...statement }],
		['submit', statement],
	])(
		'a tool saved with %s and the setting off refuses before any request, naming the setting',
		async (operation, fields) => {
			const before = eu.fake.requests().length;
			const result = await runTool({ operation, ...fields });
			expect(result.error?.message).toBe(
				`Item 0, field "Allow Filing Statements": it is off, so this AI Agent tool may not ${operation} statements: that files a statement with legal value. Turn "Allow Filing Statements" on in this tool node if the agent is meant to ${operation} statements, or choose an operation that reads.`,
			);
			expect(result.error?.description).toMatch(/^Nothing was sent to the service\./);
			expect(eu.fake.requests().length).toBe(before);
			expect(keyLeaks(result, eu.fake.users[0].key)).toEqual([]);
		},
	);

	it('with Continue On Fail, each item gets the refusal as an error item (what an agent reads)', async () => {
		const before = eu.fake.requests().length;
		const result = await runNode({
			parameters: { resource: 'dueDiligenceStatement', operation: 'withdraw', uuid: UUID },
			input: [{}, {}],
			nodeType: EU_TOOL_TYPE,
			credentialType: EU_CREDENTIAL,
			typeVersion: 1,
			store: store(),
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => [i.json.error, i.pairedItem])).toEqual([
			[expect.stringMatching(/^Item 0, field "Allow Filing Statements": it is off/), { item: 0 }],
			[expect.stringMatching(/^Item 1, field "Allow Filing Statements": it is off/), { item: 1 }],
		]);
		expect(eu.fake.requests().length).toBe(before);
	});

	it('with the setting on, a write goes ahead (here: Withdraw looks the statement up first)', async () => {
		const before = eu.fake.requests().length;
		const result = await runTool({
			operation: 'withdraw',
			uuid: UUID,
			allowFilingStatements: true,
		});
		expect(result.error?.message ?? '').not.toMatch(/Allow Filing Statements/);
		expect(eu.fake.requests().length).toBeGreaterThan(before);
	});

	it('a read works as a tool without the setting', async () => {
		const before = eu.fake.requests().length;
		const result = await runTool({
			operation: 'getByInternalReference',
			internalReference: 'NONE-1',
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => i.json)).toEqual([]);
		expect(eu.fake.requests().length).toBe(before + 1);
	});

	it('the node itself (not a tool) is not gated', async () => {
		const before = eu.fake.requests().length;
		const result = await runEu({
			parameters: { operation: 'withdraw', uuid: UUID },
			store: store(),
		});
		expect(result.error?.message ?? '').not.toMatch(/Allow Filing Statements/);
		expect(eu.fake.requests().length).toBeGreaterThan(before);
	});
});
