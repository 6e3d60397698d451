/**
 * Pre-flight problems (found before any request): without Continue On Fail, one
 * NodeOperationError for the whole run listing every problem of every item; with it, one
 * error item per bad item.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Reading } from '../input';
import { fieldProblem } from '../input';

/** Thrown by a reader with one or more problem lines of an item. */
export class InputProblems extends Error {
	constructor(readonly lines: string[]) {
		super(lines.join(' | '));
		this.name = 'InputProblems';
	}
}

/** Where `prepare` reports the problems of one item. */
export interface Problems {
	readonly itemIndex: number;
	readonly lines: string[];
	/** What to do about them, when a line alone does not say it. */
	readonly hints: string[];
	/** A problem of one field: `Item i, field "<field>": <reason>`. */
	field(field: string, reason: string): void;
	/**
	 * A problem of a setting only the workflow's author may change (e.g. one that allows a legal
	 * act): the same line, never with a tool-input hint (the model cannot and may not fix it).
	 */
	setting(field: string, reason: string): void;
	/** The lines of `setting`, left as they are when the node runs as a tool. */
	readonly authorOnly: ReadonlySet<string>;
	/**
	 * The value of a reading, or undefined after reporting why it cannot be used;
	 * `required` is the reason to give when the field is empty.
	 */
	take<T>(field: string, reading: Reading<T>, required?: string): T | undefined;
	/** Ready-made lines (e.g. geometry problems, which name the item and feature). */
	add(...lines: string[]): void;
	/** Anything thrown while reading the item (its description becomes a hint). */
	addError(error: unknown): void;
}

export function problemsOf(itemIndex: number): Problems {
	const lines: string[] = [];
	const hints: string[] = [];
	const authorOnly = new Set<string>();
	return {
		itemIndex,
		lines,
		hints,
		authorOnly,
		field: (field, reason) => lines.push(fieldProblem(itemIndex, field, reason)),
		setting: (field, reason) => {
			const line = fieldProblem(itemIndex, field, reason);
			authorOnly.add(line);
			lines.push(line);
		},
		take: (field, reading, required) => {
			if (reading.kind === 'value') return reading.value;
			if (reading.kind === 'invalid') lines.push(fieldProblem(itemIndex, field, reading.reason));
			else if (required) lines.push(fieldProblem(itemIndex, field, required));
			return undefined;
		},
		add: (...more) => lines.push(...more),
		addError: (error) => {
			if (error instanceof InputProblems) return void lines.push(...error.lines);
			const e = error as { message?: string; description?: unknown } | undefined;
			lines.push(e?.message ?? String(error));
			if (typeof e?.description === 'string' && e.description) hints.push(e.description);
		},
	};
}

const MAX_LISTED = 50;

function summary(lines: string[]): string {
	return lines.length === 1 ? lines[0] : `${lines.length} problems: ${lines.join(' | ')}`;
}

