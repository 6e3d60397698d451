/**
 * IDs of plots, jobs, protected areas and analysis runs, read the same way in every field
 * that takes them. Pure: no n8n imports.
 *
 * Decisions
 * - Accepted shapes: lists (nested too), numbers, objects that carry the ID (`plot_id`,
 *   `job_id`, `area_id` or `run_id` as fitting the noun, else `id`), text separated by
 *   commas, semicolons, spaces or new lines, and JSON-array text (`[100001, "100002"]`).
 *   Every string, wherever it appears, is split by the same separators.
 * - Blank entries of a list (empty cells) are skipped; an object whose ID field is empty is
 *   refused (a record without its ID is a data problem, not a blank cell).
 * - Repeated IDs are kept once, in the order first seen.
 * - Every ID must be usable as ONE path segment: IDs made only of dots, and IDs containing
 *   `/ \ ? # %`, whitespace, control or invisible characters, or a character XML cannot
 *   carry (the EU Information System's ids go into XML) are refused, naming the ID.
 * - Numbers must be whole and exact (below 2^53): a rounded number would name another record.
 * - Text that still holds `{{ … }}` is an expression that was not evaluated.
 */

import { MISSING, invalid, isPlainObject, kindOf, quoted, value } from './internal';
import type { Reading } from './reading';
import { xmlTextProblem } from './text';

export type IdNoun = 'plot' | 'job' | 'area' | 'run' | 'check' | 'statement' | 'declaration';

const NOUNS: Record<IdNoun, { thing: string; name: string; key: string; example: string }> = {
	plot: { thing: 'plot', name: 'plot id', key: 'plot_id', example: '100001' },
	job: { thing: 'job', name: 'job id', key: 'job_id', example: '7001' },
	area: { thing: 'protected area', name: 'protected area id', key: 'area_id', example: '351814' },
	run: { thing: 'analysis run', name: 'analysis run id', key: 'run_id', example: '500001' },
	// Check (capability) names are read like ids: the same lists, separators and checks.
	check: { thing: 'check', name: 'check name', key: 'type', example: 'eudr' },
	// EU Information System: a due-diligence statement's UUID, as Submit outputs it.
	statement: {
		thing: 'due-diligence statement',
		name: 'statement UUID',
		key: 'uuid',
		example: '1f5c2c4e-0d7a-4f7b-9a2e-3c1d2b6e8f90',
	},
	// A simplified declaration's UUID, as Submit outputs it.
	declaration: {
		thing: 'simplified declaration',
		name: 'declaration UUID',
		key: 'uuid',
		example: '1f5c2c4e-0d7a-4f7b-9a2e-3c1d2b6e8f90',
	},
};

/** Control and invisible characters (zero-width spaces, byte order marks, bidi marks, …). */
// eslint-disable-next-line no-control-regex
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]/g;

/** "a plot id", "an analysis run id". */
function a(words: string): string {
	return `${/^[aeiou]/i.test(words) ? 'an' : 'a'} ${words}`;
}

function hexOf(char: string): string {
	return char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
}

const MAX_DEPTH = 8;

function listExample(noun: IdNoun): string {
	const { example } = NOUNS[noun];
	if (noun === 'statement' || noun === 'declaration')
		return `${example}, 7c0e8b1a-5d2f-4e3b-8a6c-9f1d2e3b4c5a`;
	return /^\d+$/.test(example) ? `${example}, ${Number(example) + 1}` : `${example}, deforestation`;
}

/** The reason to give when a required ID field is empty. */
export function missingIdReason(noun: IdNoun): string {
	const { thing, name, key } = NOUNS[noun];
	return `no ${name} was given. Map the ${key} of the ${thing}, e.g. {{ $json.${key} }}.`;
}

function giveOnly(noun: IdNoun): string {
	const { key, example } = NOUNS[noun];
	return `Give the ${key} only, e.g. ${example}.`;
}

