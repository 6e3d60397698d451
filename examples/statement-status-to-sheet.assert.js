'use strict';
/**
 * The example end to end, on both majors (activated: it has no Manual Trigger): the EU
 * Information System Trigger writes each statement's numbers, or its rejection, back to the
 * shipment's row.
 *
 * The "sheet" is n8n's own Data Table (in both 1.123.5 and 2.40.7; loopback by nature, and
 * what a user without a spreadsheet service uses for rows): before the run the table
 * "Shipments" is created through n8n's REST API with four shipment rows. The example selects
 * the table By Name (n8n 2.x); n8n 1.x's Data Table node has no By Name, so there the run
 * selects it by its id. After the activation request, three statements are filed in the fake EU for three of the shipments, from outside n8n (SOAP from
 * this process): two become AVAILABLE, one REJECTED (its comment holds the fake's reject
 * marker). The rows must then carry exactly what the fake EU holds: the reference and
 * verification numbers of the AVAILABLE ones, the reason of the rejected one; the fourth
 * shipment (no statement) stays as it was; no row is added. Every wait is for an event (the
 * table's rows), with a generous deadline.
 */
const assert = require('assert');
const { fileStatement } = require('../test/e2e/eu-soap');
const { waitFor } = require('../test/e2e/n8n');

const TRIGGER = 'When a Statement Is Available or Rejected';
const WRITE = 'Write Back to the Shipment Row';
const PREFIX_IN_FILE = 'SHIP-2026-';
const COLUMNS = [
	'internal_reference',
	'shipment',
	'dds_status',
	'dds_reference_number',
	'dds_verification_number',
	'dds_rejection_reason',
	'dds_uuid',
];

