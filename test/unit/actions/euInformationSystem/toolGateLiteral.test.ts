/**
 * "Allow Filing Statements" is the user's alone (issue 36), computed with n8n-workflow's own
 * helpers (those the editor and the engine use):
 * - the setting carries what n8n's editor reads to offer neither the expression toggle nor the
 *   "let the model define this" ($fromAI) button: `noDataExpression` (editor 1.x and 2.x:
 *   fromAIOverrideUtils.canBeContentOverride returns `!parameter.noDataExpression`, and
 *   ParameterOptions shows the expression selector only `!parameter.noDataExpression`);
 * - a tool saved with a write while the setting is not a literal on has a parameter issue (what
 *   the canvas shows) and a notice (the panel), in the words of the run's refusal;
 * - nothing changes for saved workflows (same default; nothing new stored).
 */
import type { INode, INodeParameters, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { EuInformationSystem } from '../../../../nodes/EuInformationSystem/EuInformationSystem.node';
import {
	FILING_ISSUE,
	FILING_NOTICE,
	filingNotice,
	filingSwitchOf,
} from '../../../../nodes/EuInformationSystem/v1/actions/filingSwitch';
import { resources } from '../../../../nodes/EuInformationSystem/v1/actions/router';
import {
	ALLOW_FILING,
	isWriteOperation,
} from '../../../../nodes/EuInformationSystem/v1/actions/toolGate';

const node = (description: INodeTypeDescription, parameters: INodeParameters): INode => ({
	id: '1',
	name: 'EU',
	type: `n8n-nodes-geospatial-analysis.${description.name}`,
	typeVersion: 1,
	position: [0, 0],
	parameters,
});

/** The node's parameters as the editor and the engine hold them (defaults filled in). */
function withDefaults(description: INodeTypeDescription, saved: INodeParameters): INodeParameters {
	return NodeHelpers.getNodeParameters(
		description.properties,
		saved,
		true,
		false,
		node(description, saved),
		description,
	) as INodeParameters;
}

/**
 * The node's parameter issues about filing, as the editor computes them for the canvas (the
 * others: required fields left empty in these bare examples).
 */
function issues(description: INodeTypeDescription, saved: INodeParameters): string[] {
	const parameters = withDefaults(description, saved);
	const found = NodeHelpers.getNodeParametersIssues(
		description.properties,
		node(description, parameters),
		description,
	);
	const all = Object.values(found?.parameters ?? {}).flat();
	expect(all.filter((text) => /Filing/.test(text))).toEqual(
		found?.parameters?.[FILING_ISSUE] ?? [],
	);
	return found?.parameters?.[FILING_ISSUE] ?? [];
}

/** The notices shown for these saved values (n8n-workflow's display rules, raw values). */
function notices(description: INodeTypeDescription, saved: INodeParameters): string[] {
	const parameters = withDefaults(description, saved);
	return description.properties
		.filter((p) => p.name === FILING_NOTICE)
		.filter((p) =>
			NodeHelpers.displayParameter(parameters, p, node(description, parameters), description),
		)
		.map((p) => p.displayName);
}

const operations = Object.entries(resources).flatMap(([resource, module]) =>
	Object.keys(module.operations).map((operation) => ({ resource, operation })),
);
const writes = operations.filter((o) => isWriteOperation(o.resource, o.operation));
const reads = operations.filter((o) => !isWriteOperation(o.resource, o.operation));

const FROM_AI = "={{ $fromAI('Allow_Filing_Statements', ``, 'boolean') }}";

// both versions: 1 (saved workflows) and 1.1 (new nodes) gate alike
describe.each([1, 1.1])('node version %s', (version) => {
	const v1 = new EuInformationSystem().nodeVersions[version].description as INodeTypeDescription;
	const tool = structuredClone(v1);
	tool.name += 'Tool';
	tool.displayName += ' Tool';
	delete tool.usableAsTool;

	describe('"Allow Filing Statements" is a literal (what n8n reads)', () => {
		it('carries noDataExpression (no expression toggle, no $fromAI button), a boolean off by default', () => {
			const settings = [...v1.properties, ...tool.properties].filter(
				(p) => p.name === ALLOW_FILING,
			);
			expect(settings.length).toBeGreaterThan(0);
			for (const setting of settings)
				expect(setting).toMatchObject({
					type: 'boolean',
					default: false,
					noDataExpression: true,
					displayOptions: { show: { '@tool': [true] } },
				});
			expect(settings[0].description).toMatch(/never an expression, never the model's choice/);
		});

		it('the canvas issue field takes no expression or $fromAI either (neither could silence it)', () => {
			const fields = tool.properties.filter((p) => p.name === FILING_ISSUE);
			expect(fields.length).toBeGreaterThan(0);
			for (const field of fields) expect(field).toMatchObject({ noDataExpression: true });
		});

		it.each([
			[true, 'on'],
			[false, 'off'],
			[undefined, 'off'],
			['true', 'off'],
			[1, 'off'],
			['={{ true }}', 'expression'],
			[FROM_AI, 'expression'],
			['=true', 'expression'],
			// n8n 2.x hands a noDataExpression parameter's expression to the node without its "="
			['{{ true }}', 'expression'],
			['no', 'off'],
		])('the saved value %p is %s', (saved, state) => {
			expect(filingSwitchOf(saved as never)).toBe(state);
		});

		describe.each(writes)('a tool saved with $resource → $operation', ({ resource, operation }) => {
			const saved = { resource, operation };
			it.each([
				['off (its default, nothing stored)', {}, 'off'],
				['off', { [ALLOW_FILING]: false }, 'off'],
				['$fromAI', { [ALLOW_FILING]: FROM_AI }, 'expression'],
				['={{ true }}', { [ALLOW_FILING]: '={{ true }}' }, 'expression'],
				['{{ true }} (as n8n 2.x hands it on)', { [ALLOW_FILING]: '{{ true }}' }, 'expression'],
			] as const)(
				'the setting %s: one canvas issue and one notice, the words of the refusal',
				(_label, setting, state) => {
					const text = filingNotice(state, operation);
					expect(text).toMatch(
						new RegExp(
							`^"Allow Filing Statements": it is (off|set by an expression).* may not ${operation} statements`,
						),
					);
					expect(issues(tool, { ...saved, ...setting })).toEqual([text]);
					expect(notices(tool, { ...saved, ...setting })).toEqual([text]);
				},
			);

			it('the setting a literal on: no issue, no notice', () => {
				expect(issues(tool, { ...saved, [ALLOW_FILING]: true })).toEqual([]);
				expect(notices(tool, { ...saved, [ALLOW_FILING]: true })).toEqual([]);
			});

			it('the node itself (not a tool): no issue, no notice', () => {
				expect(issues(v1, saved)).toEqual([]);
				expect(notices(v1, saved)).toEqual([]);
			});
		});

		it.each(reads)('a tool saved with $resource → $operation (a read): no issue', (pair) => {
			expect(issues(tool, pair)).toEqual([]);
			expect(notices(tool, pair)).toEqual([]);
		});

		it('saved workflows keep their meaning: nothing new is stored, the issue field included', () => {
			for (const saved of [
				{ resource: 'dueDiligenceStatement', operation: 'submit' },
				{ resource: 'dueDiligenceStatement', operation: 'get' },
				{ resource: 'declaration' },
			]) {
				const stored = NodeHelpers.getNodeParameters(
					tool.properties,
					withDefaults(tool, saved),
					false,
					false,
					node(tool, saved),
					tool,
				) as INodeParameters;
				expect(Object.keys(stored)).not.toContain(FILING_ISSUE);
				expect(Object.keys(stored)).not.toContain(ALLOW_FILING);
			}
		});
	});
});
