/**
 * The pre-flight of whole statements (Submit and Amend; the SD's Submit and Update through its
 * DeclarationKind), after every item's own pre-flight
 * (the runner's `prepare`): the items grouped into statements by Internal Reference, each
 * statement checked against the EU's rules (rules.ts) and measured as the envelope it would
 * be sent in (25 MB at most) before ANY request. The refused statements go to the shared runner
 * (nodes/shared/runner) as refusals of the plan: without Continue On Fail one error lists the
 * problems of every statement and nothing is sent; with it, the items of a refused statement
 * become error items and the other statements go on.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import type {
	Batch,
	BatchOutput,
	Failed,
	Planned,
	PreflightWords,
	Ready,
	Refusal,
} from '../../../../shared/runner';
import { caseCollisions } from '../../../../shared/dds/referenceMatch';
import type { StatementProblem } from '../../../../shared/dds/rules';
import { statementProblems } from '../../../../shared/dds/rules';
import type { OperatorRole, Statement } from '../../../../shared/dds/statement';
import { EU_MAX_MESSAGE_BYTES, envelopeBytes } from '../../../../shared/transport/soapRequest';
import { holdIncomplete } from './failedRows';
import { itemsLabel } from './groupStatements';
import type { GroupedRows, StatementRow } from './statementFields';
import { groupStatements } from './statementFields';

/** The field a statement's size is blamed on: its geolocation makes almost all of it. */
export const SIZE_FIELD = 'Geolocation (all producers)';

export type GroupedStatement = GroupedRows;

/** What is checked: the service it goes to, its name in messages and its rules. */
export interface DeclarationKind {
	service: 'dds' | 'sd';
	/** "Statement" / "Declaration", at the start of each problem line. */
	noun: string;
	problems: (group: GroupedStatement) => StatementProblem[];
}

export const DDS_KIND: DeclarationKind = {
	service: 'dds',
	noun: 'Statement',
	problems: (group) => statementProblems(group.statement as Statement, group.role as OperatorRole),
};

export interface CheckedStatement extends GroupedStatement {
	/** The request body to send (built once, measured in its envelope). */
	body: string;
	/** "item 0" / "items 0, 1, 2" for messages. */
	itemsLabel: string;
}

export { itemsLabel };

