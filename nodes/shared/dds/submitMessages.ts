/**
 * The refusals and the "not known" of Submit (submitOnce.ts), in words a supplier with a
 * spreadsheet can act on: the Internal Reference and the items, what was (not) sent, why, and
 * what to do and when. Every one says that nothing was sent.
 */
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { LOOKUP_CAP } from './referenceMatch';
import type { StatementOverview } from './statement';
import { describeStatement } from './statementOutput';
import { REMEMBER_MS } from './submitMemory';

/** What a message needs of the statement at hand. */
export interface Subject {
	noun: string;
	change: string;
	internalReference: string;
	itemsLabel: string;
	itemIndex: number;
}

const Noun = (noun: string) => (noun === 'statement' ? 'Statement' : 'Declaration');

/** A time as people read it: "2026-12-06 15:42 UTC". */
export function utc(ms: number): string {
	return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** "If Already Filed: Fail": the statement(s) standing with the reference; nothing sent. */
export function alreadyFiledError(
	node: INode,
	s: Subject,
	standing: readonly StatementOverview[],
	note = '',
): NodeOperationError {
	return new NodeOperationError(
		node,
		`A ${s.noun} with Internal Reference "${s.internalReference}" (${s.itemsLabel}) is already filed: ${standing.map(describeStatement).join('; ')}`,
		{
			itemIndex: s.itemIndex,
			description: `${note}Nothing was sent. To output the ${s.noun} already filed instead, set the option "If Already Filed" to "Return the Existing ${Noun(s.noun)}"; to change it, use ${s.change} with its UUID; to file a new one, give another Internal Reference.`,
		},
	);
}

/** A standing statement whose reference differs from ours only in letter case. */
export function caseVariantError(
	node: INode,
	s: Subject,
	variants: ReadonlyArray<{ internalReferenceNumber: string | null; describe: string }>,
): NodeOperationError {
	const theirs = variants[0].internalReferenceNumber ?? '';
	return new NodeOperationError(
		node,
		`Not sent: the Internal Reference "${s.internalReference}" (${s.itemsLabel}) differs only in letter case from "${theirs}", a ${s.noun} already filed (${variants.map((v) => v.describe).join('; ')})`,
		{
			itemIndex: s.itemIndex,
			description: `Nothing was sent. The EU Information System's lookup does not tell letter case apart, so "${s.internalReference}" and "${theirs}" may be one Internal Reference there, and filing "${s.internalReference}" could file the same ${s.noun} twice. If it is the same ${s.noun}, write its Internal Reference exactly as filed ("${theirs}") in your sheet: the node then outputs the ${s.noun} filed instead of sending. If it is another ${s.noun}, give it an Internal Reference that differs in more than letter case (for example "${s.internalReference}-2").`,
		},
	);
}

/** A capped answer without the reference: "not filed" cannot be proven. */
export function cappedError(
	node: INode,
	s: Subject,
	listed: readonly StatementOverview[],
): NodeOperationError {
	const examples = listed
		.map((o) => o.internalReferenceNumber)
		.filter((r): r is string => !!r && r !== s.internalReference)
		.slice(0, 3)
		.map((r) => `"${r}"`)
		.join(', ');
	return new NodeOperationError(
		node,
		`Not sent: whether the ${s.noun} "${s.internalReference}" (${s.itemsLabel}) is already filed cannot be checked: the EU Information System lists at most ${LOOKUP_CAP} ${s.noun}s whose Internal Reference contains "${s.internalReference}", and at least that many do${examples ? ` (${examples}, …)` : ''}`,
		{
			itemIndex: s.itemIndex,
			description: `Nothing was sent. The EU's lookup lists every ${s.noun} whose Internal Reference contains the one searched, and only the first ${LOOKUP_CAP}: a ${s.noun} "${s.internalReference}" filed before may be missing from that list, so filing now could file it twice. What to do: give your ${s.noun}s Internal References that no other one contains, for example numbers of a fixed width ("PO-0001" … "PO-0199" instead of "PO-1" … "PO-199"); or check in TRACES (the EU Information System's website) whether "${s.internalReference}" is filed, and file it there if it is not.`,
		},
	);
}

/** When a rerun may look again: REMEMBER_MS after it was sent. */
const retryTime = (sentAt: number) => utc(sentAt + REMEMBER_MS);

/** A rerun while this process remembers the reference as sent and unanswered. */
export function unresolvedError(
	node: INode,
	s: Subject,
	sentAt: number,
	state: 'sending' | 'lost',
): NodeOperationError {
	const when = `at ${utc(sentAt)}`;
	const message =
		state === 'sending'
			? `Not sent: the ${s.noun} "${s.internalReference}" (${s.itemsLabel}) is being sent by another execution of this n8n (since ${utc(sentAt)}); it is not sent twice`
			: `Not sent again: the ${s.noun} "${s.internalReference}" (${s.itemsLabel}) was sent by this n8n ${when}, its answer was lost, and it is not known yet whether it was filed`;
	return new NodeOperationError(node, message, {
		itemIndex: s.itemIndex,
		description: `Nothing was sent. The EU Information System's lookups can lag behind a submission by minutes, so the ${s.noun} not being listed yet does not prove it was not filed. After ${retryTime(sentAt)} (the EU asks to wait 30 minutes after a submission), look for "${s.internalReference}" with Get by Internal Reference (Exact Match Only) or in TRACES: if it is there, nothing more is needed; if not, run the workflow again then (the node looks the reference up before sending).`,
	});
}

/** Why the look-again window did not settle it. */
export type Unsettled = 'notListed' | 'capped' | 'lookupsFailed';

/** After a lost answer and the look-again window: whether it was filed is not known. */
export function notKnownError(
	node: INode,
	s: Subject,
	o: { what: string; sentAt: number; lookups: number; seconds: number; why: Unsettled },
): NodeOperationError {
	const why =
		o.why === 'capped'
			? `the lookup cannot show it: the EU lists at most ${LOOKUP_CAP} ${s.noun}s whose Internal Reference contains "${s.internalReference}", and at least that many do`
			: o.why === 'lookupsFailed'
				? `the lookups that followed failed (${o.lookups} over ${o.seconds} s)`
				: `the EU Information System did not list it in ${o.lookups} lookups over ${o.seconds} s`;
	const check =
		o.why === 'capped'
			? `check in TRACES (the EU Information System's website) whether "${s.internalReference}" is filed`
			: `look for "${s.internalReference}" with Get by Internal Reference (Exact Match Only) or in TRACES`;
	return new NodeOperationError(
		node,
		`It is not known whether the ${s.noun} "${s.internalReference}" (${s.itemsLabel}) was filed: its submission got no answer, and ${why}`,
		{
			itemIndex: s.itemIndex,
			description: `${o.what} Nothing was sent again. The EU's lookups can lag behind a submission by minutes, so not finding it yet does not prove it was not filed. What to do: after ${retryTime(o.sentAt)} (the EU asks to wait 30 minutes after a submission), ${check}. If it is there, nothing more is needed; if not, run the workflow again then. Until then this n8n does not send "${s.internalReference}" again.`,
		},
	);
}

/** The note on a statement output from this process's memory (not listed by the EU yet). */
export function rememberedNote(noun: string, sentAt: number, listed: boolean): string {
	return listed
		? `Filed by this n8n at ${utc(sentAt)}; not sent again.`
		: `Filed by this n8n at ${utc(sentAt)} (the EU Information System answered with this UUID); the EU did not show it yet when asked again (its lookups can lag behind a submission). Not sent again. Ask for the ${noun} with Get (its UUID) after ${retryTime(sentAt)}.`;
}
