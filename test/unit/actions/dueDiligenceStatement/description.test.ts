/** The EU Information System node's description: what the editor and n8n's loader see. */
import { readFileSync } from 'fs';
import { join } from 'path';

import type { INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

import { EuInformationSystem } from '../../../../nodes/EuInformationSystem/EuInformationSystem.node';
import { GET_HINT } from '../../../../nodes/EuInformationSystem/v1/actions/dueDiligenceStatement/get.operation';

const node = new EuInformationSystem();
const v1 = node.nodeVersions[1].description as INodeTypeDescription;
const property = (name: string, operation?: string): INodeProperties | undefined =>
	v1.properties.find(
		(p) =>
			p.name === name &&
			(operation === undefined || (p.displayOptions?.show?.operation ?? []).includes(operation)),
	);

describe('EU Information System node description', () => {
	it('has version 1 (saved workflows) and 1.1 (new nodes), "EU Information System", with the operation as subtitle and the EU credential', () => {
		expect(node.description.defaultVersion).toBe(1.1);
		expect(v1).toMatchObject({
			displayName: 'EU Information System',
			name: 'euInformationSystem',
			version: 1,
			credentials: [{ name: 'euInformationSystemApi', required: true }],
		});
		// the operation in the panel's words (test/unit/actions/euInformationSystem/panels.test.ts)
		expect(v1.subtitle).toMatch(/\$parameter\["operation"\]/);
		expect(v1.subtitle).toContain(
			'"dueDiligenceStatement.submit":"Submit: Due Diligence Statement"',
		);
		const v11 = node.nodeVersions[1.1].description as INodeTypeDescription;
		expect(v11).toMatchObject({ version: 1.1, subtitle: v1.subtitle, credentials: v1.credentials });
		expect(v1.icon).toEqual({
			light: 'file:../../icons/euInformationSystem.svg',
			dark: 'file:../../icons/euInformationSystem.dark.svg',
		});
	});

	// Issue 30 made it a tool, with filing gated: test/unit/actions/euInformationSystem/toolGate.test.ts
	it('is offered as an AI Agent tool', () => {
		expect(v1.usableAsTool).toBe(true);
	});

	it('offers the six operations of the Due Diligence Statement resource', () => {
		const selector = property('operation')!;
		expect((selector.options as INodePropertyOptions[]).map((o) => o.value)).toEqual([
			'submit',
			'amend',
			'withdraw',
			'get',
			'getByInternalReference',
			'getContent',
		]);
		expect(selector.default).toBe('submit');
	});

	it('simplifies by default, returns an existing statement by default, and tells Get when to ask', () => {
		for (const op of ['submit', 'amend', 'withdraw', 'get', 'getByInternalReference'])
			expect(property('simplify', op)?.default).toBe(true);
		const options = property('options', 'submit')!.options as INodeProperties[];
		expect(options.find((o) => o.name === 'ifAlreadyFiled')?.default).toBe('returnExisting');
		expect(property('getNotice', 'get')?.displayName).toBe(GET_HINT);
		expect(GET_HINT).toMatch(/30 minutes/);
		expect(GET_HINT).toMatch(/AVAILABLE/);
	});

	it('has its codex file and package.json entry', () => {
		const root = join(__dirname, '../../../..');
		const codex = JSON.parse(
			readFileSync(join(root, 'nodes/EuInformationSystem/EuInformationSystem.node.json'), 'utf8'),
		) as { node: string; resources: { primaryDocumentation: Array<{ url: string }> } };
		expect(codex.node).toBe('n8n-nodes-geospatial-analysis.euInformationSystem');
		expect(codex.resources.primaryDocumentation.length).toBeGreaterThan(0);
		const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
			n8n: { nodes: string[]; credentials: string[] };
		};
		expect(pkg.n8n.nodes).toContain('dist/nodes/EuInformationSystem/EuInformationSystem.node.js');
	});
});
