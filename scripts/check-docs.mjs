#!/usr/bin/env node
/**
 * `npm run check:docs`: every link of the documentation leads somewhere, without the network.
 *
 * Pages checked: README.md, the other Markdown files at the top (CONTRIBUTING.md, BENCHMARKS.md)
 * and docs/**\/*.md (docs/notes/ is left out: helpers' working notes, folded into the pages by
 * hand). In each page, outside code blocks and code spans:
 *
 * - a relative link or image (`[t](docs/x.md#a)`, `![p](images/x.png)`, `<img src>`,
 *   `<a href>`, a reference definition `[id]: path`) must name a file or folder of the
 *   repository, and its `#anchor`, when the target is Markdown, a heading of that page (GitHub's
 *   slugs: lower case, punctuation dropped, spaces to `-`, `-1`, `-2` for repeats) or an
 *   `<a id>`/`<a name>` in it; `#anchor` alone points into the page itself. An image must be a
 *   file.
 * - README.md is also the package's page on npm, where a relative link leads nowhere (the
 *   package holds dist/ only): it links into the repository by absolute URL,
 *   `<repository>/blob/main/<path>` (`tree/` for a folder; images
 *   `https://raw.githubusercontent.com/<owner>/<repo>/main/<path>`), and a relative link there
 *   is an error. Such URLs — in every page, and the documentation URLs of credentials/*.ts and
 *   nodes/**\/*.node.json, which n8n's editor opens — are checked as the relative ones: the file
 *   must exist in this working tree, the anchor in it.
 * - Every `examples/<name>.json` named in a page must exist, and every examples/*.json must be
 *   named (by its file name) in README.md or docs/.
 * - README.md says `npm install && npm run demo` and `npm install && npm test` word for word.
 * - Other http(s) links are not fetched: they are listed, with where they are.
 *
 * Prints the broken links (`file:line: …`), the external links, and
 * `check-docs: N pages, M links checked, K external (not fetched), E broken`; exits 1 when any
 * is broken. `checkDocs(root, { repositoryUrl })` is the check (test/docs/checkDocs.test.mjs).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BRANCH = 'main';
/**
 * What README.md must say word for word: the two commands of its first lines (.ci/run runs "the
 * README's test command verbatim", and npm run demo is how a newcomer starts).
 */
export const REQUIRED_IN_README = ['npm install && npm run demo', 'npm install && npm test'];
const IMAGE_EXT = /\.(png|jpe?g|gif|svg|webp)$/i;

/** GitHub's heading slug (github-slugger): lower case, punctuation and symbols dropped, spaces to -. */
export function slugify(text) {
	return text
		.toLowerCase()
		.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
		.replace(/ /g, '-');
}

/** The text GitHub renders for a heading's Markdown (links to their text, code to its content). */
function headingText(markdown) {
	return markdown
		.replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/\[((?:[^[\]]|\[[^[\]]*\])*)\]\([^)]*\)/g, '$1')
		.replace(/<[^>]+>/g, '')
		.replace(/`+/g, '')
		.replace(/\\([\\`*_{}[\]()#+\-.!])/g, '$1')
		.replace(/\*+/g, '')
		.replace(/\s+#+\s*$/, '')
		.trim();
}

/**
 * The page's lines with fenced code blocks blanked (line numbers kept) and code spans removed:
 * what GitHub renders as text, where links are links.
 */
function proseLines(markdown) {
	const lines = markdown.split('\n');
	let fence = null;
	return lines.map((line) => {
		const opening = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
		if (fence) {
			if (opening && opening[1][0] === fence[0] && opening[1].length >= fence.length) fence = null;
			return '';
		}
		if (opening) {
			fence = opening[1];
			return '';
		}
		return line.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, ' ');
	});
}

/** Every anchor a page offers: its headings' slugs (with GitHub's -1, -2 for repeats) and HTML ids. */
export function anchorsOf(markdown) {
	const anchors = new Set();
	const seen = new Map();
	const lines = markdown.split('\n');
	let fence = null;
	for (const line of lines) {
		const opening = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
		if (fence) {
			if (opening && opening[1][0] === fence[0] && opening[1].length >= fence.length) fence = null;
			continue;
		}
		if (opening) {
			fence = opening[1];
			continue;
		}
		const heading = /^\s{0,3}#{1,6}\s+(.*)$/.exec(line);
		if (heading) {
			const base = slugify(headingText(heading[1]));
			const count = seen.get(base) ?? 0;
			seen.set(base, count + 1);
			anchors.add(count === 0 ? base : `${base}-${count}`);
		}
		for (const html of line.matchAll(/<a\s[^>]*\b(?:id|name)\s*=\s*["']([^"']+)["']/gi)) {
			anchors.add(html[1]);
		}
	}
	return anchors;
}

