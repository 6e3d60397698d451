/**
 * scripts/check-docs.mjs (`npm run check:docs`), with Node's own test runner (no jest: the check
 * runs before the jest suites in `npm test`). Fixtures: test/fixtures/docs (README.md there).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import {
	anchorsOf,
	checkDocs,
	linksOf,
	repositoryTarget,
	repositoryUrlOf,
	slugify,
} from '../../scripts/check-docs.mjs';
import { missingSentences } from '../../scripts/check-docs-moved.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.join(here, '..', 'fixtures', 'docs');
const repositoryUrl = 'https://github.com/owner/repo';
const requiredInReadme = ['npm install && npm test'];
const script = path.join(here, '..', '..', 'scripts', 'check-docs.mjs');

test("GitHub's heading slugs", () => {
	assert.equal(slugify('Plot → Register'), 'plot--register');
	assert.equal(
		slugify('Spreadsheet to analysis (spreadsheet-to-analysis.json)'),
		'spreadsheet-to-analysis-spreadsheet-to-analysisjson',
	);
	assert.equal(slugify("Verify a supplier's reference"), 'verify-a-suppliers-reference');
	assert.equal(
		slugify('The limit of 5 calls a second, one worker or many'),
		'the-limit-of-5-calls-a-second-one-worker-or-many',
	);
	assert.equal(slugify('Café au lait'), 'café-au-lait');
	assert.equal(slugify('snake_case stays'), 'snake_case-stays');
});

test('anchors: headings as rendered, repeats numbered, HTML ids, nothing from code blocks', () => {
	const anchors = anchorsOf(
		[
			'# Spreadsheet to analysis ([`spreadsheet-to-analysis.json`](examples/x.json))',
			'## **Bold** and `code`',
			'## Same',
			'## Same',
			'<a id="kept"></a>',
			'```',
			'# Not a heading',
			'```',
		].join('\n'),
	);
	assert.deepEqual(
		[...anchors].sort(),
		[
			'bold-and-code',
			'kept',
			'same',
			'same-1',
			'spreadsheet-to-analysis-spreadsheet-to-analysisjson',
		].sort(),
	);
});

test('links: inline, images, reference definitions, HTML; not in code', () => {
	const links = linksOf(
		[
			'[a](x.md#y) ![b](p.png "title") `[c](code.md)` [e][ref]',
			'[ref]: ./r.md',
			'<img src="i.png"> <a href="h.md">h</a> <https://example.org>',
			'~~~',
			'[d](fenced.md)',
			'~~~',
		].join('\n'),
	);
	assert.deepEqual(
		links.map((l) => (l.reference ? ['use', l.reference, l.line] : [l.target, l.image, l.line])),
		[
			['x.md#y', false, 1],
			['p.png', true, 1],
			['use', 'ref', 1],
			['./r.md', false, 2],
			['i.png', true, 3],
			['h.md', false, 3],
			['https://example.org', false, 3],
		],
	);
});

test('repository URLs map to files of the working tree', () => {
	assert.equal(
		repositoryUrlOf({ repository: { url: 'git+https://github.com/owner/repo.git' } }),
		repositoryUrl,
	);
	assert.deepEqual(repositoryTarget(`${repositoryUrl}/blob/main/docs/a.md#x`, repositoryUrl), {
		path: 'docs/a.md',
		anchor: 'x',
	});
	assert.deepEqual(repositoryTarget(`${repositoryUrl}#intro`, repositoryUrl), {
		path: '',
		anchor: 'intro',
	});
	assert.deepEqual(
		repositoryTarget('https://raw.githubusercontent.com/owner/repo/main/docs/p.png', repositoryUrl),
		{ path: 'docs/p.png', anchor: '' },
	);
	assert.match(
		repositoryTarget(`${repositoryUrl}/blob/dev/a.md`, repositoryUrl).error,
		/branch "dev"/,
	);
	assert.equal(repositoryTarget(`${repositoryUrl}/issues/3`, repositoryUrl), null);
	assert.equal(repositoryTarget('https://n8n.io/', repositoryUrl), null);
});

test('a repository whose every link resolves passes; docs/notes is not checked', () => {
	const result = checkDocs(path.join(fixtures, 'good'), { repositoryUrl, requiredInReadme });
	assert.deepEqual(result.broken, []);
	assert.deepEqual(result.pages, ['README.md', 'docs/a.md', 'docs/b.md']);
	assert.deepEqual(result.external.map((e) => e.target).sort(), [
		'https://example.org/x',
		'https://n8n.io/docs',
	]);
	assert.ok(result.checked >= 17, `checked ${result.checked}`);
});

test('every broken link of the broken fixture is reported, with its file and line', () => {
	const { broken } = checkDocs(path.join(fixtures, 'broken'), { repositoryUrl, requiredInReadme });
	const got = broken.map((b) => `${b.file}:${b.line} ${b.message}`).sort();
	assert.deepEqual(
		got,
		[
			'README.md:3 README.md is the npm page too, where relative links lead nowhere: write https://github.com/owner/repo/blob/main/docs/a.md',
			'README.md:4 docs/gone.md does not exist',
			'README.md:4 links to the branch "dev": link to main, what readers get',
			'README.md:5 README.md has no heading #nowhere',
			'README.md:0 does not say "npm install && npm test"',
			'credentials/Thing.credentials.ts:1 README.md has no heading #no-such-readme-heading',
			'docs/a.md:3 README.md has no heading #no-such-heading',
			'docs/a.md:3 docs/b.md does not exist',
			'docs/a.md:4 docs/a.md is not an image file',
			'docs/a.md:4 docs/images/none.png does not exist',
			'docs/a.md:4 points outside the repository',
			'docs/a.md:5 an empty link',
			'docs/a.md:7 the example examples/missing.json does not exist',
			'docs/a.md:8 no link definition [no-such-definition]: … in docs/a.md',
			'docs/a.md:9 credentials/None.credentials.ts is named as a file of the repository, and there is none',
			'examples/unnamed.json:0 this example is named nowhere in README.md or docs/: describe it in docs/examples.md',
			'nodes/Thing/Thing.node.json:1 docs/a.md has no heading #no-such-section',
		].sort(),
	);
});

test('the command exits 1 and names the broken link; 0 when all resolve', () => {
	const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'check-docs-'));
	try {
		fs.cpSync(path.join(fixtures, 'good'), copy, { recursive: true });
		fs.mkdirSync(path.join(copy, 'scripts'));
		fs.copyFileSync(script, path.join(copy, 'scripts', 'check-docs.mjs'));
		fs.writeFileSync(
			path.join(copy, 'package.json'),
			JSON.stringify({ repository: { url: 'git+https://github.com/owner/repo.git' } }),
		);
		const run = () =>
			spawnSync(process.execPath, [path.join(copy, 'scripts', 'check-docs.mjs')], {
				encoding: 'utf8',
			});
		const ok = run();
		assert.equal(ok.status, 0, ok.stdout + ok.stderr);
		assert.match(
			ok.stdout,
			/check-docs: 3 pages, \d+ links checked, 2 external \(not fetched\), 0 broken/,
		);
		assert.match(ok.stdout, /https:\/\/n8n\.io\/docs {2}\(README\.md:\d+\)/);

		fs.appendFileSync(path.join(copy, 'docs', 'b.md'), '\n[gone](a.md#no-such-heading)\n');
		const bad = run();
		assert.equal(bad.status, 1);
		assert.match(
			bad.stdout,
			/docs\/b\.md:\d+: a\.md#no-such-heading: docs\/a\.md has no heading #no-such-heading/,
		);
		assert.match(bad.stdout, /1 broken/);
	} finally {
		fs.rmSync(copy, { recursive: true, force: true });
	}
});

test('check-docs-moved: a sentence moved to another page counts, a reworded one does not', () => {
	const before = [
		'# Old',
		'',
		'The node files each statement once. See [below](#x) for more words here.',
		'',
		'| a | b |',
		'|---|---|',
		'| **Cell** text of four words | other cell of four words |',
	].join('\n');
	const after = [
		'- The node files each',
		'  statement once.',
		'',
		'| **Cell** text of four words | other cell of four words |',
		'See [below](other.md#x) for more words here.',
	].join('\n');
	assert.deepEqual(missingSentences(before, after).missing, []);
	const { missing } = missingSentences(before, after.replace('files each', 'files every'));
	assert.deepEqual(
		missing.map((s) => [s.line, s.text]),
		[[3, 'The node files each statement once.']],
	);
});
