#!/usr/bin/env node
/**
 * `node scripts/check-docs-moved.mjs <git ref> [<path>]`: was anything lost when a page's
 * content moved? Every sentence of `<path>` (default README.md) as it was at `<git ref>` must
 * be found in README.md or docs/**\/*.md now (docs/notes/ left out).
 *
 * Compared as rendered text, so that a moved sentence counts as kept: link targets dropped (a
 * link's text kept), emphasis and code marks dropped, list markers, quote marks, heading marks
 * and table pipes dropped, white space collapsed. A sentence is cut at `.`, `!`, `?`, `:` or `;`
 * followed by a space, and at a table cell; pieces of fewer than 4 words are not checked.
 *
 * Prints each sentence not found (`line N: …`) and
 * `check-docs-moved: N sentences of <path> at <ref>, M found, K not found`; exits 1 when any is
 * not found. Used once when README.md became a landing page with docs/ behind it (issue 35);
 * run it again after folding other pages in.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** One page as plain text lines: what a reader reads, without Markdown's marks. */
export function plainLines(markdown) {
	return markdown.split('\n').map((raw) =>
		raw
			.replace(/^\s*(?:>\s*)*/, '')
			.replace(/^#{1,6}\s+/, '')
			.replace(/^(?:[-*+]|\d+\.)\s+/, '')
			.replace(/!?\[((?:[^[\]]|\[[^[\]]*\])*)\]\([^)\s]*(?:\s+"[^"]*")?\)/g, '$1')
			.replace(/!?\[((?:[^[\]]|\[[^[\]]*\])*)\]\[[^\]]+\]/g, '$1')
			.replace(/<!--.*?-->/g, ' ')
			.replace(/\*\*|__|`/g, '')
			.replace(/(^|[\s(])\*(?=\S)|(?<=\S)\*(?=[\s),.;:]|$)/g, '$1')
			.replace(/\s*\|\s*/g, ' | ')
			.trim(),
	);
}

const normal = (text) => text.replace(/\s+/g, ' ').trim();

/** The sentences of a page with their line: `{ text, line }`, 4 words or more. */
export function sentencesOf(markdown) {
	const sentences = [];
	const lines = plainLines(markdown);
	/** The block's lines as `{ line, words }`: a sentence's line is the line of its first word. */
	let block = [];
	const flush = () => {
		const words = block.flatMap(({ line, text }) =>
			text
				.split(/\s+/)
				.filter(Boolean)
				.map((word) => ({ line, word })),
		);
		let sentence = [];
		const end = () => {
			const text = sentence
				.map((w) => w.word)
				.join(' ')
				.trim();
			if (text.split(' ').filter((w) => /[\p{L}\p{N}]/u.test(w)).length >= 4) {
				sentences.push({ text, line: sentence[0].line });
			}
			sentence = [];
		};
		for (const w of words) {
			if (w.word === '|') {
				if (sentence.length) end();
				continue;
			}
			sentence.push(w);
			if (/[.!?:;]$/.test(w.word)) end();
		}
		if (sentence.length) end();
		block = [];
	};
	lines.forEach((text, index) => {
		const tableRow = /^\|.*\|$/.test(text);
		if (text === '' || /^\|?\s*-{3,}/.test(text) || tableRow || /^```/.test(text)) {
			if (block.length) flush();
			if (tableRow) {
				block = [{ line: index + 1, text }];
				flush();
			}
			return;
		}
		block.push({ line: index + 1, text });
	});
	if (block.length) flush();
	return sentences;
}

function pagesOf(root) {
	const walk = (dir) =>
		fs.existsSync(dir)
			? fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
					const full = path.join(dir, e.name);
					if (e.isDirectory()) return full === path.join(root, 'docs', 'notes') ? [] : walk(full);
					return e.name.endsWith('.md') ? [full] : [];
				})
			: [];
	return [path.join(root, 'README.md'), ...walk(path.join(root, 'docs'))].filter((f) =>
		fs.existsSync(f),
	);
}

/** `{ sentences, missing }`: the sentences of `before` not found in the pages' text `after`. */
export function missingSentences(before, after) {
	const corpus = normal(plainLines(after).join(' '));
	const sentences = sentencesOf(before);
	return { sentences, missing: sentences.filter((s) => !corpus.includes(s.text)) };
}

function main() {
	const [ref, page = 'README.md'] = process.argv.slice(2);
	if (!ref) {
		console.error('usage: node scripts/check-docs-moved.mjs <git ref> [<path>]');
		process.exit(2);
	}
	const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
	const before = execFileSync('git', ['show', `${ref}:${page}`], { cwd: root, encoding: 'utf8' });
	const after = pagesOf(root)
		.map((f) => fs.readFileSync(f, 'utf8'))
		.join('\n\n');
	const { sentences, missing } = missingSentences(before, after);
	for (const s of missing) console.log(`line ${s.line}: ${s.text}`);
	console.log(
		`check-docs-moved: ${sentences.length} sentences of ${page} at ${ref}, ${
			sentences.length - missing.length
		} found, ${missing.length} not found`,
	);
	process.exitCode = missing.length > 0 ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
