/**
 * What n8n sends to an AI Agent about each operation of version 1 used as a tool is its
 * `action` text (plus the service name): every one must say what it costs and what it
 * returns. (Version 2 has short actions; the same text reaches the model through its tool
 * variant's Tool Description: test/unit/descriptions/nodeVersions.test.ts.)
 */
import type { INodePropertyOptions } from 'n8n-workflow';

import { drawMapOption } from '../../../nodes/GeospatialAnalysis/v1/actions/plot/index';
import { resources } from '../../../nodes/GeospatialAnalysis/v1/actions/router';

// one word for free: "free" (never "costs nothing")
const COST_WORDS = /\b(free|spends tokens)\b/;

const actions = Object.entries(resources).flatMap(([resource, module]) => {
	const selector = module.description.find((p) => p.name === 'operation');
	const options = (selector?.options ?? []) as INodePropertyOptions[];
	return options.map((o) => ({ resource, operation: String(o.value), action: o.action ?? '' }));
});

describe('operation actions (what an AI Agent is told)', () => {
	it('lists every operation of every resource', () => {
		const listed = actions.map((a) => `${a.resource}.${a.operation}`).sort();
		// Plot → Draw Map is listed from version 3 on (nodeVersions.test.ts), with its action below
		const operations = Object.entries(resources)
			.flatMap(([resource, module]) =>
				Object.keys(module.operations).map((op) => `${resource}.${op}`),
			)
			.filter((name) => name !== 'plot.drawMap')
			.sort();
		expect(listed).toEqual(operations);
	});

	it('Plot → Draw Map (version 3) names its cost and what it returns', () => {
		expect(drawMapOption.action).toMatch(COST_WORDS);
		expect(drawMapOption.action).toMatch(/\breturns\b/);
		expect(drawMapOption.action.length).toBeLessThanOrEqual(110);
	});

	it.each(actions)('$resource → $operation names its cost: "$action"', ({ action }) => {
		expect(action).toMatch(COST_WORDS);
		expect(action).toMatch(/\breturns\b/);
		// Short enough for n8n's UI, where the same text shows.
		expect(action.length).toBeLessThanOrEqual(110);
	});

	it('the operations that spend tokens say so', () => {
		const spending = actions.filter((a) => /spends tokens/.test(a.action)).map((a) => a.operation);
		expect(spending.sort()).toEqual(['check', 'create']);
	});
});