const FROM_AI = /\$fromAI\(\s*(['"`])([^'"`]+)\1/g;

function stringsIn(value: unknown, depth = 0): string[] {
	if (typeof value === 'string') return [value];
	if (!value || typeof value !== 'object' || depth > 8) return [];
	return Object.values(value).flatMap((v) => stringsIn(v, depth + 1));
}

/** The `$fromAI` keys in each top-level parameter of the node (its tool inputs), by parameter. */
function toolInputs(ctx: Pick<IExecuteFunctions, 'getNode'>): Map<string, string[]> {
	const byParameter = new Map<string, string[]>();
	for (const [name, value] of Object.entries(ctx.getNode().parameters ?? {})) {
		const keys = stringsIn(value).flatMap((text) => [...text.matchAll(FROM_AI)].map((m) => m[2]));
		if (keys.length > 0) byParameter.set(name, [...new Set(keys)]);
	}
	return byParameter;
}

/** `Plot IDs` → plotIds / plotId: the parameter names a field label may stand for. */
function parameterNames(label: string): string[] {
	const last = label.split('→').pop()!.trim();
	const words = last
		.replace(/\(.*?\)/g, '')
		.trim()
		.split(/\s+/);
	const camel = words
		.map((w, i) => (i === 0 ? w.toLowerCase() : w[0].toUpperCase() + w.slice(1).toLowerCase()))
		.join('');
	return [camel, camel.replace(/s$/, ''), `${camel}s`];
}

/**
 * When the node runs as an AI Agent's tool, a problem line also says which tool input to
 * supply, so the model can correct its call; in a workflow the line is left as it is.
 */
export function forToolUse(
	ctx: Pick<IExecuteFunctions, 'getNode'>,
	lines: string[],
	authorOnly: ReadonlySet<string> = new Set(),
): string[] {
	const inputs = toolInputs(ctx);
	const isTool = inputs.size > 0 || /Tool$/.test(ctx.getNode().type ?? '');
	if (!isTool) return lines;
	const all = [...new Set([...inputs.values()].flat())];
	return lines.map((line) => {
		if (authorOnly.has(line)) return line;
		const field = /field "([^"]+)"/.exec(line)?.[1];
		const keys = field ? parameterNames(field).flatMap((n) => inputs.get(n) ?? []) : [];
		if (keys.length > 0) return `${line} (as a tool: supply the tool input "${keys[0]}")`;
		if (all.length > 0)
			return `${line} (as a tool: check the tool inputs ${all.map((k) => `"${k}"`).join(', ')})`;
		return line;
	});
}

/**
 * How a pre-flight's messages name the service nothing was sent to, what "Continue On Fail"
 * skips, and what is refused as one (an item; a statement, whose rows are refused together).
 */
export interface PreflightWords {
	service: string;
	skipped: string;
	unit: string;
}

export const ITEM_WORDS: PreflightWords = {
	service: 'the service',
	skipped: 'the bad items',
	unit: 'item',
};

/** The error that stops the node when any item is invalid; nothing has been sent. */
export function preflightError(
	ctx: IExecuteFunctions,
	problems: Problems[],
	words: PreflightWords = ITEM_WORDS,
): NodeOperationError {
	const all = [...problems].sort((a, b) => a.itemIndex - b.itemIndex);
	const lines = forToolUse(
		ctx,
		all.flatMap((p) => p.lines),
		new Set(all.flatMap((p) => [...p.authorOnly])),
	);
	const hints = [...new Set(all.flatMap((p) => p.hints))];
	const count = all.length;
	const message =
		lines.length === 1
			? lines[0]
			: `${lines[0]} (and ${lines.length - 1} more problem${lines.length > 2 ? 's' : ''} in ${count} ${words.unit}${count > 1 ? 's' : ''})`;
	const listed = lines.slice(0, MAX_LISTED).join('\n');
	const more = lines.length > MAX_LISTED ? `\n… and ${lines.length - MAX_LISTED} more.` : '';
	const advice = hints.length > 0 ? `\n${hints.join('\n')}` : '';
	return new NodeOperationError(ctx.getNode(), message, {
		itemIndex: all[0].itemIndex,
		description: `Nothing was sent to ${words.service}. Fix these inputs (or turn on "Continue On Fail" to skip ${words.skipped}) and run again:\n${listed}${more}${advice}`,
	});
}

/** The error item of one bad item under Continue On Fail: the one error-item shape. */
export function problemItem(
	problems: Pick<Problems, 'itemIndex' | 'lines' | 'hints'>,
	unit = ITEM_WORDS.unit,
): INodeExecutionData {
	const { itemIndex, lines, hints } = problems;
	return {
		json: {
			error: summary(lines),
			description: `Nothing was sent for this ${unit}. ${hints.length > 0 ? hints.join(' ') : 'Fix the input and run again.'}`,
		},
		pairedItem: { item: itemIndex },
	};
}
