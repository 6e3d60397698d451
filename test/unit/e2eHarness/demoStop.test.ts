/**
 * Ctrl-C on `npm run demo` stops everything it started (issue 35): the demo's process
 * (test/e2e/demo.js's runDemo, with a stand-in for n8n in its own process group, so that no
 * n8n is installed) starts the fake service, the EU fake and the scripted chat model on
 * loopback ports; then SIGINT comes as a terminal sends it to the foreground group and as
 * `npm run` forwards it once more. When the demo's process has exited, every port it opened
 * refuses connections and every process group it started is gone.
 */
import { spawn } from 'node:child_process';
import * as net from 'node:net';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '../../..');
const RUNNER = `
const { runDemo } = require('./test/e2e/demo.js');
const { startStandIn } = require('./test/helpers/demoStandIn.js');
void runDemo({
	startN8n: startStandIn,
	build: false,
	onReady: ({ fake, app }) =>
		console.log('DEMO-READY ' + JSON.stringify({
			ports: { fake: fake.port, eu: fake.eu.port, llm: Number(new URL(fake.llm.url).port), n8n: app.port },
			groups: [fake.child.pid, fake.eu.child.pid, ...app.groups],
		})),
});
`;

/** Whether a connection to the loopback port is refused. */
const refused = (port: number) =>
	new Promise<boolean>((resolve) => {
		const socket = net.connect(port, '127.0.0.1');
		socket.once('connect', () => {
			socket.destroy();
			resolve(false);
		});
		socket.once('error', () => resolve(true));
	});

/** Whether a process group has no process left. */
const groupGone = (pid: number) => {
	try {
		process.kill(-pid, 0);
		return false;
	} catch {
		return true;
	}
};

it('SIGINT, twice as from a terminal under npm run, stops n8n and both fakes, freeing their ports', async () => {
	const demo = spawn(process.execPath, ['-e', RUNNER], {
		cwd: ROOT,
		stdio: ['ignore', 'pipe', 'pipe'],
		// its own group: SIGINT to the group, as a terminal sends it to the foreground job
		detached: true,
	});
	let output = '';
	demo.stderr.on('data', (d) => (output += d));
	const exited = new Promise<number | string | null>((resolve) =>
		demo.on('exit', (code, signal) => resolve(code ?? signal)),
	);
	const ready = await new Promise<{ ports: Record<string, number>; groups: number[] }>(
		(resolve, reject) => {
			demo.stdout.on('data', (d) => {
				output += d;
				const m = /DEMO-READY (.*)/.exec(output);
				if (m) resolve(JSON.parse(m[1]));
			});
			void exited.then(() => reject(new Error(`the demo exited before it was ready:\n${output}`)));
		},
	);
	const ports = Object.values(ready.ports);
	expect(ports).toHaveLength(4);
	for (const port of ports) expect(await refused(port)).toBe(false);

	// the terminal's SIGINT to the group; once the demo has taken it (two pending signals of
	// one kind would be delivered as one), the one `npm run` forwards
	const said = (text: RegExp) =>
		new Promise<void>((resolve) => {
			const look = () => text.test(output) && (demo.stdout.off('data', look), resolve());
			demo.stdout.on('data', look);
			look();
		});
	process.kill(-demo.pid!, 'SIGINT');
	await said(/SIGINT: stopping n8n and the fakes/);
	let second = true;
	try {
		process.kill(demo.pid!, 'SIGINT');
	} catch {
		second = false; // it had stopped everything and exited already
	}
	expect(await exited).toBe(0);
	if (second) expect(output).toMatch(/still stopping/);

	for (const port of ports) expect(await refused(port)).toBe(true);
	expect(ready.groups.filter((pid) => !groupGone(pid))).toEqual([]);
}, 180_000);