/** The editor's REST API (logged in); throws on an answer ≥ 300; returns its `data`. */
async function rest(ctx, method, path, body) {
	const r = await ctx.rest(method, path, body);
	if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text.slice(0, 400)}`);
	return r.json && r.json.data !== undefined ? r.json.data : r.json;
}

async function tableRows(ctx) {
	const { projectId, tableId } = ctx.sheet;
	const page = await rest(
		ctx,
		'GET',
		`/rest/projects/${projectId}/data-tables/${tableId}/rows?take=100&skip=0`,
	);
	return Array.isArray(page) ? page : page.data || [];
}

async function statementsOf(eu, prefix) {
	const answer = await eu.control('GET', '/__fake-eu/statements');
	const list = Array.isArray(answer) ? answer : answer.statements || answer.data || [];
	return list.filter((s) => String(s.internalReferenceNumber || '').startsWith(prefix));
}

module.exports = async (runData, ctx) => {
	const { prefix, shipments } = ctx.sheet;
	// The first execution wrote at least one row back.
	const written = ctx.output(WRITE);
	assert.ok(written.length >= 1, 'the first execution updated a shipment row');
	assert.ok(ctx.output(TRIGGER).length >= 1, 'the trigger emitted a statement');

	// Every filed statement's outcome reaches its row (later polls may bring the others).
	const filed = shipments.filter((s) => s.file);
	const rows = await waitFor(
		async () => {
			const list = await tableRows(ctx);
			const done = filed.every((s) => {
				const row = list.find((r) => r.internal_reference === s.internal_reference);
				return row && ['AVAILABLE', 'REJECTED'].includes(row.dds_status);
			});
			return done ? list : undefined;
		},
		{ timeoutMs: 240000, intervalMs: 2000, what: 'the three shipment rows to get their outcome' },
	);
	assert.strictEqual(rows.length, ctx.sheet.rowsBefore, 'no row added, none removed');
	assert.strictEqual(
		rows.filter((r) => String(r.internal_reference || '').startsWith(prefix)).length,
		shipments.length,
		"this run's four shipment rows, no more",
	);

	const statements = await statementsOf(ctx.fake.eu, prefix);
	assert.strictEqual(statements.length, filed.length, 'three statements in the fake EU');
	for (const s of shipments) {
		const row = rows.find((r) => r.internal_reference === s.internal_reference);
		assert.ok(row, `the row of ${s.internal_reference} is still there`);
		assert.strictEqual(row.shipment, s.shipment, 'the shipment column is untouched');
		if (!s.file) {
			for (const c of COLUMNS.slice(2))
				assert.ok(!row[c], `${s.internal_reference} has no statement: ${c} stays empty`);
			continue;
		}
		const st = statements.find((x) => x.internalReferenceNumber === s.internal_reference);
		assert.ok(st, `the fake EU holds the statement of ${s.internal_reference}`);
		assert.strictEqual(row.dds_uuid, st.uuid, JSON.stringify(row));
		assert.strictEqual(row.dds_status, st.status, JSON.stringify({ row, statement: st }));
		if (s.reject) {
			assert.strictEqual(row.dds_status, 'REJECTED', JSON.stringify(row));
			assert.ok(row.dds_rejection_reason, `the reason is on the row: ${JSON.stringify(row)}`);
			if (st.rejectionReason) assert.strictEqual(row.dds_rejection_reason, st.rejectionReason);
			assert.ok(!row.dds_reference_number, 'a rejected statement has no reference number');
		} else {
			assert.strictEqual(row.dds_status, 'AVAILABLE', JSON.stringify(row));
			assert.match(String(row.dds_reference_number), /^[A-Z0-9]{14}$/, JSON.stringify(row));
			assert.strictEqual(row.dds_reference_number, st.referenceNumber);
			assert.strictEqual(row.dds_verification_number, st.verificationNumber);
			assert.ok(!row.dds_rejection_reason, JSON.stringify(row));
		}
	}

	// The EU key appears nowhere in what the run keeps.
	const key = ctx.fake.eu.key;
	const everything = JSON.stringify(ctx.run);
	for (const form of [key, Buffer.from(key).toString('base64'), encodeURIComponent(key)])
		assert.ok(!everything.includes(form), 'the authentication key is not in the run data');
};

/** The Data Table "Shipments" of the owner's project (created, with its columns, if missing). */
async function shipmentsTable(ctx) {
	const project = await rest(ctx, 'GET', '/rest/projects/personal');
	const listed = await rest(ctx, 'GET', `/rest/projects/${project.id}/data-tables?take=100`);
	const tables = Array.isArray(listed) ? listed : listed.data || [];
	const found = tables.find((t) => t.name === 'Shipments');
	const table =
		found ||
		(await rest(ctx, 'POST', `/rest/projects/${project.id}/data-tables`, {
			name: 'Shipments',
			columns: COLUMNS.map((name) => ({ name, type: 'string' })),
		}));
	return { project, table };
}

/** The browser check opens the example's panels: the table it names exists, as for a user. */
module.exports.editorSetup = async (ctx) => {
	await shipmentsTable(ctx);
};

/** The shipment table with four rows; the trigger's prefix made unique to the run. */
module.exports.before = async (ctx) => {
	const eu = ctx.fake.eu;
	assert.ok(eu, 'the EU Information System fake runs');
	const prefix = `${PREFIX_IN_FILE}${ctx.major}${Date.now().toString(36).toUpperCase()}-`;
	const shipments = [
		{ n: '0041', shipment: 'Cocoa beans, Abidjan → Antwerp', file: true },
		{ n: '0042', shipment: 'Cocoa beans, San Pedro → Rotterdam', file: true, reject: true },
		{ n: '0043', shipment: 'Oak timber, Douala → Le Havre', file: true },
		{ n: '0044', shipment: 'Rubber, Kribi → Hamburg (statement not filed yet)', file: false },
	].map((s) => ({ ...s, internal_reference: `${prefix}${s.n}` }));

	const { project, table } = await shipmentsTable(ctx);
	await rest(ctx, 'POST', `/rest/projects/${project.id}/data-tables/${table.id}/insert`, {
		data: shipments.map((s) => ({
			internal_reference: s.internal_reference,
			shipment: s.shipment,
		})),
		returnType: 'count',
	});
	ctx.sheet = { projectId: project.id, tableId: table.id, prefix, shipments };
	// the table may hold other rows already (the flagship's shipments share it): counted here
	ctx.sheet.rowsBefore = (await tableRows(ctx)).length;

	// The workflow as saved at activation: this run's prefix; statements younger than the EU's
	// advised interval asked for (they are seconds old here); n8n 1.x: the table by its id.
	for (const node of ctx.workflow.nodes) {
		if (node.name === TRIGGER) {
			node.parameters.internalReferencePrefix = prefix;
			node.parameters.options = { ...node.parameters.options, minAgeMinutes: 0 };
		}
		if (node.name === WRITE && ctx.major < 2)
			node.parameters.dataTableId = { __rl: true, mode: 'id', value: table.id };
	}
};

/**
 * After the activation request: three statements filed from outside n8n. Whether n8n's
 * activation poll has run yet or not (n8n 2.x answers the request before it), they are new to
 * the trigger and dated after its activation: each fires once, AVAILABLE or REJECTED.
 */
module.exports.afterActivate = async (ctx) => {
	for (const s of ctx.sheet.shipments.filter((x) => x.file))
		await fileStatement(ctx.fake.eu, {
			internalReference: s.internal_reference,
			...(s.reject ? { comment: 'FAKE-REJECT: e2e rejection' } : {}),
		});
};

module.exports.timeoutMs = 240000;
