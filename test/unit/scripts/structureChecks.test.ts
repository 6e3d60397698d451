/**
 * The structure checks CI runs (`npm run check:structure`, issue 22): the layer rules of
 * .dependency-cruiser.cjs and the copy check of .jscpd.json, run with the repository's configs
 * on small trees written here, fail on each kind of violation, naming the rule and the
 * files (file → file), and pass a tree that keeps the rules.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

function tree(files: Record<string, string>): string {
	const dir = mkdtempSync(join(tmpdir(), 'structure-'));
	const all = {
		'tsconfig.json': JSON.stringify({
			compilerOptions: { module: 'commonjs', moduleResolution: 'node', strict: true },
		}),
		...files,
	};
	for (const [file, text] of Object.entries(all)) {
		mkdirSync(dirname(join(dir, file)), { recursive: true });
		writeFileSync(join(dir, file), text);
	}
	return dir;
}

const layers = (dir: string) =>
	spawnSync(
		bin('depcruise'),
		[
			'nodes',
			'credentials',
			'--config',
			join(root, '.dependency-cruiser.cjs'),
			'--output-type',
			'err-long',
		],
		{ cwd: dir, encoding: 'utf8' },
	);

const SHARED = 'nodes/shared';
/** Output without terminal colours. */
const plain = (text: string) =>
	text.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');
const OP = 'nodes/GeospatialAnalysis/v1/actions/plot';

describe('npm run check:layers (.dependency-cruiser.cjs)', () => {
	let dir: string;
	afterEach(() => rmSync(dir, { recursive: true, force: true }));

	it('passes imports to the same or a lower layer, and credentials → transport', () => {
		dir = tree({
			[`${SHARED}/input/read.ts`]: 'export const read = 1;\n',
			[`${SHARED}/geometry/shape.ts`]:
				"import { read } from '../input/read';\nexport const s = read;\n",
			[`${SHARED}/time/sleep.ts`]: 'export const sleep = 1;\n',
			[`${SHARED}/values/answerValues.ts`]: 'export const v = 1;\n',
			[`${SHARED}/geoFiles/old.ts`]:
				"import { v } from '../values/answerValues';\nexport const o = v;\n",
			[`${SHARED}/transport/request.ts`]:
				"import { sleep } from '../time/sleep';\nimport { o } from '../geoFiles/old';\nexport const request = sleep + o;\n",
			[`${SHARED}/capabilities/catalog.ts`]:
				"import { request } from '../transport/request';\nexport const catalog = request;\n",
			[`${SHARED}/runner/index.ts`]:
				"import { v } from '../values/answerValues';\nexport const run = v;\n",
			[`${SHARED}/plots/plot.ts`]:
				"import { catalog } from '../capabilities/catalog';\nimport { s } from '../geometry/shape';\nimport { run } from '../runner';\nexport const plot = catalog + s + run;\n",
			'credentials/login.ts':
				"import { request } from '../nodes/shared/transport/request';\nexport const login = request;\n",
			[`${OP}/get.operation.ts`]:
				"import { run } from '../../../../shared/runner';\nimport { login } from '../../../../../credentials/login';\nimport { fields } from './fields';\nexport const get = run + login + fields;\n",
			[`${OP}/fields.ts`]: 'export const fields = 1;\n',
		});
		const result = layers(dir);
		expect(result.stdout).toContain('no dependency violations found');
		expect(result.status).toBe(0);
	});

	it('fails on each rule, naming it and the import (file → file), with what to do', () => {
		dir = tree({
			[`${SHARED}/geometry/shape.ts`]:
				"import { request } from '../transport/request';\nexport const s = request;\n",
			[`${SHARED}/transport/request.ts`]:
				"import { common } from '../../../credentials/common';\nimport { plot } from '../plots/plot';\nexport const request = common + plot;\n",
			'credentials/common.ts': 'export const common = 1;\n',
			[`${SHARED}/plots/plot.ts`]: 'export const plot = 1;\n',
			[`${SHARED}/runner/index.ts`]:
				"import { x } from '../unlayered/x';\nimport { h } from '../../../test/helpers/h';\nimport { plot } from '../plots/plot';\nexport const run = x + h + plot;\n",
			[`${SHARED}/unlayered/x.ts`]: 'export const x = 1;\n',
			'test/helpers/h.ts': 'export const h = 1;\n',
			[`${SHARED}/jobs/a.ts`]:
				"import { b } from './b';\nexport const a = 1;\nexport const c = b;\n",
			[`${SHARED}/jobs/b.ts`]: "import { a } from './a';\nexport const b = a;\n",
			[`${OP}/get.operation.ts`]:
				"import { other } from './other.operation';\nexport const get = other;\n",
			[`${OP}/other.operation.ts`]: 'export const other = 1;\n',
		});
		const result = layers(dir);
		const out = result.stdout;
		expect(result.status).not.toBe(0);
		expect(out).toContain(
			`error layer-1-basics-imports-only-basics: ${SHARED}/geometry/shape.ts → ${SHARED}/transport/request.ts`,
		);
		expect(out).toContain(
			`error layer-2-transport-imports-only-basics: ${SHARED}/transport/request.ts → ${SHARED}/plots/plot.ts`,
		);
		expect(out).toContain(
			`error layer-3-runner-never-imports-the-domain: ${SHARED}/runner/index.ts → ${SHARED}/plots/plot.ts`,
		);
		expect(out).toContain(
			`error shared-never-imports-nodes-or-credentials: ${SHARED}/transport/request.ts → credentials/common.ts`,
		);
		expect(out).toContain(
			`error shared-folder-has-a-layer: ${SHARED}/runner/index.ts → ${SHARED}/unlayered/x.ts`,
		);
		expect(out).toContain(
			`error published-code-never-imports-test: ${SHARED}/runner/index.ts → test/helpers/h.ts`,
		);
		expect(out).toContain(
			`error no-operation-imports-an-operation: ${OP}/get.operation.ts → ${OP}/other.operation.ts`,
		);
		expect(out).toMatch(/error no-circular: nodes\/shared\/jobs\/(a|b)\.ts →/);
		expect(out).toContain(
			'Layer 1 (input, geometry, geoFiles, time, values, soap, polling) is pure',
		);
		expect(out).toContain('An import cycle: break it');
	});
});

