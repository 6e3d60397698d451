/**
 * The item runner: the one place that turns input items into output items.
 *
 * Every operation of the action node runs through `runItems` in one of two modes:
 * - per item (`run`): one call per input item (get, get many, results, runs, capability,
 *   account);
 * - batched (`plan`): the operation builds what to send from all items at once (batches that
 *   may serve several items: register, protected-area check, create, quote, wait) and the
 *   runner sends it (the shape of n8n's Postgres v2 `runQueries`).
 *
 * The runner alone owns:
 * - the pre-flight: `prepare` runs for EVERY item before any request; all problems of all
 *   items are listed in one error (or, with Continue On Fail, one error item per bad item);
 *   a plan may refuse items together before any request (`Planned.refused`, e.g. the rows of
 *   a statement the EU's rules refuse), and they are refused the same way; a plan is told the
 *   items whose pre-flight failed (`Failed`, Continue On Fail only), so that it can refuse
 *   with them what must not go without them (a statement is filed with all its rows or not at
 *   all) and say so on their error items (`Planned.notes`);
 * - Continue On Fail, and the one error-item shape (`errorItem`);
 * - `pairedItem` of every output item;
 * - output order: by input item, outputs of one item in the order they were made.
 */
import type {
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	IPairedItemData,
} from 'n8n-workflow';

import { asNodeError, errorItem } from './errorItems';
import { ITEM_WORDS, forToolUse, preflightError, problemItem, problemsOf } from './preflight';
import type { PreflightWords, Problems } from './preflight';
import { runPool } from './pool';

export { errorItem, asNodeError } from './errorItems';
export type { PreflightWords, Problems } from './preflight';
export { runPool } from './pool';

/** One output of a batch: data paired with one or several input items, or an item's failure. */
export type BatchOutput =
	| { item: number | number[]; json: IDataObject; binary?: IBinaryKeyData }
	| { item: number; error: unknown };

/** What one request (or one group of requests) sends, for which input items. */
export interface Batch {
	/** The input items this batch serves: they fail together when `send` throws. */
	items: number[];
	send: () => Promise<BatchOutput[]>;
}

/** An item whose pre-flight passed, with what `prepare` read. */
export interface Ready<P> {
	itemIndex: number;
	value: P;
}

interface Common<P> {
	/**
	 * Reads and checks the parameters of one item; no request. Report problems through
	 * `problems` (the item is then skipped) or throw (an `InputProblems`, or any error: its
	 * message becomes the item's problem).
	 */
	prepare?: (itemIndex: number, problems: Problems) => P;
}

export interface PerItemOperation<P> extends Common<P> {
	/** The work of one item: its output records, or whole items (e.g. with binary data). */
	run: (
		itemIndex: number,
		prepared: P,
	) => Promise<
		IDataObject | IDataObject[] | { items: Array<{ json: IDataObject; binary?: IBinaryKeyData }> }
	>;
}

/**
 * Items the pre-flight refuses together, found while planning and before anything is sent
 * (e.g. the rows of one statement the EU's rules refuse): refused as the items whose `prepare`
 * found a problem are (one error listing all, or with Continue On Fail an error item each).
 */
export interface Refusal {
	items: number[];
	lines: string[];
}

/**
 * An item whose pre-flight failed (its `prepare` found problems), as a plan is told it: with
 * Continue On Fail only (without it nothing is planned). It is an error item whatever the plan.
 */
export interface Failed {
	itemIndex: number;
	lines: readonly string[];
}

/** A plan with refusals: the batches to send, the refused items, and how messages name them. */
export interface Planned {
	batches: Batch[];
	refused: Refusal[];
	words?: PreflightWords;
	/**
	 * What the error items of failed items (`Failed`) say besides their own problems (e.g. which
	 * statement was not sent because of them): added to their description.
	 */
	notes?: Array<{ item: number; lines: string[] }>;
}

export interface BatchedOperation<P> extends Common<P> {
	/**
	 * Builds the batches to send from the items that passed the pre-flight, in input order; may
	 * also refuse items together (Planned), before anything is sent. `failed`: the items whose
	 * pre-flight failed, in input order (Continue On Fail only): they are never sent, and what
	 * needs them whole (a statement's other rows) is refused with them.
	 */
	plan: (
		ready: Array<Ready<P>>,
		failed: Failed[],
	) => Batch[] | Planned | Promise<Batch[] | Planned>;
	/**
	 * Combines the outputs of all batches that succeeded into the final outputs (e.g. one
	 * merged answer for several requests); by default they are output as they are.
	 */
	combine?: (outputs: Array<Extract<BatchOutput, { json: IDataObject }>>) => BatchOutput[];
	/** How many batches may be under way at once (default 1). */
	concurrency?: number;
	/**
	 * Called when the run stops on a failure (no Continue On Fail): returns a sentence saying
	 * what already happened (what exists, what was spent, given the batches that succeeded
	 * and the error), added to the error's description so that nothing is done twice.
	 */
	alreadyDone?: (succeeded: Batch[], error: unknown) => string | AlreadyDone | undefined;
}

/**
 * What `alreadyDone` reports: a sentence for the error's description and, optionally, data
 * kept on the error's `context` (e.g. the results already paid for), so that nothing is lost.
 */
export interface AlreadyDone {
	description?: string;
	context?: IDataObject;
}

export type Operation<P> = PerItemOperation<P> | BatchedOperation<P>;

function firstItemOf(paired: IPairedItemData | IPairedItemData[] | number | undefined): number {
	if (typeof paired === 'number') return paired;
	if (Array.isArray(paired)) return Math.min(...paired.map((p) => p.item));
	return paired?.item ?? 0;
}

