'use strict';
/**
 * What the browser checks of one node (browser-map.js, browser-record.js) build alike: a
 * workflow of Manual Trigger → a list (Set + Split Out, no Code node) → the node, and its
 * creation over n8n's REST API.
 */
const n8n = require('./n8n');

/** A square ring of side `d` degrees from (lon, lat), closed. */
const ring = (lon, lat, d) => [
	[lon, lat],
	[lon + d, lat],
	[lon + d, lat + d],
	[lon, lat + d],
	[lon, lat],
];

/**
 * Manual Trigger → Set (`field` = the list `value`, an expression) → Split Out (one item per
 * element) → `node` (id, name, type, typeVersion, parameters), in a row; the nodes' ids start
 * with `prefix`.
 */
function listWorkflow({ name, prefix, field, value, setName, splitName, node }) {
	const nodes = [
		{
			id: `${prefix}-trigger`,
			name: 'Manual Trigger',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: `${prefix}-${field}`,
			name: setName,
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [220, 0],
			parameters: {
				assignments: {
					assignments: [{ id: `e2e-${field}`, name: field, value, type: 'array' }],
				},
				options: {},
			},
		},
		{
			id: `${prefix}-split`,
			name: splitName,
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			position: [440, 0],
			parameters: { fieldToSplitOut: field, options: {} },
		},
		{
			id: node.id,
			name: node.name,
			type: node.type,
			typeVersion: node.typeVersion,
			position: [660, 0],
			parameters: node.parameters,
		},
	];
	const main = (to) => ({ main: [[{ node: to, type: 'main', index: 0 }]] });
	return {
		name,
		nodes,
		connections: {
			'Manual Trigger': main(setName),
			[setName]: main(splitName),
			[splitName]: main(node.name),
		},
		settings: { executionOrder: 'v1' },
	};
}

/** Creates the workflow over n8n's REST API; its id. */
async function createWorkflow(inst, workflow) {
	const created = await n8n.rest(inst, 'POST', '/rest/workflows', workflow);
	if (created.status !== 200)
		throw new Error(`creating the workflow: ${created.status} ${created.text.slice(0, 500)}`);
	return (created.json.data || created.json).id;
}

module.exports = { ring, listWorkflow, createWorkflow };