/**
 * The links of a page, outside code: `{ target, line, image, label? }` (`label` for a reference
 * definition `[label]: target`), and `{ reference, line }` for each use `[text][label]`.
 */
export function linksOf(markdown) {
	const links = [];
	proseLines(markdown).forEach((line, index) => {
		const at = index + 1;
		const inline = /(!?)\[((?:[^[\]]|\[[^[\]]*\])*)\]\(\s*<?([^)\s>]*)>?(?:\s+["'(][^)]*)?\)/g;
		for (const m of line.matchAll(inline))
			links.push({ target: m[3], line: at, image: m[1] === '!' });
		const definition = /^\s{0,3}\[([^\]]+)\]:\s*<?(\S+?)>?(?:\s.*)?$/.exec(line);
		if (definition) {
			links.push({ target: definition[2], line: at, image: false, label: definition[1] });
		}
		for (const m of line.matchAll(/\]\[([^\]]+)\]/g)) links.push({ reference: m[1], line: at });
		for (const m of line.matchAll(/<img\s[^>]*\bsrc\s*=\s*["']([^"']+)["']/gi)) {
			links.push({ target: m[1], line: at, image: true });
		}
		for (const m of line.matchAll(/<a\s[^>]*\bhref\s*=\s*["']([^"']+)["']/gi)) {
			links.push({ target: m[1], line: at, image: false });
		}
		for (const m of line.matchAll(/<(https?:\/\/[^>\s]+)>/g)) {
			links.push({ target: m[1], line: at, image: false });
		}
	});
	return links;
}

/** `https://github.com/owner/repo` from package.json's repository (a string or `{ url }`). */
export function repositoryUrlOf(packageJson) {
	const repository = packageJson.repository;
	const raw = typeof repository === 'string' ? repository : repository?.url;
	if (!raw) return null;
	const m = /github\.com[/:]([^/]+)\/([^/#]+?)(?:\.git)?\/?$/.exec(raw);
	return m ? `https://github.com/${m[1]}/${m[2]}` : null;
}

function walk(dir, keep, skip = () => false) {
	if (!fs.existsSync(dir)) return [];
	const found = [];
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) {
			if (!skip(full) && entry.name !== 'node_modules') found.push(...walk(full, keep, skip));
		} else if (keep(full)) found.push(full);
	}
	return found;
}

/**
 * Where an absolute URL of this repository points: `{ path, anchor }` (path relative to the
 * root, '' for the repository's front page), `{ error }` for another branch, or null when the
 * URL is not a file of the repository (issues, another site).
 */
export function repositoryTarget(url, repositoryUrl) {
	if (!repositoryUrl) return null;
	const [, owner, repo] = /github\.com\/([^/]+)\/([^/]+)$/.exec(repositoryUrl);
	const [withoutAnchor, anchor = ''] = url.split('#');
	const bare = withoutAnchor.split('?')[0].replace(/\/$/, '');
	const raw = `https://raw.githubusercontent.com/${owner}/${repo}/`;
	let rest;
	if (bare.toLowerCase() === repositoryUrl.toLowerCase()) return { path: '', anchor };
	if (bare.toLowerCase().startsWith(raw.toLowerCase())) rest = bare.slice(raw.length);
	else if (bare.toLowerCase().startsWith(`${repositoryUrl.toLowerCase()}/`)) {
		const m = /^(blob|tree|raw)\/(.*)$/.exec(bare.slice(repositoryUrl.length + 1));
		if (!m) return null;
		rest = m[2];
	} else return null;
	const slash = rest.indexOf('/');
	const branch = slash < 0 ? rest : rest.slice(0, slash);
	if (branch !== BRANCH) {
		return { error: `links to the branch "${branch}": link to ${BRANCH}, what readers get` };
	}
	return { path: slash < 0 ? '' : decodeURIComponent(rest.slice(slash + 1)), anchor };
}

