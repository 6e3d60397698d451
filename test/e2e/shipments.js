'use strict';
/**
 * The shipments table of the flagship example (examples/shipments-to-due-diligence-statements.json)
 * in a running n8n, through n8n's REST API as the editor does it: the Data Table "Shipments" in
 * the owner's personal project (created, filled with the sample shipments, read back), the
 * example's Data Table nodes bound to it, and a run of the workflow in the running n8n (the
 * editor's "Execute workflow": `n8n execute` starts no modules, so a Data Table node cannot run
 * there on either major).
 *
 * Used by the example's assert module (e2e), the browser check (browser-flagship.js) and
 * `npm run demo`.
 */
const { waitFor } = require('./n8n');

const TABLE_NAME = 'Shipments';
const DATA_TABLE_TYPE = 'n8n-nodes-base.dataTable';

/**
 * The table's columns: what a shipment is, what the workflow writes back (the status, the
 * numbers, the reasons and the plots' problems first: they are what the officer reads), the plot file's URL, the rest.
 */
const COLUMNS = [
	['internal_reference', 'string'],
	['commodity', 'string'],
	['hs_heading', 'string'],
	['net_weight_kg', 'number'],
	['supplier', 'string'],
	// the goods and route in words, written by hand; with dds_rejection_reason below, what the
	// second workflow (statement-status-to-sheet: the EU trigger writes later status changes on
	// the shipment's row) reads and writes: both examples share this one table
	['shipment', 'string'],
	['status', 'string'],
	['dds_reference_number', 'string'],
	['dds_verification_number', 'string'],
	['risk_reasons', 'string'],
	['plot_problems', 'string'],
	['plot_file', 'string'],
	['dds_status', 'string'],
	['dds_rejection_reason', 'string'],
	['dds_uuid', 'string'],
	['dds_internal_reference', 'string'],
	['dds_filed_by', 'string'],
	['dds_updated_at', 'string'],
	['dds_environment', 'string'],
];

/**
 * The sample shipments: one whose plots are all negligible (filed), one with a plot partly inside
 * a classified forest and one deforested after 2020 (needs mitigation, nothing filed), one whose
 * supplier file has a plot drawn as a bow tie (plots to fix: nothing registered, analysed or filed).
 */
function sampleShipments(files) {
	return [
		{
			internal_reference: 'PO-2026-0101',
			commodity: 'cocoa',
			hs_heading: '1801',
			net_weight_kg: 12000,
			supplier: 'Coopérative Kouassi',
			plot_file: files.urlOf('kouassi-cooperative-plots.geojson'),
		},
		{
			internal_reference: 'PO-2026-0102',
			commodity: 'cocoa',
			hs_heading: '1801',
			net_weight_kg: 8500,
			supplier: 'Sassandra Cocoa SARL',
			plot_file: files.urlOf('sassandra-cocoa-plots.geojson'),
		},
		{
			internal_reference: 'PO-2026-0103',
			commodity: 'cocoa',
			hs_heading: '1801',
			net_weight_kg: 6400,
			supplier: 'Groupement Adjoua',
			plot_file: files.urlOf('adjoua-farmers-plots.geojson'),
		},
	];
}

const dataOf = (r) => (r.json && r.json.data !== undefined ? r.json.data : r.json);

function ok(r, what) {
	if (r.status !== 200) throw new Error(`${what}: ${r.status} ${String(r.text).slice(0, 500)}`);
	return dataOf(r);
}

/** The owner's personal project (where imported workflows and the table live). */
async function personalProjectId(rest) {
	return ok(await rest('GET', '/rest/projects/personal'), 'the personal project').id;
}

/**
 * Creates the Shipments table (a table of that name made before is deleted first) with the
 * sample shipments; returns `{ projectId, tableId }`.
 */
