#!/usr/bin/env node
/**
 * Renames modules and fixes every relative import to them (dev only; not published, no deps).
 *
 *   node scripts/rename-modules.mjs [--dry-run] [--root DIR] [--map mapping.json] [old=new ...]
 *
 * The mapping (old → new, paths from the repository root, files or folders) is issue 22's
 * target map (DEFAULT_MAP below) unless `--map` (a JSON object) or `old=new` pairs are given.
 * For each entry whose old path exists it runs `git mv` (an entry already done or absent is
 * reported and skipped; an existing destination stops the run before anything changes), then
 * rewrites every relative module path in nodes/, credentials/, test/, bench/ and scripts/
 * (`.ts`, `.js`, `.mjs`, `.cjs`: `import … from`, `export … from`, `import '…'`, `import()`,
 * `require()`, `jest.mock()`/`jest.requireActual()`/`jest.doMock()`…) that resolves to a moved
 * file, or that sits in a moved file, keeping the path's style (with or without extension,
 * folder or `index`). Paths are resolved as TypeScript's `node` resolution does (`x.ts`,
 * `x.js`, `x.d.ts`, `x.json`, `x/index.ts`…).
 *
 * It reports each move, each rewritten path (`file: 'old' → 'new'`), and the text mentions of
 * an old path that are not imports (docs, comments, `join(__dirname, …)`) to check by hand.
 * A file holding the line `rename-modules: leave this file as it is` is neither rewritten
 * nor listed (its paths are data, as in this script's own test). `--dry-run` prints the
 * same report and changes nothing. Run `npm run typecheck`, `npx jest`
 * and `npm run check:structure` afterwards.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Issue 22's target map (COMMON.md): old → new, from the repository root. */
export const DEFAULT_MAP = {
	'nodes/shared/helpers/sleep.ts': 'nodes/shared/time/sleep.ts',
	'nodes/shared/helpers/serviceTime.ts': 'nodes/shared/time/serviceTime.ts',
	'nodes/shared/helpers/values.ts': 'nodes/shared/values/answerValues.ts',
	'nodes/shared/helpers/lostAnswer.ts': 'nodes/shared/transport/lostAnswer.ts',
	'nodes/shared/transport/errors.ts': 'nodes/shared/transport/serviceErrors.ts',
	'nodes/shared/transport/failure.ts': 'nodes/shared/transport/serviceFailure.ts',
	'nodes/shared/runner/errors.ts': 'nodes/shared/runner/errorItems.ts',
	'nodes/shared/geometry/errors.ts': 'nodes/shared/geometry/geometryError.ts',
	'nodes/shared/geometry/validate.ts': 'nodes/shared/geometry/checkFeatures.ts',
	'nodes/shared/plots/validation.ts': 'nodes/shared/plots/plotValidation.ts',
	'nodes/shared/results/overlap.ts': 'nodes/shared/results/overlapResults.ts',
	'nodes/shared/plots/overlaps.ts': 'nodes/shared/plots/plotOverlaps.ts',
	'nodes/shared/transport/pages.ts': 'nodes/shared/transport/pageTrail.ts',
	'nodes/shared/transport/catalog.ts': 'nodes/shared/capabilities/catalog.ts',
	'nodes/GeospatialAnalysis/v1/actions/shared': 'nodes/GeospatialAnalysis/v1/actions/commonFields',
	'nodes/GeospatialAnalysis/v1/actions/job/common.ts':
		'nodes/GeospatialAnalysis/v1/actions/job/resultOptions.ts',
};

/** This script (its map names the old paths on purpose). */
const SELF = 'scripts/rename-modules.mjs';
/** A file holding this line is left as it is (e.g. the script's test, whose paths are data). */
export const SKIP_MARK = 'rename-modules: leave this file as it is';
/** Where imports are rewritten. */
export const SCAN_DIRS = ['nodes', 'credentials', 'test', 'bench', 'scripts'];
const SOURCE = /\.(ts|js|mjs|cjs)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', '.cache', '.git']);
/** What TypeScript's `node` resolution tries for an extensionless path, in order. */
const EXTENSIONS = ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'];
const INDEXES = EXTENSIONS.map((ext) => `/index${ext}`);

/**
 * Path strings in source text: group 1 the quote, 2 a relative path (`./a`, `../b/c.ts`: module
 * paths of `import`, `export … from`, `import()`, `require()`, `jest.mock()`,
 * `jest.requireActual<…>()`, and file paths such as `join(__dirname, '../x/y.ts')`, all
 * relative to the file's folder) or 3 a path from the repository root (`'nodes/shared/x.ts'`).
 * Only those that resolve to a moved file or folder (or sit in a moved file) are rewritten.
 */
