/**
 * Issue 30's acceptance: in a real n8n, under each polling scheduler (restart.js runs this once
 * per scheduler), the EU Information System Trigger emits each of 50 status changes exactly
 * once across a SIGTERM restart of n8n (same database) and an edit of its credential.
 *
 * Ten statements are filed in the fake EU before activation (by SOAP from this process: filed
 * outside n8n, found by the trigger through their Internal Reference prefix) and are AVAILABLE
 * when the trigger is activated: with Look Back 1 hour, the activation poll emits each one's
 * AVAILABLE (and never again). The trigger asks for statements of any age (Wait After Filing
 * 0: they are seconds old here). Then five rounds change each statement's status once
 * (10 × 5 = 50 changes, through the fake's control API `POST /__fake-eu/statements/<uuid>/status`):
 *   1. right after the activation poll (its execution, the arrivals, is waited for: n8n 2.x
 *      answers the activation request before that poll has run);
 *   2. while n8n runs;
 *   3. half just before n8n gets SIGTERM, half while no n8n runs (n8n is then started again);
 *   4. half just before the credential is edited to another user of the same operator (another
 *      authentication key), half just after;
 *   5. after all of it.
 * A round starts only once every change of the one before has fired (a poller cannot see two
 * changes of one statement between two polls: each change must be visible to a poll), except
 * where the point is that n8n is down or being changed. Then two more polls with nothing to
 * emit. Per statement, the statuses emitted, in order, must be exactly AVAILABLE and its five
 * changes: none lost, none twice, nothing else emitted. Every wait is for an event (executions
 * appearing, the fake's request log), with a generous deadline.
 */
const assert = require('assert');
const { fileStatement } = require('../eu-soap');
const { waitFor } = require('../n8n');

/** Waits for an event (the fake's state) with a generous deadline. */
const waitUntil = (fn, timeoutMs, what) => waitFor(fn, { timeoutMs, intervalMs: 1000, what });

const TRIGGER = 'When a Statement Changes';
/** The Internal Reference prefix in the workflow file, replaced by one unique to the run. */
const PLACEHOLDER = 'E2E-RESTART-';
const STATEMENTS = 10;
const UNKNOWN_STATUS = 'E2E_STATUS_NOT_IN_THE_PACK';
/** Each statement's five changes (by statement number modulo 3), terminal statuses last. */
const SEQUENCES = [
	['SUSPENDED', 'AVAILABLE', 'SUSPENDED', 'AVAILABLE', 'WITHDRAWN'],
	['SUSPENDED', 'AVAILABLE', UNKNOWN_STATUS, 'AVAILABLE', 'ARCHIVED'],
	['SUSPENDED', 'AVAILABLE', 'SUSPENDED', 'AVAILABLE', 'REJECTED'],
];
/** What each statement emits: its arrival (AVAILABLE, within the Look Back), then its changes. */
const expected = (i) => ['AVAILABLE', ...SEQUENCES[i % SEQUENCES.length]];
/** A round's changes fire within this (polls every minute; n8n may be restarting). */
const ROUND_DEADLINE_MS = 7 * 60000;

const rejectionReason = (ref) => `E2E: rejected by the competent authority (${ref})`;

/** The statements of the fake EU whose Internal Reference starts with prefix. */
async function statementsOf(eu, prefix) {
	const answer = await eu.control('GET', '/__fake-eu/statements');
	const list = Array.isArray(answer) ? answer : answer.statements || answer.data || [];
	return list.filter((s) => String(s.internalReferenceNumber || '').startsWith(prefix));
}

/** The fake EU's request log (SOAP requests: operation, service, at, status, …). */
async function requestLog(eu) {
	const answer = await eu.control('GET', '/__fake-eu/log');
	return Array.isArray(answer) ? answer : answer.requests || answer.log || answer.data || [];
}

const timeOf = (at) => (typeof at === 'number' ? at : Date.parse(at));

/** Sets every parameter of the workflow equal to `from` (at any depth) to `to`. */
function replaceParameter(value, from, to) {
	if (value === from) return to;
	if (Array.isArray(value)) return value.map((v) => replaceParameter(v, from, to));
	if (value && typeof value === 'object')
		return Object.fromEntries(
			Object.entries(value).map(([k, v]) => [k, replaceParameter(v, from, to)]),
		);
	return value;
}

/** The items the trigger emitted in one execution. */
function triggerOutput(execution) {
	const runs = execution.data?.resultData?.runData?.[TRIGGER] || [];
	return runs.flatMap((run) => (run.data?.main?.[0] || []).map((i) => i.json));
}