function toPaired(item: number | number[]): IPairedItemData | IPairedItemData[] {
	return Array.isArray(item) ? item.map((i) => ({ item: i })) : { item };
}

function perItemBatches<P>(op: PerItemOperation<P>, ready: Array<Ready<P>>): Batch[] {
	return ready.map(({ itemIndex, value }) => ({
		items: [itemIndex],
		send: async () => {
			const result = await op.run(itemIndex, value);
			if (!Array.isArray(result) && Array.isArray((result as { items?: unknown }).items)) {
				return (
					result as { items: Array<{ json: IDataObject; binary?: IBinaryKeyData }> }
				).items.map((out) => ({ item: itemIndex, ...out }));
			}
			const records = Array.isArray(result) ? result : [result as IDataObject];
			return records.map((json) => ({ item: itemIndex, json }));
		},
	}));
}

/** Runs an operation over the input items (see the module comment). */
export async function runItems<P>(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	op: Operation<P>,
): Promise<INodeExecutionData[]> {
	const continueOnFail = ctx.continueOnFail();

	// 1. Pre-flight: every item is read and checked before anything is sent.
	const ready: Array<Ready<P>> = [];
	const problems: Problems[] = [];
	for (let i = 0; i < items.length; i++) {
		const found: Problems = problemsOf(i);
		let value: P | undefined;
		try {
			value = op.prepare ? op.prepare(i, found) : (undefined as P);
		} catch (error) {
			found.addError(error);
		}
		if (found.lines.length > 0) problems.push(found);
		else ready.push({ itemIndex: i, value: value as P });
	}
	if (problems.length > 0 && !continueOnFail) throw preflightError(ctx, problems);

	// 2. The plan; items it refuses together (still before any request) are refused as above.
	const failed: Failed[] = problems.map((p) => ({ itemIndex: p.itemIndex, lines: [...p.lines] }));
	const planned = 'plan' in op ? await op.plan(ready, failed) : perItemBatches(op, ready);
	const { batches, refused, words, notes } = Array.isArray(planned)
		? { batches: planned, refused: [] as Refusal[], words: ITEM_WORDS, notes: undefined }
		: { ...planned, words: planned.words ?? ITEM_WORDS };
	for (const note of notes ?? [])
		problems.find((p) => p.itemIndex === note.item)?.hints.push(...note.lines);
	const refusedProblems = refused.map((r) => {
		const found = problemsOf(Math.min(...r.items));
		found.add(...r.lines);
		return { found, items: r.items };
	});
	if (refusedProblems.length > 0 && !continueOnFail)
		throw preflightError(
			ctx,
			refusedProblems.map((r) => r.found),
			words,
		);

	// 3. The batches, sent with the operation's concurrency; no new batch after a failure
	//    unless Continue On Fail.

	const concurrency = 'plan' in op ? (op.concurrency ?? 1) : 1;
	const outcome = await runPool(batches, concurrency, async (b) => await b.send(), !continueOnFail);

	// 4. Outputs in input order, every one paired; failures as error items or one error.
	const out: Array<{ at: number; data: INodeExecutionData }> = [];
	const succeeded: Batch[] = [];
	let failure: { error: unknown; itemIndex: number } | undefined;
	const fail = (error: unknown, itemIndex: number) => {
		if (continueOnFail) out.push({ at: itemIndex, data: errorItem(error, itemIndex) });
		else failure ??= { error, itemIndex };
	};
	let outputs: BatchOutput[] = [];
	outcome.results.forEach((result, b) => {
		if (result.status === 'skipped') return;
		if (result.status === 'rejected') {
			for (const item of batches[b].items) outputs.push({ item, error: result.reason });
			return;
		}
		succeeded.push(batches[b]);
		outputs.push(...result.value);
	});
	if ('plan' in op && op.combine) {
		const data = outputs.filter(
			(o): o is Extract<BatchOutput, { json: IDataObject }> => 'json' in o,
		);
		outputs = [
			...outputs.filter((o) => 'error' in o),
			...(data.length > 0 ? op.combine(data) : []),
		];
	}
	for (const output of outputs) {
		if ('error' in output) fail(output.error, output.item);
		else {
			const data: INodeExecutionData = { json: output.json, pairedItem: toPaired(output.item) };
			if (output.binary) data.binary = output.binary;
			out.push({ at: firstItemOf(data.pairedItem), data });
		}
	}
	if (failure) {
		const error = asNodeError(ctx, failure.error, failure.itemIndex);
		const done = 'plan' in op ? op.alreadyDone?.(succeeded, failure.error) : undefined;
		const note = typeof done === 'string' ? { description: done } : done;
		if (note?.description)
			error.description = `${error.description ?? ''} ${note.description}`.trim();
		if (note?.context) error.context = { ...(error.context ?? {}), ...note.context };
		throw error;
	}
	// as an AI Agent tool, the error item the model reads names the tool input to supply
	for (const found of problems)
		out.push({
			at: found.itemIndex,
			data: problemItem({ ...found, lines: forToolUse(ctx, found.lines, found.authorOnly) }),
		});
	for (const { found, items: together } of refusedProblems)
		for (const itemIndex of together)
			out.push({
				at: itemIndex,
				data: problemItem(
					{ itemIndex, hints: found.hints, lines: forToolUse(ctx, found.lines) },
					words.unit,
				),
			});
	// A stable sort: outputs of one item keep the order in which they were made.
	return out.sort((a, b) => a.at - b.at).map((o) => o.data);
}
