/**
 * The lock file installs on every platform n8n runs on (issue 21, item 9): scripts/check-lockfile.js
 * passes on the committed package-lock.json and fails on a lock file written the way npm/cli#4828
 * writes it (only the resolving machine's optional binaries), naming the package and platform.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface Checked {
	key: string;
	version: string;
	platforms: string[];
	expected: string[];
}
interface LockCheck {
	checkLockfile(lock: unknown): { checked: Checked[]; problems: string[] };
	PLATFORMS: Array<{ name: string }>;
}
const { checkLockfile, PLATFORMS } = require('../../../scripts/check-lockfile.js') as LockCheck;

const root = join(__dirname, '..', '..', '..');
type Lock = { name: string; packages: Record<string, Record<string, unknown>> };
const readLock = () => JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as Lock;

const ALL = [
	'linux-x64-glibc',
	'linux-arm64-glibc',
	'linux-x64-musl',
	'linux-arm64-musl',
	'darwin-x64',
	'darwin-arm64',
	'win32-x64',
];

/** The lock file as npm writes it from a Linux x64 glibc node_modules (npm/cli#4828). */
function onlyLinuxGlibc(lock: Lock, prefix: string): Lock {
	const copy = JSON.parse(JSON.stringify(lock)) as Lock;
	for (const key of Object.keys(copy.packages))
		if (key.startsWith(prefix) && !/linux-x64-gnu$/.test(key)) delete copy.packages[key];
	return copy;
}

describe('package-lock.json: a binary for every platform n8n runs on', () => {
	it('the committed lock file has, for rollup, esbuild and every other native package, an entry per platform', () => {
		const { checked, problems } = checkLockfile(readLock());
		expect(problems).toEqual([]);
		expect(PLATFORMS.map((p) => p.name)).toEqual(ALL);
		const byKey = new Map(checked.map((c) => [c.key, c]));
		for (const key of ['node_modules/rollup', 'node_modules/esbuild']) {
			expect(byKey.get(key)?.platforms).toEqual(ALL);
		}
		for (const c of checked) expect(c.platforms).toEqual(c.expected);
	});

	it('fails on a lock file that records only the resolving machine’s rollup binary, naming package and platforms', () => {
		const broken = onlyLinuxGlibc(readLock(), 'node_modules/@rollup/');
		const { problems } = checkLockfile(broken);
		expect(problems).toContainEqual(
			expect.stringMatching(
				/^node_modules\/rollup: optional packages not in the lock file: .*@rollup\/rollup-win32-x64-msvc/,
			),
		);
		for (const platform of ['linux-arm64-glibc', 'linux-x64-musl', 'darwin-arm64', 'win32-x64'])
			expect(problems).toContain(
				`node_modules/rollup: no binary package for ${platform} in the lock file`,
			);
		expect(problems).not.toContain(
			'node_modules/rollup: no binary package for linux-x64-glibc in the lock file',
		);
	});

	it('tells glibc from musl by the libc field, and checks esbuild too', () => {
		const lock = readLock();
		delete lock.packages['node_modules/@rollup/rollup-linux-arm64-musl'];
		delete lock.packages['node_modules/@esbuild/darwin-x64'];
		const { problems } = checkLockfile(lock);
		expect(problems).toEqual([
			'node_modules/esbuild: optional package not in the lock file: @esbuild/darwin-x64',
			'node_modules/esbuild: no binary package for darwin-x64 in the lock file',
			'node_modules/rollup: optional package not in the lock file: @rollup/rollup-linux-arm64-musl',
			'node_modules/rollup: no binary package for linux-arm64-musl in the lock file',
		]);
	});

	it('a macOS-only optional package (fsevents) is checked for macOS only; a nested copy resolves to its own entries', () => {
		const lock: Lock = {
			name: 'x',
			packages: {
				'': { name: 'x' },
				'node_modules/watcher': { version: '1.0.0', optionalDependencies: { fsevents: '^2' } },
				'node_modules/fsevents': { version: '2.3.3', os: ['darwin'], optional: true },
				'node_modules/tool': {
					version: '1.0.0',
					optionalDependencies: { '@tool/linux-x64': '1', '@tool/win32-x64': '1' },
				},
				'node_modules/tool/node_modules/@tool/linux-x64': { os: ['linux'], cpu: ['x64'] },
				'node_modules/@tool/win32-x64': { os: ['win32'], cpu: ['x64'] },
			},
		};
		const { checked, problems } = checkLockfile(lock);
		expect(checked.find((c) => c.key === 'node_modules/watcher')?.platforms).toEqual([
			'darwin-x64',
			'darwin-arm64',
		]);
		expect(problems).toEqual([
			'node_modules/tool: no binary package for linux-arm64-glibc in the lock file',
			'node_modules/tool: no binary package for linux-arm64-musl in the lock file',
		]);
		expect(checkLockfile({}).problems).toEqual([
			expect.stringContaining('not a lock file of npm 7 or later'),
		]);
	});

	it('the command prints a line per native package and exits 1 on a problem', () => {
		const out = execFileSync(process.execPath, [join(root, 'scripts/check-lockfile.js')], {
			encoding: 'utf8',
		});
		expect(out).toMatch(/^ok {3}node_modules\/rollup@[\d.]+: linux-x64-glibc, /m);
		expect(out).toMatch(/check-lockfile: \d+ native packages, 0 problems/);
		const dir = require('node:fs').mkdtempSync(join(require('node:os').tmpdir(), 'lock-'));
		const file = join(dir, 'package-lock.json');
		require('node:fs').writeFileSync(
			file,
			JSON.stringify(onlyLinuxGlibc(readLock(), 'node_modules/@rollup/')),
		);
		const bad = spawnSync(process.execPath, [join(root, 'scripts/check-lockfile.js'), file], {
			encoding: 'utf8',
		});
		expect(bad.status).toBe(1);
		expect(bad.stdout).toMatch(/^FAIL node_modules\/rollup: no binary package for win32-x64/m);
		require('node:fs').rmSync(dir, { recursive: true });
	});
});
