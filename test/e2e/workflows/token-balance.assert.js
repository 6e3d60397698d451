'use strict';
const assert = require('assert');

module.exports = (runData, ctx) => {
	const out = ctx.output('Get Token Balance');
	assert.strictEqual(out.length, 1, 'one balance item');
	const b = out[0];
	for (const k of ['total', 'reserved', 'free']) {
		assert.strictEqual(typeof b[k], 'number', `${k} is a number: ${JSON.stringify(b)}`);
		assert.ok(Number.isFinite(b[k]) && b[k] >= 0, `${k} >= 0`);
	}
	// never leak the key into the output
	assert.ok(!JSON.stringify(out).includes(ctx.apiKey), 'API key not in output');
};

// also run it in the queue-mode pass (main + worker)
module.exports.queue = true;
