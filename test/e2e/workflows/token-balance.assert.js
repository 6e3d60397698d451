'use strict';
const assert = require('assert');

async function checkTokenCalls(ctx) {
	const r = await ctx.fake.request('GET', '/__fake/log');
	return (r.json.entries || []).filter((e) =>
		String(e.path || e.url || '').includes('/users/check_tokens'),
	);
}

module.exports = async (runData, ctx) => {
	const out = ctx.output('Get Token Balance');
	assert.strictEqual(out.length, 1, 'one balance item');
	const b = out[0];
	for (const k of ['total', 'reserved', 'free']) {
		assert.strictEqual(typeof b[k], 'number', `${k} is a number: ${JSON.stringify(b)}`);
		assert.ok(Number.isFinite(b[k]) && b[k] >= 0, `${k} >= 0`);
	}
	// never leak the key into the output
	assert.ok(!JSON.stringify(out).includes(ctx.apiKey), 'API key not in output');
	// it really asked the fake service, with the API key
	const calls = await checkTokenCalls(ctx);
	assert.ok(calls.length > ctx.callsBefore, 'GET /users/check_tokens reached the fake service');
	const last = calls[calls.length - 1];
	if (last.auth !== undefined) assert.strictEqual(last.auth, 'api_key');
};

module.exports.before = async (ctx) => {
	ctx.callsBefore = (await checkTokenCalls(ctx)).length;
};

// also run it in the queue-mode pass (main + worker)
module.exports.queue = true;