function megabytes(bytes: number): string {
	return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** The field the exactly-once lookup needs (the EU searches with 3 to 50 characters). */
export const REFERENCE_FIELD = 'Internal Reference';

function referenceProblems(reference: string): StatementProblem[] {
	if (reference.trim() === '')
		return [
			{
				field: REFERENCE_FIELD,
				message:
					'no Internal Reference was given. Submit files each statement exactly once by its Internal Reference (it looks the reference up before sending): give every row one, e.g. the purchase order number.',
			},
		];
	if (reference.length < 3)
		return [
			{
				field: REFERENCE_FIELD,
				message: `"${reference}" is too short for the EU Information System's lookup (3 characters at least), which Submit makes before sending so as to file the statement once. Use a longer reference.`,
			},
		];
	return [];
}

/**
 * The statements of a run whose Internal References differ only in letter case ("PO-7" and
 * "po-7"): the EU's lookup cannot tell them apart, so neither can be filed exactly once. Each
 * is refused before anything is sent, naming the others and their items.
 */
function caseProblems(
	groups: readonly GroupedStatement[],
): Map<GroupedStatement, StatementProblem[]> {
	const out = new Map<GroupedStatement, StatementProblem[]>();
	for (const list of caseCollisions(groups))
		for (const g of list) {
			const others = list
				.filter((x) => x.internalReference !== g.internalReference)
				.map((x) => `"${x.internalReference}" (${itemsLabel(x.items)})`)
				.join(', ');
			out.set(g, [
				{
					field: REFERENCE_FIELD,
					message: `it differs from ${others} only in letter case. The EU Information System's lookup does not tell letter case apart, so these could be one Internal Reference there and be filed twice: give the rows of one statement exactly the same Internal Reference, or make the references differ in more than letter case.`,
				},
			]);
		}
	return out;
}

/** Every problem of one statement: its rules, then its size as it would be sent. */
async function problemsOf(
	ctx: IExecuteFunctions,
	kind: DeclarationKind,
	group: GroupedStatement,
	body: string | undefined,
	requireReference: boolean,
	extra: readonly StatementProblem[] = [],
): Promise<StatementProblem[]> {
	const seen = new Set<string>();
	const all: StatementProblem[] = [];
	const own = requireReference ? [...referenceProblems(group.internalReference), ...extra] : [];
	for (const p of [...own, ...group.problems, ...kind.problems(group)]) {
		const key = `${p.field}\u0000${p.message}`;
		if (seen.has(key)) continue;
		seen.add(key);
		all.push(p);
	}
	if (body !== undefined) {
		const bytes = await envelopeBytes.call(ctx, kind.service, body);
		if (bytes > EU_MAX_MESSAGE_BYTES)
			all.push({
				field: SIZE_FIELD,
				message: `the statement would be sent as ${megabytes(bytes)}, over the EU Information System's limit of 25 MB per statement. Split its plots over several statements (another Internal Reference on some of the rows) or simplify their geometries.`,
			});
	}
	return all;
}

function problemLine(
	noun: string,
	c: { internalReference: string; items: number[] },
	p: StatementProblem,
) {
	return `${noun} "${c.internalReference}" (${itemsLabel(c.items)}), field "${p.field}": ${p.message}`;
}

/**
 * Checks every statement before anything is sent: the statements that may be sent, and the
 * items of the refused ones with their problem lines (the runner refuses them as it refuses
 * any item of the pre-flight: one error listing all, or error items with Continue On Fail).
 */
export async function checkStatements(
	ctx: IExecuteFunctions,
	groups: GroupedStatement[],
	bodyOf: (group: GroupedStatement) => string,
	requireReference: boolean,
	kind: DeclarationKind = DDS_KIND,
): Promise<{ ready: CheckedStatement[]; refused: Refusal[] }> {
	const ready: CheckedStatement[] = [];
	const refused: Refusal[] = [];
	const collisions = requireReference ? caseProblems(groups) : new Map();
	for (const group of groups) {
		let body: string | undefined;
		let buildProblem: string | undefined;
		try {
			body = bodyOf(group);
		} catch (error) {
			buildProblem = (error as Error).message ?? String(error);
		}
		const problems = await problemsOf(
			ctx,
			kind,
			group,
			body,
			requireReference,
			collisions.get(group),
		);
		const lines = problems.map((p) => problemLine(kind.noun, group, p));
		if (buildProblem)
			lines.push(
				`${kind.noun} "${group.internalReference}" (${itemsLabel(group.items)}): ${buildProblem}`,
			);
		if (lines.length > 0) refused.push({ items: group.items, lines });
		else ready.push({ ...group, body: body!, itemsLabel: itemsLabel(group.items) });
	}
	return { ready, refused };
}

/** How the runner's pre-flight messages name a refused statement (or declaration). */
export function statementWords(kind: DeclarationKind): PreflightWords {
	const unit = kind.noun.toLowerCase();
	return {
		service: 'the EU Information System',
		skipped: `the ${unit}s with problems`,
		unit,
	};
}

/**
 * The batches of Submit or Amend: the ready items grouped into statements, every statement
 * checked (checkStatements) before any is sent, one batch per statement (paired with all its
 * rows) whose `send` gets the statement and what the first row's item prepared. A statement
 * one of whose rows failed its own pre-flight (`failed`, from the runner) is refused whole
 * (failedRows.ts): never sent without that row.
 */
export async function statementBatches<P extends { row: StatementRow }>(
	ctx: IExecuteFunctions,
	ready: Array<Ready<P>>,
	failed: readonly Failed[],
	o: {
		bodyOf: (group: GroupedStatement, preparedOf: (item: number) => P) => string;
		requireReference: boolean;
		send: (statement: CheckedStatement, first: P) => Promise<BatchOutput[]>;
		/** Told the statements that may be sent, once all are checked and before any is sent. */
		checked?: (statements: readonly CheckedStatement[]) => void;
		/** The DDS when absent. */
		kind?: DeclarationKind;
	},
): Promise<Planned> {
	const byItem = new Map(ready.map((r) => [r.itemIndex, r.value]));
	const preparedOf = (item: number) => byItem.get(item)!;
	const groups = groupStatements(
		ready.map(({ itemIndex, value }) => ({ itemIndex, value: value.row })),
	);
	const held = holdIncomplete(ctx, groups, failed, o.kind ?? DDS_KIND, o.requireReference);
	const checked = await checkStatements(
		ctx,
		held.complete,
		(g) => o.bodyOf(g, preparedOf),
		o.requireReference,
		o.kind,
	);
	o.checked?.(checked.ready);
	const batches: Batch[] = checked.ready.map((s) => ({
		items: s.items,
		send: async () => await o.send(s, preparedOf(s.items[0])),
	}));
	return {
		batches,
		refused: [...held.refused, ...checked.refused],
		words: statementWords(o.kind ?? DDS_KIND),
		notes: held.notes,
	};
}
