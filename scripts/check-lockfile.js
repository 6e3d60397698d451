'use strict';
/**
 * `npm run check:lockfile`: does package-lock.json install on every platform n8n runs on?
 *
 * npm writes into the lock file only the per-platform optional packages of the machine that
 * resolved it when it starts from an existing node_modules (npm/cli#4828); `npm ci` on
 * another platform then installs no binary of rollup, esbuild & co. and the build fails
 * there. For every package in the lock file that ships native binaries as per-platform
 * optional packages (an optional dependency with `os`/`cpu` in its lock entry, or named for
 * a platform such as `@rollup/rollup-linux-x64-musl`), this check fails when
 *
 * - an optional dependency it declares has no entry in the lock file (npm never recorded it), or
 * - one of PLATFORMS has no entry among them whose `os`, `cpu` and `libc` fit it (among the
 *   platforms of the operating systems the package ships binaries for: fsevents is for macOS).
 *
 * Prints one line per native package and `check-lockfile: N packages, M problems`; exits 1 on
 * any problem. `checkLockfile(lock)` is the same check on a parsed lock file (unit-tested).
 */
const fs = require('node:fs');
const path = require('node:path');

/** Where n8n runs: Linux x64/arm64 (glibc and musl), macOS x64/arm64, Windows x64. */
const PLATFORMS = [
	{ name: 'linux-x64-glibc', os: 'linux', cpu: 'x64', libc: 'glibc' },
	{ name: 'linux-arm64-glibc', os: 'linux', cpu: 'arm64', libc: 'glibc' },
	{ name: 'linux-x64-musl', os: 'linux', cpu: 'x64', libc: 'musl' },
	{ name: 'linux-arm64-musl', os: 'linux', cpu: 'arm64', libc: 'musl' },
	{ name: 'darwin-x64', os: 'darwin', cpu: 'x64' },
	{ name: 'darwin-arm64', os: 'darwin', cpu: 'arm64' },
	{ name: 'win32-x64', os: 'win32', cpu: 'x64' },
];

const PLATFORM_NAME =
	/(^|[-/])(android|darwin|freebsd|linux|netbsd|openbsd|openharmony|sunos|aix|win32|wasm32)([-.]|$)/;

/** The lock entry key npm resolves `dep` to from the package at `from` (node_modules lookup). */
function resolveEntry(packages, from, dep) {
	let dir = from;
	for (;;) {
		const key = `${dir ? `${dir}/` : ''}node_modules/${dep}`;
		if (packages[key]) return key;
		if (!dir) return undefined;
		const cut = dir.lastIndexOf('/node_modules/');
		dir = cut === -1 ? '' : dir.slice(0, cut);
	}
}

/** An npm `os`/`cpu`/`libc` list (with `!negations`) allows `value`; absent allows all. */
function allows(list, value) {
	if (!Array.isArray(list) || list.length === 0) return true;
	if (list.includes(`!${value}`)) return false;
	const positives = list.filter((v) => !String(v).startsWith('!'));
	return positives.length === 0 || positives.includes(value);
}

function fits(entry, platform) {
	return (
		allows(entry.os, platform.os) &&
		allows(entry.cpu, platform.cpu) &&
		(platform.libc === undefined || allows(entry.libc, platform.libc))
	);
}

/**
 * The problems of a parsed package-lock.json (lockfileVersion 2 or 3), and the native packages
 * it looked at: `{ checked: [{ key, version, platforms, expected }], problems: [string] }`.
 */
function checkLockfile(lock, platforms = PLATFORMS) {
	const problems = [];
	const checked = [];
	const packages = lock && typeof lock === 'object' ? lock.packages : undefined;
	if (!packages || typeof packages !== 'object') {
		return {
			checked,
			problems: ['no "packages" map: not a lock file of npm 7 or later (lockfileVersion 2/3)'],
		};
	}
	for (const [key, entry] of Object.entries(packages)) {
		if (!entry || typeof entry !== 'object' || !entry.optionalDependencies) continue;
		const declared = Object.keys(entry.optionalDependencies);
		const resolved = declared.map((dep) => ({ dep, key: resolveEntry(packages, key, dep) }));
		// The per-platform binaries: the optional packages named for a platform; when there are
		// none, those limited to some os/cpu (fsevents, which rollup also declares beside its
		// binaries, is a macOS extra, not a binary of rollup's).
		const named = resolved.filter(({ dep }) => PLATFORM_NAME.test(dep));
		const platformSpecific =
			named.length > 0
				? named
				: resolved.filter(({ key: k }) => k !== undefined && (packages[k].os || packages[k].cpu));
		if (platformSpecific.length === 0) continue;
		const name = key || lock.name || '(root)';
		const missing = platformSpecific.filter((r) => r.key === undefined).map((r) => r.dep);
		if (missing.length > 0)
			problems.push(
				`${name}: optional ${missing.length === 1 ? 'package' : 'packages'} not in the lock file: ${missing.join(', ')}`,
			);
		const present = platformSpecific.filter((r) => r.key !== undefined);
		// The operating systems the package ships binaries for (fsevents: macOS only): from the
		// names it declares, which stay in the lock file even when their entries are missing.
		const systems = new Set();
		for (const { dep, key: k } of platformSpecific) {
			const os = k ? packages[k].os : undefined;
			if (Array.isArray(os)) for (const o of os) systems.add(String(o));
			const m = PLATFORM_NAME.exec(dep);
			if (m) systems.add(m[2]);
		}
		const covered = [];
		for (const platform of platforms.filter((p) => systems.has(p.os))) {
			const fit = present.find((r) => fits(packages[r.key], platform));
			if (fit) covered.push(platform.name);
			else problems.push(`${name}: no binary package for ${platform.name} in the lock file`);
		}
		checked.push({
			key: name,
			version: entry.version,
			platforms: covered,
			expected: platforms.filter((p) => systems.has(p.os)).map((p) => p.name),
		});
	}
	return { checked, problems };
}

function main() {
	const file = path.resolve(process.argv[2] || path.join(__dirname, '..', 'package-lock.json'));
	const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
	const { checked, problems } = checkLockfile(lock);
	for (const c of checked)
		console.log(
			`${c.platforms.length === c.expected.length ? 'ok  ' : 'FAIL'} ${c.key}@${c.version}: ${c.platforms.join(', ')}`,
		);
	for (const p of problems) console.log(`FAIL ${p}`);
	console.log(
		`check-lockfile: ${checked.length} native packages, ${problems.length} problem${problems.length === 1 ? '' : 's'}`,
	);
	if (problems.length > 0) {
		console.log(
			'Regenerate the lock file so that it records every platform (npm/cli#4828): rm -rf node_modules package-lock.json && npm install',
		);
		process.exitCode = 1;
	}
}

if (require.main === module) main();

module.exports = { checkLockfile, PLATFORMS };