describe('npm run check:duplicates (.jscpd.json)', () => {
	let dir: string;
	afterEach(() => rmSync(dir, { recursive: true, force: true }));

	const block = (name: string) =>
		[
			`export function ${name}(rows: Array<{ a: number; b: string }>): string[] {`,
			'\tconst out: string[] = [];',
			'\tfor (const row of rows) {',
			"\t\tif (row.a > 10 && row.b !== '') out.push(`${row.b}:${row.a * 2}`);",
			'\t\telse if (row.a < 0) out.push(row.b.toUpperCase() + String(row.a));',
			'\t}',
			'\treturn out.sort((x, y) => x.localeCompare(y));',
			'}',
			'',
		].join('\n');
	// jscpd reads the config's paths from the config's folder: the repository's config, copied.
	const jscpd = (d: string) => {
		copyFileSync(join(root, '.jscpd.json'), join(d, '.jscpd.json'));
		return spawnSync(bin('jscpd'), ['--config', join(d, '.jscpd.json')], {
			cwd: d,
			encoding: 'utf8',
		});
	};

	it('fails on a block of 6+ lines copied between two files of nodes/, naming both', () => {
		dir = tree({
			'nodes/shared/a.ts': `export const first = 1;\n${block('one')}`,
			'nodes/GeospatialAnalysis/b.ts': `export const second = 2;\n\n${block('two')}`,
		});
		const result = jscpd(dir);
		expect(result.status).not.toBe(0);
		const out = plain(result.stdout);
		expect(out).toContain('Clone found (typescript)');
		expect(out).toContain('nodes/shared/a.ts');
		expect(out).toContain('nodes/GeospatialAnalysis/b.ts');
	});

	it('passes when the block is written once', () => {
		dir = tree({
			'nodes/shared/a.ts': block('one'),
			'nodes/GeospatialAnalysis/b.ts':
				"import { one } from '../shared/a';\nexport const two = one;\n",
		});
		const result = jscpd(dir);
		expect(plain(result.stdout)).toContain('Found 0 clones');
		expect(result.status).toBe(0);
	});
});
