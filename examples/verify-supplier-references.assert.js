'use strict';
/**
 * The example end to end, against the EU Information System fake: `before` files two
 * statements (AVAILABLE after the fake's 3 s), withdraws one through the fake's control API,
 * and puts their numbers in the example's sheet, with a third row whose verification number
 * does not go with its reference number. Verify answers one item per row — usable, not
 * usable (WITHDRAWN), not found (NON_EXISTENT, an answer, not an error) — as the fake's
 * statements say; the If keeps the usable one and flags the other two with the supplier's
 * row; only Verify requests reached the fake; the authentication key is nowhere in the run.
 */
const assert = require('assert');
const eu = require('../test/e2e/eu-statements');

const SHEET = 'Supplier References (replace with your sheet)';

module.exports = async (runData, ctx) => {
	const [usable, withdrawn] = ctx.filedStatements;
	const verified = ctx.output('Verify Supplier References');
	assert.strictEqual(verified.length, 3, 'one output item per row');
	assert.deepStrictEqual(
		verified.map((v) => [v.referenceNumber, v.result, v.usable, v.status]),
		[
			[usable.referenceNumber, 'EXISTING_USABLE', true, 'AVAILABLE'],
			[withdrawn.referenceNumber, 'EXISTING_NON_USABLE', false, 'WITHDRAWN'],
			[usable.referenceNumber, 'NON_EXISTENT', false, null],
		],
	);
	for (const v of verified) {
		assert.ok(!Number.isNaN(Date.parse(v.checkedAt)), `checkedAt: ${v.checkedAt}`);
		assert.ok(v.message.includes(v.referenceNumber), v.message);
	}
	assert.match(verified[1].message, /cannot be used: its status is WITHDRAWN/);
	assert.match(verified[2].message, /^No statement matches reference number/);

	// the If: the usable one kept, the two others flagged with the supplier's row
	const kept = ctx.output('Usable: Keep on File');
	assert.deepStrictEqual(
		kept.map((k) => [k.supplier, k.referenceNumber, k.status]),
		[['Cacao Coop Abidjan', usable.referenceNumber, 'AVAILABLE']],
	);
	const flagged = ctx.output('Not Usable: Ask the Supplier');
	assert.deepStrictEqual(
		flagged.map((f) => [f.supplier, f.invoice, f.result, f.status]),
		[
			['Ghana Beans Ltd', 'INV-2026-0102', 'EXISTING_NON_USABLE', 'WITHDRAWN'],
			['Andes Cocoa SA', 'INV-2026-0103', 'NON_EXISTENT', null],
		],
	);
	assert.ok(flagged.every((f) => typeof f.followUp === 'string' && f.followUp.length > 0));

	// the fake's statements are as Verify said; the run only verified (three requests)
	const statements = await eu.control(ctx.fake.eu, 'GET', 'statements');
	const byUuid = (u) => statements.find((s) => s.uuid === u);
	assert.strictEqual(byUuid(usable.uuid).status, 'AVAILABLE');
	assert.strictEqual(byUuid(withdrawn.uuid).status, 'WITHDRAWN');
	const log = (await eu.requestLog(ctx.fake.eu)).slice(ctx.logBefore);
	assert.deepStrictEqual(
		log.map((e) => [e.operation, e.service, e.status]),
		[
			['verifyDeclaration', 'verify', 200],
			['verifyDeclaration', 'verify', 200],
			['verifyDeclaration', 'verify', 200],
		],
	);

	// the EU key appears nowhere in what the run keeps
	const key = ctx.fake.eu.key;
	const everything = JSON.stringify(ctx.run);
	for (const form of [key, Buffer.from(key).toString('base64'), encodeURIComponent(key)])
		assert.ok(!everything.includes(form), 'the authentication key is not in the run data');
};

module.exports.before = async (ctx) => {
	const tag = `${ctx.major}-${Date.now().toString(36)}`.toUpperCase();
	const uuids = [
		await eu.fileStatement(ctx.fake.eu, `VERIFY-A-${tag}`),
		await eu.fileStatement(ctx.fake.eu, `VERIFY-B-${tag}`),
	];
	await eu.whenAvailable(ctx.fake.eu, uuids);
	await eu.setStatus(ctx.fake.eu, uuids[1], 'WITHDRAWN');
	const statements = await eu.control(ctx.fake.eu, 'GET', 'statements');
	ctx.filedStatements = uuids.map((u) => statements.find((s) => s.uuid === u));
	const [a, b] = ctx.filedStatements;
	// the sheet: the usable one, the withdrawn one, and a's reference with b's verification number
	await eu.setNodeParameters(ctx, SHEET, (p) => {
		const rows = [
			[a.referenceNumber, a.verificationNumber],
			[b.referenceNumber, b.verificationNumber],
			[a.referenceNumber, b.verificationNumber],
		];
		let k = 0;
		const jsCode = p.jsCode.replace(
			/"referenceNumber": "[^"]*",\s*"verificationNumber": "[^"]*"/g,
			() => {
				const [ref, ver] = rows[k++];
				return `"referenceNumber": "${ref}",\n    "verificationNumber": "${ver}"`;
			},
		);
		assert.strictEqual(k, 3, 'the sheet has three rows of numbers');
		return { jsCode };
	});
	ctx.logBefore = (await eu.requestLog(ctx.fake.eu)).length;
};
module.exports.timeoutMs = 120000;
