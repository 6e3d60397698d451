/**
 * `npm run fake-service -- --help` prints the options and exits: it does not start a server
 * (no "listening on" line, no port taken, the process ends by itself).
 */
import { spawnSync } from 'child_process';
import path from 'path';

import { HELP, wantsHelp } from '../../fake-service/cli';

const ROOT = path.join(__dirname, '..', '..', '..');

describe('the fake service command line', () => {
	it.each(['--help', '-h'])('%s prints the help and exits without starting the server', (flag) => {
		const run = spawnSync(
			process.execPath,
			[
				require.resolve('ts-node/dist/bin.js'),
				'--transpile-only',
				'test/fake-service/cli.ts',
				flag,
			],
			// a guard against a server that keeps running, not a speed target
			{ cwd: ROOT, encoding: 'utf8', timeout: 120_000 },
		);
		expect(run.error).toBeUndefined();
		expect(run.status).toBe(0);
		expect(run.stdout.trim()).toBe(HELP);
		expect(run.stdout).not.toMatch(/listening on/);
	});

	it('the help names every flag the command reads', () => {
		for (const flag of [
			'--port',
			'--host',
			'--per-plot-ms',
			'--jwt-lifetime',
			'--start-time',
			'--failing',
			'--tokens',
			'--variant',
			'--help',
		])
			expect(HELP).toContain(flag);
		expect(wantsHelp(['node', 'cli.ts', '--port', '5680'])).toBe(false);
		expect(wantsHelp(['node', 'cli.ts', '--help'])).toBe(true);
	});
});
