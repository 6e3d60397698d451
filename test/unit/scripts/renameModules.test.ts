/**
 * The lead's rename pass (issue 22, item 7): scripts/rename-modules.mjs moves files and folders
 * with `git mv` and rewrites every relative path that resolves to a moved file — imports,
 * `jest.mock`/`jest.requireActual`, `import()` types, `join(__dirname, …)` paths, paths from
 * the root — in the files that stay and in the files that move, keeping each path's style.
 *
 * rename-modules: leave this file as it is (the paths below are the test's data).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const script = join(__dirname, '..', '..', '..', 'scripts', 'rename-modules.mjs');

const FILES: Record<string, string> = {
	'nodes/shared/helpers/sleep.ts': 'export const sleep = 1;\n',
	'nodes/shared/helpers/values.ts': [
		"import { sleep } from './sleep';",
		"import { request } from '../transport/request';",
		"export { runner } from '../runner';",
		'export const values = sleep + request;',
		'',
	].join('\n'),
	'nodes/shared/transport/request.ts': [
		"import { sleep } from '../helpers/sleep';",
		"import type { values } from '../helpers/values';",
		'export const request = sleep;',
		'export type V = typeof values;',
		'',
	].join('\n'),
	'nodes/shared/runner/index.ts': 'export const runner = 2;\n',
	'nodes/GeospatialAnalysis/v1/actions/shared/index.ts': "export * from './fields';\n",
	'nodes/GeospatialAnalysis/v1/actions/shared/fields.ts': 'export const fields = [];\n',
	'nodes/GeospatialAnalysis/v1/actions/job/get.operation.ts': [
		"import { fields } from '../shared';",
		"import { fields as f } from '../shared/fields';",
		"import { sleep } from '../../../../shared/helpers/sleep';",
		"import { other } from './other';",
		'export const x = [fields, f, sleep, other];',
		'',
	].join('\n'),
	'nodes/GeospatialAnalysis/v1/actions/job/other.ts': 'export const other = 3;\n',
	'test/unit/a.test.ts': [
		"jest.mock('../../nodes/shared/helpers/sleep', () => ({ sleep: 0 }));",
		"const real = jest.requireActual<typeof import('../../nodes/shared/helpers/sleep')>(",
		"\t'../../nodes/shared/helpers/sleep',",
		');',
		"const file = join(__dirname, '../../nodes/shared/helpers/sleep.ts');",
		"const EMITTERS = ['nodes/shared/helpers/values.ts', 'nodes/shared/runner/index.ts'];",
		"const loaded = require('../../nodes/shared/helpers/values');",
		"import { unrelated } from './unrelated';",
		'',
	].join('\n'),
	'test/unit/unrelated.ts': 'export const unrelated = 4;\n',
	'test/unit/b.test.ts':
		"// rename-modules: leave this file as it is\nimport { sleep } from '../../nodes/shared/helpers/sleep';\n",
	'README.md': 'Waits use nodes/shared/helpers/sleep.ts.\n',
};

function makeRepo(): string {
	const dir = mkdtempSync(join(tmpdir(), 'rename-modules-'));
	for (const [file, text] of Object.entries(FILES)) {
		mkdirSync(dirname(join(dir, file)), { recursive: true });
		writeFileSync(join(dir, file), text);
	}
	const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
	git('init', '-q');
	git('add', '-A');
	git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'tree');
	return dir;
}

const run = (dir: string, ...args: string[]) =>
	spawnSync(process.execPath, [script, '--root', dir, ...args], { encoding: 'utf8' });
const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');

describe('scripts/rename-modules.mjs', () => {
	let dir: string;
	afterEach(() => rmSync(dir, { recursive: true, force: true }));

	it('moves what exists of issue 22’s map with git mv and rewrites every path to a moved file', () => {
		dir = makeRepo();
		const result = run(dir);
		expect(result.status).toBe(0);
		expect(result.stdout).toContain(
			'move  nodes/shared/helpers/sleep.ts → nodes/shared/time/sleep.ts',
		);
		expect(result.stdout).toContain(
			'move  nodes/shared/helpers/values.ts → nodes/shared/values/answerValues.ts',
		);
		expect(result.stdout).toContain(
			'move  nodes/GeospatialAnalysis/v1/actions/shared → nodes/GeospatialAnalysis/v1/actions/commonFields',
		);
		expect(result.stdout).toContain('skip  nodes/shared/transport/errors.ts: not there');
		expect(result.stdout).toContain(
			'skip  test/unit/b.test.ts: left as it is (rename-modules: leave this file as it is)',
		);
		expect(read(dir, 'test/unit/b.test.ts')).toBe(FILES['test/unit/b.test.ts']);
		expect(result.stdout).toMatch(
			/rename-modules: 3 moved \(4 files\), \d+ module paths rewritten/,
		);

		expect(existsSync(join(dir, 'nodes/shared/helpers'))).toBe(false);
		const status = execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' });
		expect(status).toContain('R  nodes/shared/helpers/sleep.ts -> nodes/shared/time/sleep.ts');

		// A moved file: its own relative imports follow it; unchanged files it imports stay put.
		expect(read(dir, 'nodes/shared/values/answerValues.ts')).toBe(
			[
				"import { sleep } from '../time/sleep';",
				"import { request } from '../transport/request';",
				"export { runner } from '../runner';",
				'export const values = sleep + request;',
				'',
			].join('\n'),
		);
		expect(read(dir, 'nodes/shared/transport/request.ts')).toBe(
			[
				"import { sleep } from '../time/sleep';",
				"import type { values } from '../values/answerValues';",
				'export const request = sleep;',
				'export type V = typeof values;',
				'',
			].join('\n'),
		);
		// A folder move: the folder path stays a folder path, a file in it keeps its form.
		expect(read(dir, 'nodes/GeospatialAnalysis/v1/actions/job/get.operation.ts')).toBe(
			[
				"import { fields } from '../commonFields';",
				"import { fields as f } from '../commonFields/fields';",
				"import { sleep } from '../../../../shared/time/sleep';",
				"import { other } from './other';",
				'export const x = [fields, f, sleep, other];',
				'',
			].join('\n'),
		);
		expect(read(dir, 'test/unit/a.test.ts')).toBe(
			[
				"jest.mock('../../nodes/shared/time/sleep', () => ({ sleep: 0 }));",
				"const real = jest.requireActual<typeof import('../../nodes/shared/time/sleep')>(",
				"\t'../../nodes/shared/time/sleep',",
				');',
				"const file = join(__dirname, '../../nodes/shared/time/sleep.ts');",
				"const EMITTERS = ['nodes/shared/values/answerValues.ts', 'nodes/shared/runner/index.ts'];",
				"const loaded = require('../../nodes/shared/values/answerValues');",
				"import { unrelated } from './unrelated';",
				'',
			].join('\n'),
		);
		expect(result.stdout).toContain("        '../helpers/sleep' → '../time/sleep'");
		// What is not a module path is left alone and listed to check by hand.
		expect(read(dir, 'README.md')).toBe(FILES['README.md']);
		expect(result.stdout).toContain('README.md:1: Waits use nodes/shared/helpers/sleep.ts.');
	});

	it('--dry-run reports the same and changes nothing', () => {
		dir = makeRepo();
		const result = run(dir, '--dry-run');
		expect(result.status).toBe(0);
		expect(result.stdout).toContain(
			'move  nodes/shared/helpers/sleep.ts → nodes/shared/time/sleep.ts',
		);
		expect(result.stdout).toContain("'../helpers/sleep' → '../time/sleep'");
		expect(result.stdout).toContain('(dry run: nothing changed)');
		const status = execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' });
		expect(status).toBe('');
	});

	it('stops before any change when a destination exists; takes old=new pairs instead of the map', () => {
		dir = makeRepo();
		mkdirSync(join(dir, 'nodes/shared/time'), { recursive: true });
		writeFileSync(join(dir, 'nodes/shared/time/sleep.ts'), 'export const sleep = 9;\n');
		const stopped = run(dir);
		expect(stopped.status).toBe(1);
		expect(stopped.stdout).toContain(
			'STOP  nodes/shared/helpers/sleep.ts → nodes/shared/time/sleep.ts: nodes/shared/time/sleep.ts exists already',
		);
		expect(stopped.stdout).toContain('rename-modules: nothing changed');
		expect(read(dir, 'nodes/shared/transport/request.ts')).toBe(
			FILES['nodes/shared/transport/request.ts'],
		);

		const pair = run(
			dir,
			'nodes/GeospatialAnalysis/v1/actions/job/other.ts=nodes/GeospatialAnalysis/v1/actions/job/moved.ts',
		);
		expect(pair.status).toBe(0);
		expect(read(dir, 'nodes/GeospatialAnalysis/v1/actions/job/get.operation.ts')).toContain(
			"import { other } from './moved';",
		);
		expect(existsSync(join(dir, 'nodes/shared/helpers/sleep.ts'))).toBe(true);
	});
});
