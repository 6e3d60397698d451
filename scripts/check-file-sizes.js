'use strict';
/**
 * `npm run check:sizes`: no source file in nodes/ is longer than 450 lines without a reason.
 *
 * A file (`.ts`, `.js`, `.mjs`, `.cjs` under nodes/) of more than MAX_LINES lines passes only
 * when its header — the comment block it starts with (a `/* … *\/` block or consecutive `//`
 * lines, before any code) — holds a line starting with `Longer than 450 lines because`
 * followed by the reason, e.g.
 *
 *     /**
 *      * Reads a Shapefile layer: …
 *      *
 *      * Longer than 450 lines because the .shp, .dbf and .cpg readers share one record model.
 *      *\/
 *
 * Generated JSON (the output schemas in __schema__/) cannot carry a comment and is not checked.
 *
 * Prints one line per file to fix and `check-file-sizes: N files, M over 450 lines without a
 * reason`; exits 1 on any. `checkSource(file, text)` is the check of one file (unit-tested).
 */
const fs = require('node:fs');
const path = require('node:path');

const MAX_LINES = 450;
const REASON = `Longer than ${MAX_LINES} lines because`;
const SOURCE = /\.(ts|js|mjs|cjs)$/;
const SKIP_DIRS = new Set(['node_modules', '__schema__', 'dist']);

/** Lines of a text as an editor numbers them (a final newline ends the last line, it adds none). */
function lineCount(text) {
	if (text === '') return 0;
	const newlines = text.split('\n').length - 1;
	return text.endsWith('\n') ? newlines : newlines + 1;
}

/**
 * The text lines of the comment block a file starts with (after a `#!` line and blank lines),
 * without the comment markers; [] when the file starts with code.
 */
function headerLines(text) {
	const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
	let i = 0;
	if (lines[0] !== undefined && lines[0].startsWith('#!')) i++;
	while (i < lines.length && lines[i].trim() === '') i++;
	const first = (lines[i] ?? '').trim();
	const header = [];
	if (first.startsWith('/*')) {
		for (; i < lines.length; i++) {
			const line = lines[i];
			const end = line.indexOf('*/');
			const body = end === -1 ? line : line.slice(0, end);
			header.push(body.replace(/^\s*\/\*+/, '').replace(/^\s*\*+/, ''));
			if (end !== -1) break;
		}
	} else if (first.startsWith('//')) {
		for (; i < lines.length && lines[i].trim().startsWith('//'); i++)
			header.push(lines[i].trim().replace(/^\/\/+/, ''));
	}
	return header.map((line) => line.trim());
}

/** The reason a file's header gives for its length (the text after `Longer than 450 lines because`), or undefined. */
function lengthReason(text) {
	for (const line of headerLines(text)) {
		if (!line.startsWith(REASON)) continue;
		const reason = line.slice(REASON.length).trim();
		if (reason !== '') return reason;
	}
	return undefined;
}

/**
 * One file: `{ file, lines, reason }` when it is within MAX_LINES or gives a reason, else
 * `{ file, lines, problem }` saying what to do.
 */
function checkSource(file, text) {
	const lines = lineCount(text);
	if (lines <= MAX_LINES) return { file, lines };
	const reason = lengthReason(text);
	if (reason !== undefined) return { file, lines, reason };
	return {
		file,
		lines,
		problem: `${file}: ${lines} lines (more than ${MAX_LINES}). Split it by responsibility (move functions into a new, well-named module), or start its header comment with a line "${REASON} …" saying why it is one file.`,
	};
}

/** Source files under `dir` (relative to `root`, with forward slashes), sorted. */
function sourceFiles(root, dir) {
	const found = [];
	const walk = (rel) => {
		for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
			const child = `${rel}/${entry.name}`;
			if (entry.isDirectory()) {
				if (!SKIP_DIRS.has(entry.name)) walk(child);
			} else if (entry.isFile() && SOURCE.test(entry.name)) found.push(child);
		}
	};
	walk(dir);
	return found.sort();
}

/** Every source file of `dirs` under `root`, checked. */
function checkTree(root, dirs = ['nodes']) {
	const results = [];
	for (const dir of dirs)
		for (const file of sourceFiles(root, dir))
			results.push(checkSource(file, fs.readFileSync(path.join(root, file), 'utf8')));
	return results;
}

/** `node scripts/check-file-sizes.js [root]`: checks root's nodes/ (default: this repository's). */
function main() {
	const root = path.resolve(process.argv[2] ?? path.join(__dirname, '..'));
	const results = checkTree(root);
	const problems = results.filter((r) => r.problem);
	for (const r of results)
		if (r.reason) console.log(`ok (with reason)  ${r.file}: ${r.lines} lines because ${r.reason}`);
	for (const r of problems) console.log(`FAIL  ${r.problem}`);
	console.log(
		`check-file-sizes: ${results.length} files, ${problems.length} over ${MAX_LINES} lines without a reason`,
	);
	if (problems.length > 0) process.exitCode = 1;
}

if (require.main === module) main();

module.exports = {
	MAX_LINES,
	REASON,
	lineCount,
	headerLines,
	lengthReason,
	checkSource,
	sourceFiles,
	checkTree,
};