/** Why `id` cannot be one path segment, or undefined when it can. */
function idProblem(id: string, noun: IdNoun): string | undefined {
	const { name } = NOUNS[noun];
	const shown = quoted(id.replace(HIDDEN, (c) => `\\u${hexOf(c)}`));
	if (/^\.+$/.test(id))
		return `${shown} is not ${a(name)}: an id made only of dots would change the address the request goes to. ${giveOnly(noun)}`;
	const reserved = /[/\\?#%]/.exec(id);
	if (reserved)
		return `${shown} is not ${a(name)}: it contains "${reserved[0]}", which cannot be part of an id. ${giveOnly(noun)}`;
	if (/\s/.test(id))
		return `${shown} is not ${a(name)}: it contains a space or line break. ${giveOnly(noun)}`;
	const hidden = id.match(HIDDEN);
	if (hidden) {
		return `${shown} is not ${a(name)}: it contains the invisible character U+${hexOf(hidden[0])} (often left over from a copied cell or a CSV file). Type the id again. ${giveOnly(noun)}`;
	}
	// half of a character (a lone surrogate), U+FFFE, U+FFFF: no XML (the EU's) can carry them
	const notXml = xmlTextProblem(id);
	if (notXml) return `${shown} is not ${a(name)}: ${notXml}. ${giveOnly(noun)}`;
	return undefined;
}

/** Collects the ids of one value into `out`; returns a reason when a part cannot be read. */
function collect(v: unknown, noun: IdNoun, out: string[], depth: number): string | undefined {
	const { thing, name, key } = NOUNS[noun];
	if (v === undefined || v === null) return undefined;
	if (depth > MAX_DEPTH)
		return `the lists are nested more than ${MAX_DEPTH} deep. Give the ${name}s as one list or as comma-separated text.`;
	if (Array.isArray(v)) {
		for (const part of v) {
			const problem = collect(part, noun, out, depth + 1);
			if (problem) return problem;
		}
		return undefined;
	}
	if (typeof v === 'number') {
		if (!Number.isFinite(v)) return `${String(v)} is not ${a(name)}. ${giveOnly(noun)}`;
		if (!Number.isInteger(v))
			return `${v} is a number with a fraction, not ${a(name)}. ${giveOnly(noun)}`;
		if (!Number.isSafeInteger(v))
			return `${v} is too large to be an exact number, so it may have been rounded and name another record. Map the ${key} as text.`;
		out.push(String(v));
		return undefined;
	}
	if (typeof v === 'bigint') {
		out.push(String(v));
		return undefined;
	}
	if (typeof v === 'string') return collectText(v, noun, out, depth);
	if (isPlainObject(v)) {
		const field = [key, 'id'].find((k) => Object.prototype.hasOwnProperty.call(v, k));
		if (field === undefined) {
			const other = Object.values(NOUNS).find(
				(n) => n.key !== key && Object.prototype.hasOwnProperty.call(v, n.key),
			);
			return `an entry is an object, not text, and it has no ${key} field${other ? ` (it has ${other.key}, so it is not ${a(thing)})` : ''}. Map the ${name} itself, e.g. {{ $json.${key} }}.`;
		}
		const id = v[field];
		if (id === undefined || id === null || (typeof id === 'string' && id.trim() === ''))
			return `an entry has an empty ${field}. Give every entry its ${name}, or remove the entry.`;
		if (typeof id !== 'string' && typeof id !== 'number' && typeof id !== 'bigint')
			return `the ${field} of an entry is ${kindOf(id)}, not ${a(name)}. ${giveOnly(noun)}`;
		return collect(id, noun, out, depth + 1);
	}
	return `an entry is ${kindOf(v)}, not ${a(name)}. ${giveOnly(noun)}`;
}

function collectText(v: string, noun: IdNoun, out: string[], depth: number): string | undefined {
	const { name, key } = NOUNS[noun];
	const text = v.trim();
	if (text === '') return undefined;
	if (text.includes('{{'))
		return `${quoted(text)} is an expression that was not evaluated. Switch the field to Expression (or start it with =), e.g. {{ $json.${key} }}.`;
	if (/^\[object \w+\]$/.test(text))
		return `${quoted(text)} is an object turned into text, not ${a(name)}. Map the ${key} field itself, e.g. {{ $json.${key} }}.`;
	const list = text.startsWith('[') && text.endsWith(']');
	const object = text.startsWith('{') && text.endsWith('}');
	if (list || object) {
		let parsed: unknown;
		try {
			parsed = JSON.parse(text);
		} catch {
			parsed = undefined;
		}
		if (parsed !== undefined) return collect(parsed, noun, out, depth + 1);
		if (object)
			return `${quoted(text)} is neither valid JSON nor ${a(name)}. Give the ${name}s as a list or as comma-separated text, e.g. ${listExample(noun)}.`;
	}
	const inner = list ? text.slice(1, -1) : text;
	for (const piece of inner.split(/[\s,;]+/)) {
		const id = piece.replace(/^(["'])(.*)\1$/, '$2');
		if (id !== '') out.push(id);
	}
	return undefined;
}

/**
 * The ids of a field: a list, a number, an object carrying the id, separated text or
 * JSON-array text; repeated ids once, in order. Missing when nothing is given.
 */
export function readIdList(v: unknown, noun: IdNoun): Reading<string[]> {
	const found: string[] = [];
	const problem = collect(v, noun, found, 0);
	if (problem) return invalid(problem);
	const ids = [...new Set(found)];
	if (ids.length === 0) return MISSING;
	for (const id of ids) {
		const bad = idProblem(id, noun);
		if (bad) return invalid(bad);
	}
	return value(ids);
}

/** Exactly one id (same reading and checks as `readIdList`); several are refused. */
export function readId(v: unknown, noun: IdNoun): Reading<string> {
	const read = readIdList(v, noun);
	if (read.kind !== 'value') return read;
	if (read.value.length > 1) {
		const { name } = NOUNS[noun];
		const shown = read.value.slice(0, 5).join(', ') + (read.value.length > 5 ? ', …' : '');
		return invalid(
			`it holds ${read.value.length} ${name}s (${shown}), but this field takes one. Give one ${name} per item; to use several, give each its own input item.`,
		);
	}
	return value(read.value[0]);
}

/** The id as one encoded path segment. */
export function idPath(id: string): string {
	return encodeURIComponent(id);
}
