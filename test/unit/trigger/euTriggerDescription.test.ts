/**
 * The EU Information System Trigger's description: its name, polling, credential, codex file,
 * package.json entry, and the parameter names saved workflows (and the e2e scenario) use.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import { EuInformationSystem } from '../../../nodes/EuInformationSystem/EuInformationSystem.node';
import { EuInformationSystemTrigger } from '../../../nodes/EuInformationSystemTrigger/EuInformationSystemTrigger.node';

const root = join(__dirname, '../../..');

describe('EU Information System Trigger description', () => {
	const { description } = new EuInformationSystemTrigger();

	it('is a polling trigger on the EU credential, version 1', () => {
		expect(description.name).toBe('euInformationSystemTrigger');
		expect(description.polling).toBe(true);
		expect(description.version).toBe(1);
		expect(description.inputs).toEqual([]);
		expect(description.credentials).toEqual([{ name: 'euInformationSystemApi', required: true }]);
	});

	it("says what the node does as well: n8n's nodes panel shows the trigger's description for the one entry of node and trigger", () => {
		// n8n 2.40.7 (editor, generateMergedNodesAndActions): a trigger whose name without
		// "Trigger" is an action node's name is merged into that node's entry, and the entry
		// takes the TRIGGER's description
		const action = new EuInformationSystem().description;
		expect(description.name.replace('Trigger', '')).toBe(action.name);
		const shown = description.description;
		expect(shown).toMatch(/^File, read and verify EUDR due diligence statements/);
		expect(shown).toMatch(/start a workflow when a statement changes status/);
		expect(shown).not.toMatch(/^Starts a workflow/);
	});

	it('keeps its parameter names and defaults', () => {
		const byName = Object.fromEntries(description.properties.map((p) => [p.name, p]));
		expect(Object.keys(byName)).toEqual([
			'notice',
			'internalReferencePrefix',
			'statementTypes',
			'events',
			'statuses',
			'simplify',
			'options',
		]);
		expect(byName.internalReferencePrefix.default).toBe('');
		expect(byName.statementTypes.default).toEqual(['dueDiligenceStatement']);
		expect(byName.events.default).toEqual(['statusChange', 'communication']);
		expect(byName.simplify.default).toBe(true);
		const options = (byName.options.options ?? []) as Array<{ name: string; default: unknown }>;
		expect(Object.fromEntries(options.map((o) => [o.name, o.default]))).toEqual({
			lookBackHours: 0,
			minAgeMinutes: 30,
			maxRequestsPerPoll: 10,
			maxStatements: 2000,
		});
	});

	it('has its codex file and package.json entry', () => {
		const codex = JSON.parse(
			readFileSync(
				join(root, 'nodes/EuInformationSystemTrigger/EuInformationSystemTrigger.node.json'),
				'utf8',
			),
		) as { node: string };
		expect(codex.node).toBe('n8n-nodes-geospatial-analysis.euInformationSystemTrigger');
		const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
			n8n: { nodes: string[] };
		};
		expect(pkg.n8n.nodes).toContain(
			'dist/nodes/EuInformationSystemTrigger/EuInformationSystemTrigger.node.js',
		);
	});
});
