'use strict';
/**
 * A stand-in for n8n in `runDemo` (test/e2e/demo.js), for the test of Ctrl-C: a small HTTP
 * server in its own process group (as n8n is started), on a loopback port. Resolves what
 * runDemo expects of its n8n starter; `stop` ends its group as the demo stops n8n.
 */
const { spawn } = require('child_process');

const SERVER =
	"require('http').createServer((q, s) => s.end('stand-in')).listen(0, '127.0.0.1', function () { console.log('PORT ' + this.address().port); });";

async function startStandIn() {
	const child = spawn(process.execPath, ['-e', SERVER], {
		stdio: ['ignore', 'pipe', 'inherit'],
		detached: true,
	});
	const exited = new Promise((resolve) =>
		child.on('exit', (code, signal) => resolve(code ?? signal)),
	);
	const port = await new Promise((resolve, reject) => {
		let out = '';
		child.stdout.on('data', (d) => {
			out += d;
			const m = /PORT (\d+)/.exec(out);
			if (m) resolve(Number(m[1]));
		});
		child.on('exit', () => reject(new Error(`the stand-in exited: ${out}`)));
	});
	const stop = async () => {
		try {
			process.kill(-child.pid, 'SIGTERM');
		} catch {}
		await exited;
	};
	return {
		url: `http://127.0.0.1:${port}`,
		port,
		version: 'stand-in',
		credentials: [],
		examples: [],
		exited,
		stop,
		groups: [child.pid],
	};
}

module.exports = { startStandIn };
