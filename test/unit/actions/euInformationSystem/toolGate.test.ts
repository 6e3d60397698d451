/**
 * The EU Information System node as an AI Agent tool, computed with n8n-workflow's own helpers
 * (those the editor, the engine and the agent use): at defaults the tool variant offers no
 * operation that files, amends or withdraws; "Allow Filing Statements" shows in the tool only,
 * off by default, and turning it on offers the writes without changing the chosen operation;
 * the node itself is unchanged (saved workflows keep their operation and fields); the model is
 * told that a write has legal value, and what each read returns.
 */
import type {
	INode,
	INodeParameters,
	INodeProperties,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { EuInformationSystem } from '../../../../nodes/EuInformationSystem/EuInformationSystem.node';
import { resources } from '../../../../nodes/EuInformationSystem/v1/actions/router';
import {
	ALLOW_FILING,
	WRITE_OPERATIONS,
	isWriteOperation,
	toolWords,
} from '../../../../nodes/EuInformationSystem/v1/actions/toolGate';

/** What n8n makes of a node type with usableAsTool (its "… Tool" variant), as n8n 1.x/2.x do. */
function toolVariant(description: INodeTypeDescription): INodeTypeDescription {
	const tool = structuredClone(description);
	tool.name += 'Tool';
	tool.displayName += ' Tool';
	delete tool.usableAsTool;
	return tool;
}

const operations = Object.entries(resources).flatMap(([resource, module]) =>
	Object.keys(module.operations).map((operation) => ({ resource, operation })),
);
const writes = operations.filter(({ resource, operation }) =>
	isWriteOperation(resource, operation),
);
const reads = operations.filter(
	({ resource, operation }) => !isWriteOperation(resource, operation),
);

/** The parameters a node has with these values, every other at its default (as n8n fills them). */
function withDefaults(description: INodeTypeDescription, values: INodeParameters): INodeParameters {
	return NodeHelpers.getNodeParameters(
		description.properties,
		values,
		true,
		false,
		{ typeVersion: 1 } as INode,
		description,
	) as INodeParameters;
}

/** The top-level properties the editor shows for these (saved) values. */
function shown(description: INodeTypeDescription, values: INodeParameters): INodeProperties[] {
	const parameters = withDefaults(description, values);
	return description.properties.filter((p) =>
		NodeHelpers.displayParameter(parameters, p, { typeVersion: 1 } as INode, description),
	);
}

/**
 * The options the shown Operation selector lists, as n8n's editor lists them (1.x and 2.x:
 * an option with displayOptions of its own only where they hold for the node's parameters).
 */
function listed(
	description: INodeTypeDescription,
	values: INodeParameters,
): INodePropertyOptions[] {
	const selectors = shown(description, values).filter((p) => p.name === 'operation');
	expect(selectors).toHaveLength(1);
	const parameters = withDefaults(description, values);
	return (selectors[0].options as INodePropertyOptions[]).filter(
		(o) =>
			!o.displayOptions ||
			NodeHelpers.displayParameter(
				parameters,
				o as never,
				{ typeVersion: 1 } as INode,
				description,
			),
	);
}

/** The operations the shown Operation selector offers. */
function offered(description: INodeTypeDescription, values: INodeParameters): string[] {
	return listed(description, values).map((o) => String(o.value));
}

const resourcesOf = Object.keys(resources);

// both versions: 1 (saved workflows) and 1.1 (new nodes) gate alike
describe.each([1, 1.1])('node version %s', (version) => {
	const v1 = new EuInformationSystem().nodeVersions[version].description as INodeTypeDescription;
	const tool = toolVariant(v1);

	describe('the EU Information System node as an AI Agent tool', () => {
		it('is usable as a tool', () => {
			expect(v1.usableAsTool).toBe(true);
		});

		it('gates exactly the operations that file, amend or withdraw', () => {
			expect(writes).toEqual([
				{ resource: 'dueDiligenceStatement', operation: 'submit' },
				{ resource: 'dueDiligenceStatement', operation: 'amend' },
				{ resource: 'dueDiligenceStatement', operation: 'withdraw' },
				...(resourcesOf.includes('simplifiedDeclaration')
					? WRITE_OPERATIONS.simplifiedDeclaration.map((operation) => ({
							resource: 'simplifiedDeclaration',
							operation,
						}))
					: []),
			]);
		});

		it.each(resourcesOf)('%s at defaults: the tool offers no write operation', (resource) => {
			const ops = offered(tool, { resource });
			expect(ops.length).toBeGreaterThan(0);
			expect(ops.filter((o) => isWriteOperation(resource, o))).toEqual([]);
			const parameters = withDefaults(tool, { resource });
			expect(isWriteOperation(resource, String(parameters.operation))).toBe(false);
			expect(parameters[ALLOW_FILING]).toBe(false);
		});

		it('a tool saved at defaults (nothing stored) is Get; a Declaration tool is Verify', () => {
			expect(withDefaults(tool, {}).operation).toBe('get');
			expect(withDefaults(tool, { resource: 'declaration' }).operation).toBe('verify');
		});

		it('"Allow Filing Statements" shows in the tool only, off by default, saying why', () => {
			const setting = tool.properties.find((p) => p.name === ALLOW_FILING)!;
			expect(setting).toMatchObject({
				displayName: 'Allow Filing Statements',
				type: 'boolean',
				default: false,
			});
			expect(setting.description).toMatch(/^Whether the AI Agent may submit, amend or withdraw/);
			expect(setting.description).toMatch(/LEGAL VALUE/);
			for (const resource of resourcesOf) {
				expect(shown(tool, { resource }).map((p) => p.name)).toContain(ALLOW_FILING);
				expect(shown(v1, { resource }).map((p) => p.name)).not.toContain(ALLOW_FILING);
			}
		});

		it('with the setting on, the tool offers every operation, still starting at Get', () => {
			const on = { resource: 'dueDiligenceStatement', [ALLOW_FILING]: true };
			expect(offered(tool, on)).toEqual(offered(v1, { resource: 'dueDiligenceStatement' }));
			expect(withDefaults(tool, on).operation).toBe('get');
			expect(withDefaults(tool, { ...on, operation: 'submit' }).operation).toBe('submit');
		});

		it('the node itself is unchanged: every operation, Submit by default, the same fields', () => {
			expect(offered(v1, {})).toEqual([
				'submit',
				'amend',
				'withdraw',
				'get',
				'getByInternalReference',
				'getContent',
			]);
			expect(withDefaults(v1, {}).operation).toBe('submit');
			for (const { resource, operation } of operations) {
				const names = shown(v1, { resource, operation }).map((p) => p.name);
				expect(names).not.toContain('toolDescription');
				expect(names.filter((n) => n === 'operation')).toHaveLength(1);
			}
			// n8n names a node added from the nodes panel after its action: still short
			expect(
				NodeHelpers.makeNodeName({ resource: 'dueDiligenceStatement', operation: 'submit' }, v1),
			).toBe('Submit a due diligence statement');
		});

		it('a tool node saved with a write and the setting off still reads as that write (the router refuses it)', () => {
			const saved = { resource: 'dueDiligenceStatement', operation: 'submit' };
			expect(withDefaults(tool, saved).operation).toBe('submit');
		});

		it.each(writes)(
			'a tool saved with $resource → $operation and the setting off lists that write by name, saying why (no raw value)',
			({ resource, operation }) => {
				const options = listed(tool, { resource, operation });
				const writesListed = options.filter((o) => isWriteOperation(resource, String(o.value)));
				expect(writesListed.map((o) => o.value)).toEqual([operation]);
				expect(writesListed[0].name).toMatch(/^[A-Z]/);
				expect(writesListed[0].description).toMatch(
					/^Not allowed while "Allow Filing Statements" is off/,
				);
				// the reads beside it, a read chosen: the reads only again
				const read = String(
					options.find((o) => !isWriteOperation(resource, String(o.value)))!.value,
				);
				expect(
					offered(tool, { resource, operation: read }).filter((o) => isWriteOperation(resource, o)),
				).toEqual([]);
			},
		);

		describe('what the model is told (NodeHelpers.getToolDescriptionForNode)', () => {
			const told = (values: INodeParameters) => {
				const parameters = withDefaults(tool, values);
				const node: INode = {
					id: '1',
					name: 'Tool',
					type: `test.${tool.name}`,
					typeVersion: 1,
					position: [0, 0],
					parameters,
				};
				return NodeHelpers.getToolDescriptionForNode(node, { description: tool } as INodeType);
			};

			it.each(writes)('$resource → $operation: it files a statement with legal value', (pair) => {
				const text = told({ ...pair, [ALLOW_FILING]: true });
				expect(text).toMatch(/files a statement with LEGAL VALUE in the EU Information System/);
				expect(text).toMatch(/only when the user explicitly asked/);
				// the same words when saved with the setting off (the router then refuses)
				expect(told(pair)).toBe(text);
			});

			it.each(reads)('$resource → $operation: it reads only', (pair) => {
				const text = told(pair);
				expect(text).toMatch(/Reads only, changes nothing\.$/);
				expect(text).not.toMatch(/LEGAL VALUE/);
			});

			it('Verify says what it returns', () => {
				expect(told({ resource: 'declaration' })).toMatch(
					/EXISTING_USABLE, EXISTING_NON_USABLE or NON_EXISTENT\), usable/,
				);
			});

			it('a user-written Tool Description is sent as written', () => {
				expect(told({ resource: 'declaration', toolDescription: 'Mine' })).toBe('Mine');
			});

			it('an operation without own words gets its action, and a write the legal sentence', () => {
				expect(
					toolWords('simplifiedDeclaration', {
						name: 'Submit',
						value: 'submit',
						action: 'Submit a simplified declaration',
					}),
				).toMatch(
					/^Submit a simplified declaration in the EU Information System: it files a statement with LEGAL VALUE/,
				);
				expect(
					toolWords('simplifiedDeclaration', {
						name: 'Get',
						value: 'get',
						action: 'Get simplified declarations',
					}),
				).toBe(
					'Get simplified declarations in the EU Information System. Reads only, changes nothing.',
				);
			});
		});
	});
});