/** The statement, the event and the status of one emitted item (Simplify on, the default). */
function changeOf(json) {
	return { uuid: String(json.uuid ?? '').toLowerCase(), event: json.event, status: json.status };
}

/** uuid → the statuses emitted for it, in execution order; and what matched no statement. */
function emitted(executions, uuids) {
	const byUuid = new Map(uuids.map((u) => [u, []]));
	const strays = [];
	for (const e of executions) {
		for (const json of triggerOutput(e)) {
			const { uuid, event, status } = changeOf(json);
			if (byUuid.has(uuid) && event === 'statusChange')
				byUuid.get(uuid).push({ status, json, execution: e.id });
			else strays.push({ execution: e.id, json });
		}
	}
	return { byUuid, strays };
}

function describe(byUuid, refs) {
	return [...byUuid]
		.map(([uuid, list]) => `${refs.get(uuid)}: ${list.map((x) => x.status).join(' → ') || '—'}`)
		.join('\n');
}

module.exports.scenario = async (ctx) => {
	const eu = ctx.fake.eu;
	assert.ok(eu, 'the EU Information System fake runs');
	assert.ok(eu.users.length >= 2, 'the fake EU has a second user of the same operator');
	const prefix = `E2E-${ctx.scheduler === 'durable' ? 'D' : 'P'}${Date.now().toString(36).toUpperCase()}-`;
	const node = ctx.workflow.nodes.find((n) => n.name === TRIGGER);
	assert.ok(node, `the workflow has the node "${TRIGGER}"`);
	node.parameters = replaceParameter(node.parameters, PLACEHOLDER, prefix);

	// The baseline: ten statements filed outside n8n, all AVAILABLE before activation.
	const uuids = [];
	const refs = new Map();
	for (let i = 0; i < STATEMENTS; i++) {
		const ref = `${prefix}${String(i).padStart(2, '0')}`;
		const uuid = (await fileStatement(eu, { internalReference: ref })).toLowerCase();
		uuids.push(uuid);
		refs.set(uuid, ref);
	}
	await waitUntil(
		async () => {
			const list = await statementsOf(eu, prefix);
			return list.length === STATEMENTS && list.every((s) => s.status === 'AVAILABLE');
		},
		120000,
		'the ten statements AVAILABLE in the fake EU',
	);

	const change = async (i, round) => {
		const status = SEQUENCES[i % SEQUENCES.length][round - 1];
		const uuid = uuids[i];
		await eu.control('POST', `/__fake-eu/statements/${uuid}/status`, {
			status,
			...(status === 'REJECTED' ? { reason: rejectionReason(refs.get(uuid)) } : {}),
		});
	};
	const changeAll = async (round, from = 0, to = STATEMENTS) => {
		for (let i = from; i < to; i++) await change(i, round);
	};
	const half = STATEMENTS / 2;
	/** Waits until every statement has its arrival and `round` changes emitted; fails on more. */
	const roundFired = async (round) => {
		const items = round + 1; // the arrival, then one per round
		const list = await ctx
			.waitForExecutions(
				(executions) => {
					const { byUuid } = emitted(executions, uuids);
					const counts = [...byUuid.values()].map((l) => l.length);
					if (counts.some((c) => c > items)) return true; // fail below, with the whole story
					return counts.every((c) => c === items);
				},
				{
					timeoutMs: ROUND_DEADLINE_MS,
					what: `round ${round}: every statement's change ${round} emitted`,
				},
			)
			.catch(async (e) => {
				const { byUuid } = emitted(await ctx.executions(), uuids);
				throw new Error(`${e.message}\nemitted so far (per statement):\n${describe(byUuid, refs)}`);
			});
		const { byUuid, strays } = emitted(list, uuids);
		for (const [uuid, got] of byUuid)
			assert.deepStrictEqual(
				got.map((x) => x.status),
				expected(uuids.indexOf(uuid)).slice(0, items),
				`after round ${round}, ${refs.get(uuid)} emitted each change once, in order:\n${describe(byUuid, refs)}`,
			);
		assert.deepStrictEqual(strays, [], 'nothing emitted for any other statement');
	};

	// 0. Activation: n8n's activation poll emits the ten arrivals. n8n 2.x may answer the
	//    activation before that poll has run: its execution is the event to wait for.
	await ctx.activate();
	await roundFired(0);

	// 1. Right after the activation poll.
	await changeAll(1);
	await roundFired(1);

	// 2. While n8n runs.
	await changeAll(2);
	await roundFired(2);

	// 3. Half just before SIGTERM, half while no n8n runs; then n8n starts again.
	const restarted = await ctx.restart({
		beforeStop: () => changeAll(3, 0, half),
		whileStopped: () => changeAll(3, half, STATEMENTS),
	});
	assert.notStrictEqual(
		restarted.exitCode,
		'SIGKILL',
		'n8n stopped on SIGTERM by itself (no SIGKILL needed)',
	);
	await roundFired(3);

	// 4. Half just before the credential edit, half just after: another web-service user of the
	//    same operator, with its own authentication key.
	const cred = ctx.credentials.find((c) => c.type === 'euInformationSystemApi');
	const second = eu.users[1];
	await changeAll(4, 0, half);
	const editedAt = Date.now();
	await ctx.editCredential('euInformationSystemApi', {
		name: `${cred.name} (edited)`,
		data: { ...cred.data, username: second.username, authKey: second.key },
	});
	await changeAll(4, half, STATEMENTS);
	await roundFired(4);

	// 5. After all of it.
	await changeAll(5);
	await roundFired(5);

	// Two more polls (their requests reach the fake a poll interval apart) emit nothing.
	const mark = (await requestLog(eu)).length;
	await waitUntil(
		async () => {
			const times = (await requestLog(eu)).slice(mark).map((r) => timeOf(r.at));
			if (times.some((t) => !Number.isFinite(t)))
				throw new Error('the fake EU log has no time (`at`) on its requests');
			return times.length > 0 && Math.max(...times) - Math.min(...times) >= 50000;
		},
		5 * 60000,
		'two more polls of the trigger after the last change (the fake EU request log)',
	);
	const all = await ctx.executions();
	const { byUuid, strays } = emitted(all, uuids);
	assert.deepStrictEqual(strays, [], 'nothing emitted for any other statement');
	let total = 0;
	for (const [uuid, got] of byUuid) {
		total += got.length;
		assert.deepStrictEqual(
			got.map((x) => x.status),
			expected(uuids.indexOf(uuid)),
			`${refs.get(uuid)}: its arrival and each of its five changes exactly once:\n${describe(byUuid, refs)}`,
		);
		got.forEach((x, i) =>
			assert.strictEqual(
				x.json.previousStatus ?? null,
				i === 0 ? (x.json.previousStatus ?? null) : got[i - 1].status,
				`${refs.get(uuid)}: change ${i} names the status before it: ${JSON.stringify(x.json)}`,
			),
		);
		const rejected = got.find((x) => x.status === 'REJECTED');
		if (rejected)
			assert.ok(
				JSON.stringify(rejected.json).includes(rejectionReason(refs.get(uuid))),
				`the REJECTED item carries the rejection reason: ${JSON.stringify(rejected.json)}`,
			);
	}
	assert.strictEqual(
		total,
		STATEMENTS + 50,
		'ten arrivals and fifty status changes, each emitted once',
	);
	for (const e of all) assert.strictEqual(e.status, 'success', `execution ${e.id} ${e.status}`);

	// The polls after the edit used the edited credential (the fake logs who called).
	const afterEdit = (await requestLog(eu)).filter((r) => timeOf(r.at) > editedAt && r.username);
	if (afterEdit.length)
		assert.ok(
			afterEdit.some((r) => r.username === second.username),
			`requests after the edit came from ${second.username}: ${[...new Set(afterEdit.map((r) => r.username))].join(', ')}`,
		);

	// No authentication key, in any form, in what n8n kept or printed.
	const everything = JSON.stringify(all);
	const log = ctx.mainLog();
	for (const key of eu.users.map((u) => u.key))
		for (const form of [key, Buffer.from(key).toString('base64'), encodeURIComponent(key)]) {
			assert.ok(!everything.includes(form), 'no authentication key in the executions');
			assert.ok(!log.includes(form), 'no authentication key in n8n’s log');
		}

	if (ctx.scheduler === 'durable') {
		assert.ok(
			!/durable poll cursors stay disabled|cannot take over poll triggers/.test(log),
			'n8n did not turn the durable poller chain off',
		);
		assert.ok(
			/Poll returned (no new data|new data; handed off)/.test(log),
			'the scheduler task handler ran the polls (debug log)',
		);
	}
};

module.exports.SEQUENCES = SEQUENCES;
module.exports.changeOf = changeOf;
