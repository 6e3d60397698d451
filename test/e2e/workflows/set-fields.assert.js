'use strict';
// Sanity check of the n8n install itself (no package node involved).
const assert = require('assert');

module.exports = (runData, ctx) => {
	const out = ctx.output('Edit Fields');
	assert.strictEqual(out.length, 1);
	assert.strictEqual(out[0].greeting, 'hello');
	assert.strictEqual(out[0].answer, 42);
};
