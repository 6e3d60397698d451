'use strict';
// A service error (no token account: 404 with a plain-string body) fails the execution
// with a node error that names the node and carries the service's message, not the key.
const assert = require('assert');

module.exports = async (runData, ctx) => {
	try {
		const err = ctx.result.error;
		assert.ok(err, 'the execution failed');
		assert.ok(runData['Get Token Balance'], 'our node ran');
		assert.strictEqual(err.node && err.node.name, 'Get Token Balance');
		assert.match(String(err.message), /token balance/i);
		assert.ok(!JSON.stringify(err).includes(ctx.apiKey), 'API key not in the error');
	} finally {
		await ctx.fake.request('POST', '/__fake/reset');
	}
};

module.exports.before = async (ctx) => {
	const r = await ctx.fake.request('DELETE', `/__fake/balance/${ctx.fake.user.username}`);
	assert.strictEqual(r.status, 200, `DELETE /__fake/balance: ${r.status} ${r.text}`);
};

module.exports.expectError = true;
