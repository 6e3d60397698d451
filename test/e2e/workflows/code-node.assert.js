'use strict';
// n8n's Code node runs in a task runner (1.x: N8N_RUNNERS_ENABLED=true; 2.x: always): proves that works here.
const assert = require('assert');

module.exports = (runData, ctx) => {
	const [out] = ctx.output('Code');
	assert.deepStrictEqual(out, { counts: { High: 2, Low: 1, Medium: 1 }, total: 4 });
};
