'use strict';
/**
 * THIRD_PARTY_NOTICES.md for the bundles: every npm package whose code esbuild put into
 * `dist/` (read from esbuild's metafile: inputs with bytes in an output), with its name,
 * version, declared licence and the text of its licence file(s). A package that ships no
 * licence file gets the standard text of its declared licence (MIT or ISC only) under the
 * copyright lines of its own legal comments; any other case fails the build, naming the
 * package, so nothing is bundled without its notice. Some packages publish a build that
 * already contains a dependency's code (sweepline-intersections inlines tinyqueue); such a
 * declared dependency counts as bundled when most lines of its entry file appear verbatim
 * in the bundled files of the package that declares it.
 */
const fs = require('node:fs');
const path = require('node:path');

const LICENCE_FILE = /^(licen[cs]e|copying|notice)([-._].*)?$/i;

const TEMPLATES = {
	MIT: `Permission is hereby granted, free of charge, to any person obtaining a copy of this
software and associated documentation files (the "Software"), to deal in the Software
without restriction, including without limitation the rights to use, copy, modify, merge,
publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons
to whom the Software is furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all copies or
substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED,
INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR
PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE
FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR
OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER
DEALINGS IN THE SOFTWARE.`,
	ISC: `Permission to use, copy, modify, and/or distribute this software for any purpose with or
without fee is hereby granted, provided that the above copyright notice and this permission
notice appear in all copies.

THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES WITH REGARD TO
THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS. IN NO EVENT
SHALL THE AUTHOR BE LIABLE FOR ANY SPECIAL, DIRECT, INDIRECT, OR CONSEQUENTIAL DAMAGES OR
ANY DAMAGES WHATSOEVER RESULTING FROM LOSS OF USE, DATA OR PROFITS, WHETHER IN AN ACTION OF
CONTRACT, NEGLIGENCE OR OTHER TORTIOUS ACTION, ARISING OUT OF OR IN CONNECTION WITH THE USE
OR PERFORMANCE OF THIS SOFTWARE.`,
};

/** The package directory of a bundled input path (the folder after its last node_modules/). */
function packageDirOf(root, input) {
	const parts = input.split(/[\\/]/);
	const at = parts.lastIndexOf('node_modules');
	if (at === -1) return null;
	const length = parts[at + 1]?.startsWith('@') ? 2 : 1;
	return path.resolve(root, ...parts.slice(0, at + 1 + length));
}

/** The inputs that put code into an output file (tree-shaken modules have 0 bytes). */
function bundledInputs(metafile) {
	const inputs = new Set();
	for (const output of Object.values(metafile.outputs)) {
		for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
			if (bytesInOutput > 0) inputs.add(input);
		}
	}
	return [...inputs];
}

/** Comments esbuild counts as legal comments: /*! …, //! …, or holding @license / @preserve. */
function legalComments(source) {
	const found = [];
	for (const match of source.matchAll(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g)) {
		const text = match[0];
		if (/^\/\*!|^\/\/!|@license|@preserve/.test(text)) found.push(text.trim());
	}
	return found;
}

/** Trimmed lines long enough to tell one file from another. */
function significantLines(text) {
	return text
		.split('\n')
		.map((line) => line.trim())
		.filter((line) => line.length >= 16);
}

/** The entry files of an installed package, as far as its package.json names them. */
function entryFiles(dir, pkg) {
	const names = [pkg.module, pkg.main, 'index.js'];
	const dot =
		typeof pkg.exports === 'object' && pkg.exports ? (pkg.exports['.'] ?? pkg.exports) : null;
	const walk = (value) => {
		if (typeof value === 'string') names.push(value);
		else if (value && typeof value === 'object') Object.values(value).forEach(walk);
	};
	walk(typeof pkg.exports === 'string' ? pkg.exports : dot);
	return [...new Set(names.filter(Boolean).map((name) => path.join(dir, name)))].filter(
		(file) => /\.[cm]?js$/.test(file) && fs.existsSync(file),
	);
}

/**
 * Declared dependencies of a bundled package whose code its bundled files contain verbatim
 * (at least 60 % of the significant lines of one of their entry files).
 */
function inlinedDependencies(dir, pkg, bundledText) {
	const bundled = new Set(significantLines(bundledText));
	const found = [];
	for (const name of Object.keys(pkg.dependencies ?? {})) {
		let depDir;
		try {
			depDir = path.dirname(require.resolve(`${name}/package.json`, { paths: [dir] }));
		} catch {
			continue; // not installed (or no package.json export): nothing of it can be inlined
		}
		const dep = JSON.parse(fs.readFileSync(path.join(depDir, 'package.json'), 'utf8'));
		const inlined = entryFiles(depDir, dep).some((file) => {
			const lines = significantLines(fs.readFileSync(file, 'utf8'));
			return lines.length >= 5 && lines.filter((l) => bundled.has(l)).length >= 0.6 * lines.length;
		});
		if (inlined) found.push(depDir);
	}
	return found;
}