async function createShipmentsTable(rest, files, { rows = sampleShipments(files) } = {}) {
	const projectId = await personalProjectId(rest);
	const base = `/rest/projects/${projectId}/data-tables`;
	const listed = ok(await rest('GET', base), 'listing data tables');
	const tables = Array.isArray(listed) ? listed : listed.data || [];
	for (const t of tables.filter((x) => x.name === TABLE_NAME))
		ok(await rest('DELETE', `${base}/${t.id}`), `deleting the old table ${t.id}`);
	const created = ok(
		await rest('POST', base, {
			name: TABLE_NAME,
			columns: COLUMNS.map(([name, type]) => ({ name, type })),
		}),
		'creating the Shipments table',
	);
	ok(
		await rest('POST', `${base}/${created.id}/insert`, { data: rows, returnType: 'count' }),
		'inserting the shipments',
	);
	return { projectId, tableId: created.id };
}

/** Every row of the table (system columns `id`, `createdAt`, `updatedAt` included), by id. */
async function tableRows(rest, { projectId, tableId }) {
	const r = ok(
		await rest('GET', `/rest/projects/${projectId}/data-tables/${tableId}/rows?skip=0&take=100`),
		'reading the shipments',
	);
	return (r.data || r).slice().sort((a, b) => a.id - b.id);
}

/** Changes one row (by its id) as a user editing the table would. */
async function updateRow(rest, { projectId, tableId }, id, data) {
	ok(
		await rest('PATCH', `/rest/projects/${projectId}/data-tables/${tableId}/rows`, {
			filter: { type: 'and', filters: [{ columnName: 'id', condition: 'eq', value: id }] },
			data,
		}),
		`changing row ${id}`,
	);
}

/** The workflow with every Data Table node pointed at the table (as a user picks it from the list). */
function bindTable(workflow, tableId) {
	for (const node of workflow.nodes)
		if (node.type === DATA_TABLE_TYPE)
			node.parameters.dataTableId = {
				__rl: true,
				mode: 'list',
				value: tableId,
				cachedResultName: TABLE_NAME,
			};
	return workflow;
}

/** Saves the imported workflow bound to the table (public API, as the editor's Save). */
async function saveBound(publicApi, workflow, tableId) {
	const { id, name, nodes, connections, settings } = bindTable(workflow, tableId);
	const r = await publicApi('PUT', `/workflows/${id}`, {
		name,
		nodes,
		connections,
		settings: settings || {},
	});
	if (r.status !== 200)
		throw new Error(`saving workflow ${id}: ${r.status} ${r.text.slice(0, 500)}`);
}

/**
 * Runs the saved workflow in the running n8n from its Manual Trigger, as the editor's
 * "Execute workflow" does (REST; 1.x wants the workflow in the body, 2.x reads it from the
 * database), waits for the execution to finish and returns it with its data (public API).
 * Returns what `n8n.executeWorkflow` returns: `{ ok, run, runData, error, executionId }`.
 */
async function runInMain(ctx, workflow, { timeoutMs = 300000 } = {}) {
	const trigger = workflow.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
	const saved = ok(await ctx.rest('GET', `/rest/workflows/${workflow.id}`), 'reading the workflow');
	const started = ok(
		await ctx.rest('POST', `/rest/workflows/${workflow.id}/run`, {
			workflowData: saved,
			triggerToStartFrom: { name: trigger.name },
			startNodes: [],
		}),
		'starting the workflow',
	);
	const executionId = started && started.executionId;
	if (!executionId) throw new Error(`no execution started: ${JSON.stringify(started)}`);
	const exec = await waitFor(
		async () => {
			const r = await ctx.publicApi('GET', `/executions/${executionId}?includeData=true`);
			if (r.status === 404) return undefined;
			if (r.status !== 200) throw new Error(`public API ${r.status}: ${r.text.slice(0, 300)}`);
			return r.json.finished || r.json.stoppedAt ? r.json : undefined;
		},
		{ timeoutMs, intervalMs: 1000, what: `execution ${executionId} of ${workflow.name}` },
	);
	const run = { data: exec.data, status: exec.status, finished: exec.finished, mode: exec.mode };
	const error = exec.data?.resultData?.error;
	return {
		ok: exec.status === 'success' && !error,
		run,
		runData: exec.data?.resultData?.runData,
		error,
		executionId,
		stdout: '',
		stderr: '',
	};
}

module.exports = {
	TABLE_NAME,
	COLUMNS,
	sampleShipments,
	personalProjectId,
	createShipmentsTable,
	tableRows,
	updateRow,
	bindTable,
	saveBound,
	runInMain,
};
