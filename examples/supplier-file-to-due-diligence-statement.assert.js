'use strict';
/**
 * The example end to end, against the EU Information System fake (statements become
 * AVAILABLE 3 s after submission in the e2e run): the supplier's file read, validated and
 * exported; one statement filed for the valid plots; Get until AVAILABLE; the reference and
 * verification numbers back on every plot row; the authentication key nowhere in the run.
 */
const assert = require('assert');

const SUBMIT = 'Submit Statement (Acceptance)';

module.exports = async (runData, ctx) => {
	const rows = ctx.output('Read Geo File');
	assert.strictEqual(rows.length, 3, 'the supplier file has three plots');
	const valid = ctx.output('Valid?');
	assert.strictEqual(
		valid.length,
		3,
		`all three plots are valid: ${JSON.stringify(ctx.output('Validate Plots').map((v) => v.problem_summary))}`,
	);

	const exported = ctx.output('Export for EU Information System');
	assert.strictEqual(exported.length, 1, 'one EU GeoJSON file');
	assert.strictEqual(exported[0].features, 3);

	// one statement, filed once, for the three plots
	const submitted = ctx.output(SUBMIT);
	assert.strictEqual(submitted.length, 1, 'one statement for one Internal Reference');
	const s = submitted[0];
	assert.match(s.uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-/i, `a UUID: ${JSON.stringify(s)}`);
	assert.strictEqual(
		s.internalReferenceNumber ?? s.internalReference,
		'PO-2026-0042',
		JSON.stringify(s),
	);
	assert.ok(['SUBMITTED', 'AVAILABLE'].includes(s.status), `status: ${s.status}`);

	// Get until AVAILABLE: the last Get has the numbers
	const got = ctx.output('Get Statement');
	assert.strictEqual(got.length, 1);
	assert.strictEqual(got[0].uuid, s.uuid);
	assert.strictEqual(got[0].status, 'AVAILABLE', JSON.stringify(got[0]));
	assert.ok(got[0].referenceNumber && got[0].verificationNumber, JSON.stringify(got[0]));
	// the simplified output leads with what the user acts on
	assert.deepStrictEqual(Object.keys(got[0]).slice(0, 3), [
		'status',
		'referenceNumber',
		'verificationNumber',
	]);

	// the numbers on every plot row
	const back = ctx.output('Numbers Back on Each Plot Row');
	assert.strictEqual(back.length, 3);
	for (const row of back) {
		assert.strictEqual(row.dds_reference_number, got[0].referenceNumber);
		assert.strictEqual(row.dds_verification_number, got[0].verificationNumber);
		assert.strictEqual(row.dds_status, 'AVAILABLE');
	}
	assert.deepStrictEqual(
		back.map((r) => r.properties.name),
		['Kouassi farm', 'Yao farm', 'Asante farm'],
	);

	// the EU key appears nowhere in what the run keeps
	const key = ctx.fake && ctx.fake.eu && ctx.fake.eu.key;
	assert.ok(key, 'the EU fake gave its key');
	const everything = JSON.stringify(ctx.run);
	for (const form of [key, Buffer.from(key).toString('base64'), encodeURIComponent(key)])
		assert.ok(!everything.includes(form), 'the authentication key is not in the run data');
};