/**
 * Checks the documentation under `root`. Returns `{ pages, checked, broken, external }`:
 * `broken` and `external` are `{ file, line, target, message? }` (file relative to root).
 */
export function checkDocs(root, options = {}) {
	const repositoryUrl =
		options.repositoryUrl !== undefined
			? options.repositoryUrl
			: repositoryUrlOf(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')));
	const rel = (file) => path.relative(root, file).split(path.sep).join('/');
	const notes = path.join(root, 'docs', 'notes');
	const topLevel = fs
		.readdirSync(root)
		.filter((f) => f.endsWith('.md') && f !== 'README.md')
		.sort();
	const pages = [
		...(fs.existsSync(path.join(root, 'README.md')) ? [path.join(root, 'README.md')] : []),
		...topLevel.map((f) => path.join(root, f)),
		...walk(
			path.join(root, 'docs'),
			(f) => f.endsWith('.md'),
			(d) => d === notes,
		).sort(),
	];
	const anchorCache = new Map();
	const anchorsOfFile = (file) => {
		if (!anchorCache.has(file)) anchorCache.set(file, anchorsOf(fs.readFileSync(file, 'utf8')));
		return anchorCache.get(file);
	};
	// the repository's folders: a code span starting with one names a file (e.g.
	// `test/e2e/workflows/x.json`), which must exist, or stands for files with that name and
	// their extensions (`test/e2e/queue/eu-file-fifty` for .json and .assert.js)
	const folders = new Set(
		fs
			.readdirSync(root, { withFileTypes: true })
			.filter(
				(e) => e.isDirectory() && !['node_modules', '.git', 'dist', '.cache'].includes(e.name),
			)
			.map((e) => e.name),
	);
	const pathNamed = (named) => {
		const full = path.join(root, named);
		if (fs.existsSync(full)) return true;
		const dir = path.dirname(full);
		const base = path.basename(full);
		return fs.existsSync(dir) && fs.readdirSync(dir).some((f) => f.startsWith(`${base}.`));
	};
	const broken = [];
	const external = [];
	const readme = path.join(root, 'README.md');
	const readmeText = fs.existsSync(readme) ? fs.readFileSync(readme, 'utf8') : '';
	for (const phrase of options.requiredInReadme ?? REQUIRED_IN_README) {
		if (!readmeText.includes(phrase)) {
			broken.push({ file: 'README.md', line: 0, target: '', message: `does not say "${phrase}"` });
		}
	}
	let checked = 0;

	/** Checks `target` (a path relative to root, '' = README.md) and its anchor. */
	const checkTarget = (where, target, repoPath, anchor, image) => {
		checked++;
		const full = path.resolve(root, repoPath);
		if (full !== root && !full.startsWith(root + path.sep)) {
			return broken.push({ ...where, target, message: 'points outside the repository' });
		}
		const file = repoPath === '' ? path.join(root, 'README.md') : full;
		if (!fs.existsSync(file)) {
			return broken.push({ ...where, target, message: `${rel(file)} does not exist` });
		}
		const isDir = fs.statSync(file).isDirectory();
		if (image && (isDir || !IMAGE_EXT.test(file))) {
			return broken.push({ ...where, target, message: `${rel(file)} is not an image file` });
		}
		if (anchor && !isDir && file.endsWith('.md') && !anchorsOfFile(file).has(anchor)) {
			broken.push({ ...where, target, message: `${rel(file)} has no heading #${anchor}` });
		}
	};

	const checkUrl = (where, target, image) => {
		const inRepo = repositoryTarget(target, repositoryUrl);
		if (inRepo?.error) return broken.push({ ...where, target, message: inRepo.error });
		if (inRepo) return checkTarget(where, target, inRepo.path, inRepo.anchor, image);
		external.push({ ...where, target });
	};

	for (const page of pages) {
		const text = fs.readFileSync(page, 'utf8');
		const file = rel(page);
		const isReadme = file === 'README.md';
		const links = linksOf(text);
		const labels = new Set(links.filter((l) => l.label).map((l) => l.label.toLowerCase()));
		for (const link of links) {
			const where = { file, line: link.line };
			if (link.reference !== undefined) {
				checked++;
				if (!labels.has(link.reference.toLowerCase())) {
					broken.push({
						...where,
						target: `[${link.reference}]`,
						message: `no link definition [${link.reference}]: … in ${file}`,
					});
				}
				continue;
			}
			const target = link.target;
			if (target === '') {
				broken.push({ ...where, target, message: 'an empty link' });
			} else if (/^https?:\/\//i.test(target)) {
				checkUrl(where, target, link.image);
			} else if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
				external.push({ ...where, target });
			} else if (target.startsWith('#')) {
				checked++;
				const anchor = decodeURIComponent(target.slice(1));
				if (!anchorsOfFile(page).has(anchor)) {
					broken.push({ ...where, target, message: `${file} has no heading #${anchor}` });
				}
			} else if (isReadme) {
				checked++;
				broken.push({
					...where,
					target,
					message: `README.md is the npm page too, where relative links lead nowhere: write ${
						repositoryUrl ?? '<repository>'
					}/blob/${BRANCH}/${target.replace(/^\.\//, '')}`,
				});
			} else {
				const [pathPart, anchor = ''] = target.split('#');
				const repoPath = rel(
					path.resolve(path.dirname(page), decodeURIComponent(pathPart.split('?')[0])),
				);
				checkTarget(where, target, repoPath, decodeURIComponent(anchor), link.image);
			}
		}
		// examples named in the page exist
		text.split('\n').forEach((line, index) => {
			for (const m of line.matchAll(/(?<![\w.-])examples\/([\w.-]+\.json)\b/g)) {
				if (!fs.existsSync(path.join(root, 'examples', m[1]))) {
					broken.push({
						file,
						line: index + 1,
						target: `examples/${m[1]}`,
						message: `the example examples/${m[1]} does not exist`,
					});
				}
			}
			for (const m of line.matchAll(/`([^`\s]+)`/g)) {
				const named = m[1].replace(/^\.\//, '').split('#')[0];
				const folder = named.split('/')[0];
				if (!named.includes('/') || !folders.has(folder) || /[<>*…{}$]/.test(named)) continue;
				if (named.startsWith('docs/notes/') || /^examples\/[\w.-]+\.json$/.test(named)) continue;
				if (pathNamed(named)) continue;
				broken.push({
					file,
					line: index + 1,
					target: named,
					message: `${named} is named as a file of the repository, and there is none`,
				});
			}
		});
	}

	// every example is named somewhere
	const allText = pages.map((p) => fs.readFileSync(p, 'utf8')).join('\n');
	const examplesDir = path.join(root, 'examples');
	const examples = fs.existsSync(examplesDir)
		? fs.readdirSync(examplesDir).filter((f) => f.endsWith('.json'))
		: [];
	for (const example of examples.sort()) {
		if (!allText.includes(example)) {
			broken.push({
				file: `examples/${example}`,
				line: 0,
				target: example,
				message:
					'this example is named nowhere in README.md or docs/: describe it in docs/examples.md',
			});
		}
	}

	// documentation URLs that n8n's editor opens
	const sources = [
		...walk(path.join(root, 'credentials'), (f) => f.endsWith('.ts')),
		...walk(path.join(root, 'nodes'), (f) => f.endsWith('.node.json')),
	].sort();
	for (const source of sources) {
		fs.readFileSync(source, 'utf8')
			.split('\n')
			.forEach((line, index) => {
				for (const m of line.matchAll(
					/https:\/\/(?:raw\.githubusercontent\.com|github\.com)\/[^\s'"`)]+/g,
				)) {
					if (repositoryTarget(m[0], repositoryUrl)) {
						checkUrl({ file: rel(source), line: index + 1 }, m[0], false);
					}
				}
			});
	}

	return { pages: pages.map(rel), checked, broken, external };
}

function main() {
	const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
	const { pages, checked, broken, external } = checkDocs(root);
	const byUrl = new Map();
	for (const e of external) {
		if (!byUrl.has(e.target)) byUrl.set(e.target, []);
		byUrl.get(e.target).push(`${e.file}:${e.line}`);
	}
	if (byUrl.size > 0) {
		console.log(`External links (not fetched, ${byUrl.size}):`);
		for (const [url, at] of [...byUrl].sort()) console.log(`  ${url}  (${at.join(', ')})`);
	}
	for (const b of broken) {
		console.log(`${b.file}:${b.line}: ${b.target ? `${b.target}: ` : ''}${b.message}`);
	}
	console.log(
		`check-docs: ${pages.length} pages, ${checked} links checked, ${external.length} external (not fetched), ${broken.length} broken`,
	);
	process.exitCode = broken.length > 0 ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