function describe(pkg) {
	const repository =
		typeof pkg.repository === 'string' ? pkg.repository : (pkg.repository?.url ?? pkg.homepage);
	const author = typeof pkg.author === 'string' ? pkg.author : pkg.author?.name;
	return [
		`- Licence: ${pkg.license ?? 'not declared'}`,
		author ? `- Author: ${author}` : null,
		repository ? `- Source: ${repository}` : null,
	].filter(Boolean);
}

/**
 * @param {string} root the project root (paths in the metafile are relative to it)
 * @param {import('esbuild').Metafile} metafile
 * @returns {{ text: string, packages: string[] }} the notices and the `name@version`s they cover
 */
function thirdPartyNotices(root, metafile) {
	const byDir = new Map();
	for (const input of bundledInputs(metafile)) {
		const dir = packageDirOf(root, input);
		if (!dir) continue;
		if (!byDir.has(dir)) byDir.set(dir, []);
		byDir.get(dir).push(path.resolve(root, input));
	}

	const inlinedBy = new Map(); // package dir → id of the bundled package that inlines it
	const queue = [...byDir.keys()];
	while (queue.length) {
		const dir = queue.shift();
		const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
		const text = byDir
			.get(dir)
			.map((file) => fs.readFileSync(file, 'utf8'))
			.join('\n');
		for (const depDir of inlinedDependencies(dir, pkg, text)) {
			if (byDir.has(depDir)) continue;
			byDir.set(depDir, byDir.get(dir)); // its code lives in the files of the package inlining it
			inlinedBy.set(depDir, `${pkg.name}@${pkg.version}`);
			queue.push(depDir);
		}
	}

	const sections = [];
	const problems = [];
	for (const [dir, files] of byDir) {
		const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
		const id = `${pkg.name}@${pkg.version}`;
		const via = inlinedBy.get(dir);
		const licenceFiles = fs
			.readdirSync(dir)
			.filter((name) => LICENCE_FILE.test(name) && fs.statSync(path.join(dir, name)).isFile())
			.sort();
		let body;
		if (licenceFiles.length > 0) {
			body = licenceFiles.map((name) => fs.readFileSync(path.join(dir, name), 'utf8').trim());
		} else {
			const template = TEMPLATES[pkg.license];
			const comments = [
				...new Set(files.flatMap((file) => legalComments(fs.readFileSync(file, 'utf8')))),
			];
			const fromComments = comments
				.flatMap((comment) => comment.split('\n'))
				.map((line) => line.replace(/^\s*(\/\*!?|\/\/!?|\*\/?)\s?/, '').trim())
				.filter((line) => /copyright|\(c\)/i.test(line));
			// Without a legal comment, the copyright holder is the package's declared author.
			const author = typeof pkg.author === 'string' ? pkg.author : pkg.author?.name;
			const copyright =
				fromComments.length > 0 ? fromComments : author ? [`Copyright (c) ${author}`] : [];
			if (!template || copyright.length === 0) {
				problems.push(
					`${id} (${path.relative(root, dir)}) has no licence file` +
						(template
							? ' and no copyright line (legal comment or package.json author)'
							: ` and licence "${pkg.license}"`),
				);
				continue;
			}
			body = [
				`${[...new Set(copyright)].join('\n')}\n\n${template}`,
				fromComments.length > 0
					? `(The package ships no licence file; this is the standard ${pkg.license} text under the copyright lines of its own legal comments:)\n\n${comments.join('\n\n')}`
					: `(The package ships no licence file and no legal comment; this is the standard ${pkg.license} text it declares in package.json, under its declared author.)`,
			];
		}
		sections.push({
			id,
			text: [
				`## ${id}`,
				'',
				...describe(pkg),
				'',
				...body.map((b) => `\`\`\`\n${b}\n\`\`\`\n`),
			].join('\n'),
		});
	}
	if (problems.length) {
		throw new Error(
			`Cannot write third-party notices for bundled code:\n- ${problems.join('\n- ')}\n` +
				'Add the licence text for the package, or do not bundle it.',
		);
	}
	sections.sort((a, b) => a.id.localeCompare(b.id));
	const own = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
	const text = [
		'# Third-party notices',
		'',
		`The files in \`dist/\` of ${own.name} ${own.version} contain code of the following ` +
			`${sections.length} npm packages, bundled at build time. Their licences and notices follow.`,
		'',
		...sections.map((s) => s.text),
	].join('\n');
	return { text, packages: sections.map((s) => s.id) };
}

module.exports = { thirdPartyNotices, bundledInputs, packageDirOf, legalComments };