export const PATH_STRING =
	/(['"`])(?:(\.{1,2}\/[^'"`\n$]*)|((?:nodes|credentials|test|bench|scripts)\/[^'"`\n$]*))\1/g;

/** Every source file under `dirs` of `root` (relative, forward slashes). */
export function sourceFiles(root, dirs = SCAN_DIRS) {
	const found = [];
	const walk = (rel) => {
		let entries;
		try {
			entries = fs.readdirSync(path.join(root, rel), { withFileTypes: true });
		} catch {
			return;
		}
		for (const entry of entries) {
			const child = `${rel}/${entry.name}`;
			if (entry.isDirectory()) {
				if (!SKIP_DIRS.has(entry.name)) walk(child);
			} else if (entry.isFile() && SOURCE.test(entry.name)) found.push(child);
		}
	};
	for (const dir of dirs) walk(dir);
	return found.sort();
}

/** Every file (relative) under a folder of `root`. */
function filesUnder(root, dir) {
	const found = [];
	for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
		const child = `${dir}/${entry.name}`;
		if (entry.isDirectory()) found.push(...filesUnder(root, child));
		else found.push(child);
	}
	return found;
}

/**
 * The file (relative to root) a relative module path of `fromFile` resolves to, with how:
 * `{ file, kind: 'exact' | 'extension' | 'index' }`, or undefined when nothing is there.
 */
export function resolveModule(exists, fromFile, spec) {
	const base = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), spec));
	if (exists(base) === 'file') return { file: base, kind: 'exact' };
	for (const ext of EXTENSIONS)
		if (exists(base + ext) === 'file') return { file: base + ext, kind: 'extension' };
	// `./x.js` naming a TypeScript file (ESM-style specifiers).
	const js = base.match(/^(.*)\.(m|c)?js$/);
	if (js)
		for (const ext of ['.ts', '.mts', '.cts'])
			if (exists(js[1] + ext) === 'file') return { file: js[1] + ext, kind: 'exact' };
	for (const index of INDEXES)
		if (exists(base + index) === 'file') return { file: base + index, kind: 'index' };
	if (exists(base) === 'dir') return { file: base, kind: 'dir' };
	return undefined;
}

/** The module path from `fromFile` to `target`, in the style (`kind`, original spec) it had. */
export function specifierFor(fromFile, target, kind, original) {
	let goal = target;
	if (kind === 'index') goal = path.posix.dirname(target);
	else if (kind === 'root') return target;
	else if (kind === 'extension') goal = target.replace(/(\.d)?\.(tsx?|mjs|cjs|js|json)$/, '');
	else if (/\.(m|c)?js$/.test(original) && /\.(m|c)?ts$/.test(target))
		goal = target.replace(/\.(m|c)?ts$/, (_, m) => `.${m ?? ''}js`);
	let rel = path.posix.relative(path.posix.dirname(fromFile), goal);
	if (rel === '') rel = '.';
	if (!rel.startsWith('.')) rel = `./${rel}`;
	if (original.endsWith('/') && !rel.endsWith('/')) rel += '/';
	return rel;
}

/**
 * The plan for a mapping on the tree at `root`: moves (file → file), the rewritten text of
 * every source file whose module paths change (keyed by its NEW path), the changes made, the
 * entries skipped and the problems that stop the run.
 */
export function planRename(root, mapping) {
	const stat = (rel) => {
		try {
			const s = fs.statSync(path.join(root, rel));
			return s.isDirectory() ? 'dir' : s.isFile() ? 'file' : undefined;
		} catch {
			return undefined;
		}
	};
	const moves = new Map(); // old file → new file
	const entries = [];
	const skipped = [];
	const problems = [];
	for (const [from, to] of Object.entries(mapping)) {
		const kind = stat(from);
		if (kind === undefined) {
			skipped.push(`${from}: not there${stat(to) ? ` (${to} exists: already moved)` : ''}`);
			continue;
		}
		if (stat(to) !== undefined) {
			problems.push(`${from} → ${to}: ${to} exists already; move or merge it by hand first`);
			continue;
		}
		entries.push({ from, to, kind });
		if (kind === 'file') moves.set(from, to);
		else for (const file of filesUnder(root, from)) moves.set(file, to + file.slice(from.length));
	}
	const folders = entries.filter((e) => e.kind === 'dir');
	/** Where a file or folder is after the moves. */
	const newPath = (p) => {
		if (moves.has(p)) return moves.get(p);
		for (const f of folders)
			if (p === f.from || p.startsWith(`${f.from}/`)) return f.to + p.slice(f.from.length);
		return p;
	};
	const moved = (p) => newPath(p) !== p;
	const changes = [];
	const rewritten = new Map();
	for (const file of sourceFiles(root)) {
		if (file === SELF) continue;
		const text = fs.readFileSync(path.join(root, file), 'utf8');
		if (text.includes(SKIP_MARK)) {
			skipped.push(`${file}: left as it is (${SKIP_MARK})`);
			continue;
		}
		const fileMoved = moves.has(file);
		const fileChanges = [];
		const next = text.replace(PATH_STRING, (whole, quote, relative, fromRoot) => {
			let wanted;
			if (relative !== undefined) {
				const resolved = resolveModule(stat, file, relative);
				if (!resolved || (!fileMoved && !moved(resolved.file))) return whole;
				wanted = specifierFor(newPath(file), newPath(resolved.file), resolved.kind, relative);
			} else {
				const clean = fromRoot.replace(/\/$/, '');
				if (!moved(clean) || stat(clean) === undefined) return whole;
				wanted = newPath(clean) + fromRoot.slice(clean.length);
			}
			const spec = relative ?? fromRoot;
			if (wanted === spec) return whole;
			fileChanges.push({ from: spec, to: wanted });
			return `${quote}${wanted}${quote}`;
		});
		if (fileChanges.length > 0) {
			rewritten.set(newPath(file), next);
			changes.push({ file: newPath(file), was: fileMoved ? file : undefined, paths: fileChanges });
		}
	}
	return { entries, moves, rewritten, changes, skipped, problems };
}

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Text mentions of an old path (without extension) in tracked files, after the moves: to check by hand. */
function leftoverMentions(root, entries) {
	let tracked;
	try {
		tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n');
	} catch {
		return [];
	}
	const needles = entries.map((e) => e.from.replace(/\.(ts|js)$/, ''));
	// A moved file named alone in quotes ('validate.ts' in join(dir, 'validate.ts')).
	const names = entries
		.filter((e) => e.kind === 'file')
		.map((e) => new RegExp(`['"\`]${escapeRegExp(path.posix.basename(e.from))}['"\`]`));
	const found = [];
	for (const file of tracked) {
		if (!file || !/\.(ts|js|mjs|cjs|md|json|ya?ml)$/.test(file) || file === 'package-lock.json')
			continue;
		if (file === SELF) continue;
		let text;
		try {
			text = fs.readFileSync(path.join(root, file), 'utf8');
		} catch {
			continue;
		}
		if (text.includes(SKIP_MARK)) continue;
		const lines = text.split('\n');
		lines.forEach((line, i) => {
			for (const needle of needles) {
				const short = needle.replace(/^nodes\//, '');
				const at = new RegExp(`${escapeRegExp(short)}(?![A-Za-z0-9_])`);
				if (at.test(line)) found.push(`${file}:${i + 1}: ${line.trim().slice(0, 160)}`);
			}
			for (const name of names)
				if (name.test(line)) found.push(`${file}:${i + 1}: ${line.trim().slice(0, 160)}`);
		});
	}
	return [...new Set(found)];
}

/** Parses the command line into `{ dryRun, mapping }`. */
export function parseArgs(argv, readJson = (f) => JSON.parse(fs.readFileSync(f, 'utf8'))) {
	let dryRun = false;
	let root;
	let mapping;
	const pairs = {};
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '--dry-run') dryRun = true;
		else if (arg === '--map') mapping = readJson(argv[++i]);
		else if (arg === '--root') root = argv[++i];
		else if (arg.includes('=')) {
			const [from, to] = arg.split('=');
			pairs[from.replace(/\/$/, '')] = to.replace(/\/$/, '');
		} else
			throw new Error(
				`unknown argument ${arg} (use --dry-run, --root DIR, --map file.json, old=new)`,
			);
	}
	if (Object.keys(pairs).length > 0) mapping = { ...(mapping ?? {}), ...pairs };
	return { dryRun, root, mapping: mapping ?? DEFAULT_MAP };
}

function main() {
	const args = parseArgs(process.argv.slice(2));
	const { dryRun, mapping } = args;
	const root = path.resolve(
		args.root ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'),
	);
	const plan = planRename(root, mapping);
	for (const s of plan.skipped) console.log(`skip  ${s}`);
	if (plan.problems.length > 0) {
		for (const p of plan.problems) console.log(`STOP  ${p}`);
		console.log('rename-modules: nothing changed');
		process.exitCode = 1;
		return;
	}
	for (const e of plan.entries) {
		console.log(`move  ${e.from} → ${e.to}`);
		if (dryRun) continue;
		fs.mkdirSync(path.dirname(path.join(root, e.to)), { recursive: true });
		execFileSync('git', ['mv', e.from, e.to], { cwd: root, stdio: 'inherit' });
		// Remove folders a move left empty (helpers/ once its last file has gone).
		let dir = path.dirname(e.from);
		while (dir !== '.' && fs.existsSync(path.join(root, dir))) {
			if (fs.readdirSync(path.join(root, dir)).length > 0) break;
			fs.rmdirSync(path.join(root, dir));
			dir = path.dirname(dir);
		}
	}
	let count = 0;
	for (const change of plan.changes) {
		console.log(`edit  ${change.file}${change.was ? ` (was ${change.was})` : ''}`);
		for (const p of change.paths) console.log(`        '${p.from}' → '${p.to}'`);
		count += change.paths.length;
		if (!dryRun) fs.writeFileSync(path.join(root, change.file), plan.rewritten.get(change.file));
	}
	const mentions = leftoverMentions(root, plan.entries);
	if (mentions.length > 0) {
		console.log('check by hand (an old path mentioned outside an import):');
		for (const m of mentions) console.log(`  ${m}`);
	}
	console.log(
		`rename-modules: ${plan.entries.length} moved (${plan.moves.size} files), ${count} module paths rewritten in ${plan.changes.length} files, ${plan.skipped.length} skipped, ${mentions.length} mentions to check${dryRun ? ' (dry run: nothing changed)' : ''}`,
	);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
