/**
 * The EU Information System Trigger's description: its name, polling, credential, codex file,
 * package.json entry, and the parameter names saved workflows (and the e2e scenario) use.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

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
