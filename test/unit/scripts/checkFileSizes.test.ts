/**
 * No file in nodes/ over 450 lines without a reason in its header (issue 22, acceptance):
 * scripts/check-file-sizes.js counts lines as an editor does, reads only the comment block a
 * file starts with, and fails a long file unless that block says `Longer than 450 lines because …`.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Checked {
	file: string;
	lines: number;
	reason?: string;
	problem?: string;
}
interface SizeCheck {
	MAX_LINES: number;
	REASON: string;
	lineCount(text: string): number;
	headerLines(text: string): string[];
	lengthReason(text: string): string | undefined;
	checkSource(file: string, text: string): Checked;
	sourceFiles(root: string, dir: string): string[];
	checkTree(root: string, dirs?: string[]): Checked[];
}
const sizes = require('../../../scripts/check-file-sizes.js') as SizeCheck;
const { MAX_LINES, REASON, lineCount, headerLines, lengthReason, checkSource } = sizes;

const root = join(__dirname, '..', '..', '..');
const code = (n: number) =>
	Array.from({ length: n }, (_, i) => `export const v${i} = ${i};\n`).join('');

describe('scripts/check-file-sizes.js', () => {
	it('the limit is 450 lines and the reason line says so', () => {
		expect(MAX_LINES).toBe(450);
		expect(REASON).toBe('Longer than 450 lines because');
	});

	it('counts lines as an editor numbers them', () => {
		expect(lineCount('')).toBe(0);
		expect(lineCount('a')).toBe(1);
		expect(lineCount('a\n')).toBe(1);
		expect(lineCount('a\nb')).toBe(2);
		expect(lineCount('a\nb\n')).toBe(2);
		expect(lineCount('a\n\n')).toBe(2);
		expect(lineCount(code(451))).toBe(451);
	});

	it('reads the header: a leading /** */ block or // lines, without markers, after a shebang and blank lines', () => {
		expect(headerLines('/**\n * One.\n *\n * Two.\n */\nimport x from "y";\n')).toEqual([
			'',
			'One.',
			'',
			'Two.',
			'',
		]);
		expect(
			headerLines('#!/usr/bin/env node\n\n// One.\n// Two.\nconst a = 1;\n// Later.\n'),
		).toEqual(['One.', 'Two.']);
		expect(headerLines('/* one line */\ncode();\n')).toEqual(['one line']);
		expect(headerLines('import x from "y";\n/**\n * Not a header.\n */\n')).toEqual([]);
	});

	it('finds the reason only in the header and only with words after "because"', () => {
		const withReason = `/**\n * Reads a layer.\n *\n * ${REASON} the readers share one record model.\n */\n`;
		expect(lengthReason(withReason)).toBe('the readers share one record model.');
		expect(lengthReason(`// ${REASON} one table.\n`)).toBe('one table.');
		expect(lengthReason(`/**\n * ${REASON}\n */\n`)).toBeUndefined();
		expect(lengthReason(`import x from "y";\n/**\n * ${REASON} too late.\n */\n`)).toBeUndefined();
		expect(lengthReason(`/**\n * It is ${REASON} mid-line.\n */\n`)).toBeUndefined();
		expect(
			lengthReason(`/**\n * Longer than 500 lines because another limit.\n */\n`),
		).toBeUndefined();
	});

	it('passes a file of 450 lines, fails one of 451 naming the file, its length and what to do', () => {
		expect(checkSource('nodes/a.ts', code(450))).toEqual({ file: 'nodes/a.ts', lines: 450 });
		const long = checkSource('nodes/shared/b.ts', code(451));
		expect(long.lines).toBe(451);
		expect(long.problem).toContain('nodes/shared/b.ts: 451 lines (more than 450)');
		expect(long.problem).toContain('Split it by responsibility');
		expect(long.problem).toContain(`"${REASON} …"`);
	});

	it('passes a long file whose header gives the reason, and reports the reason', () => {
		const text = `/**\n * A table.\n * ${REASON} it is one table of rows.\n */\n${code(500)}`;
		expect(checkSource('nodes/c.ts', text)).toEqual({
			file: 'nodes/c.ts',
			lines: 504,
			reason: 'it is one table of rows.',
		});
		const reasonLater = `${code(500)}/**\n * ${REASON} it is one table of rows.\n */\n`;
		expect(checkSource('nodes/c.ts', reasonLater).problem).toBeDefined();
	});

	describe('on a tree', () => {
		let dir: string;
		beforeAll(() => {
			dir = mkdtempSync(join(tmpdir(), 'check-sizes-'));
			mkdirSync(join(dir, 'nodes/shared/x'), { recursive: true });
			mkdirSync(join(dir, 'nodes/N/__schema__/v1'), { recursive: true });
			mkdirSync(join(dir, 'nodes/node_modules/p'), { recursive: true });
			writeFileSync(join(dir, 'nodes/shared/x/short.ts'), code(10));
			writeFileSync(join(dir, 'nodes/shared/x/long.ts'), code(451));
			writeFileSync(join(dir, 'nodes/shared/x/long.js'), `// ${REASON} a reason.\n${code(460)}`);
			writeFileSync(join(dir, 'nodes/N/__schema__/v1/get.json'), '{}\n'.repeat(600));
			writeFileSync(join(dir, 'nodes/node_modules/p/index.js'), code(600));
			writeFileSync(join(dir, 'nodes/shared/x/notes.md'), 'x\n'.repeat(600));
		});
		afterAll(() => rmSync(dir, { recursive: true, force: true }));

		it('checks the .ts/.js files of nodes/ (not generated JSON, not node_modules)', () => {
			expect(sizes.sourceFiles(dir, 'nodes')).toEqual([
				'nodes/shared/x/long.js',
				'nodes/shared/x/long.ts',
				'nodes/shared/x/short.ts',
			]);
			const problems = sizes.checkTree(dir).filter((r) => r.problem);
			expect(problems.map((r) => r.file)).toEqual(['nodes/shared/x/long.ts']);
		});

		it('the command exits 1 and prints the file to fix; it exits 0 once the file has a reason', () => {
			const script = join(root, 'scripts/check-file-sizes.js');
			const run = () => spawnSync(process.execPath, [script, dir], { encoding: 'utf8' });
			const failing = run();
			expect(failing.status).toBe(1);
			expect(failing.stdout).toContain('FAIL  nodes/shared/x/long.ts: 451 lines (more than 450)');
			expect(failing.stdout).toContain(
				'ok (with reason)  nodes/shared/x/long.js: 461 lines because a reason.',
			);
			expect(failing.stdout).toContain(
				'check-file-sizes: 3 files, 1 over 450 lines without a reason',
			);
			writeFileSync(
				join(dir, 'nodes/shared/x/long.ts'),
				`/** ${REASON} a reason. */\n${code(451)}`,
			);
			expect(run().status).toBe(0);
		});
	});

	it('npm run check:sizes runs this script on the repository and prints its summary', () => {
		const run = spawnSync(process.execPath, [join(root, 'scripts/check-file-sizes.js')], {
			cwd: root,
			encoding: 'utf8',
		});
		expect(run.stdout).toMatch(/check-file-sizes: \d+ files, \d+ over 450 lines without a reason/);
		const failures = (run.stdout.match(/^FAIL /gm) ?? []).length;
		expect(run.status).toBe(failures === 0 ? 0 : 1);
	});
});
