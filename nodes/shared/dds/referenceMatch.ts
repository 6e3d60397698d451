/**
 * What a lookup by Internal Reference proves (pure: no n8n imports). The EU's
 * getDdsByInternalReference / getSdByInternalReference match SUBSTRINGS, CASE-INSENSITIVELY,
 * with a search of 3 to 50 characters, and list at most LOOKUP_CAP statements (pack README §6).
 * So an answer proves "not filed" only when it is complete (fewer entries than the cap), and a
 * statement whose reference differs from ours only in letter case may be the same reference to
 * the EU (whether it treats them as one is not stated): a duplicate with legal value is the
 * harm either way, so such a match is refused, never filed beside.
 */
import type { StatementOverview } from './statement';
import { INACTIVE_STATUSES } from './statementOutput';

/**
 * The most statements a lookup by internal reference lists: the 8.2.1 XSDs cap the response
 * lists (ddsOverviewList / sdOverviewList) at 100 entries [X-DDS], [X-SD]. The EU's text says
 * "up to 1000 statements per call" [OPREF §2.3.1], [CF3 §2]: a CONFLICT (pack README §6). The
 * node takes the smaller one: an answer of 100 entries or more is treated as possibly cut off,
 * so it never proves "not filed" (if the EU really lists up to 1000, the node only refuses or
 * looks more narrowly where it could have trusted the answer; never the other way round).
 */
export const LOOKUP_CAP = 100;
/** The EU's shortest and longest search string for a lookup by internal reference (pack §6). */
export const MIN_SEARCH_CHARS = 3;
export const MAX_SEARCH_CHARS = 50;

/**
 * The reference as the EU's case-blind search may see it: upper-cased, then lower-cased (the
 * Unicode default case mappings both ways, so "ß"/"SS" and "ſ"/"s" fold alike too).
 */
export function foldCase(reference: string): string {
	return reference.toUpperCase().toLowerCase();
}

/** A lookup's answer: the statements listed, and how many entries the EU listed. */
export interface ReferenceLookup {
	overviews: StatementOverview[];
	/** Entries in the answer (counted as sent, before any reading). */
	listed: number;
}

/** Whether an answer is complete: fewer entries than the cap. */
export function isComplete(lookup: ReferenceLookup): boolean {
	return lookup.listed < LOOKUP_CAP && lookup.overviews.length < LOOKUP_CAP;
}

/** What a lookup proves about one internal reference. */
export type Verdict =
	/** Filed with exactly this reference and still standing (neither rejected nor withdrawn). */
	| { kind: 'standing'; statements: StatementOverview[] }
	/** Standing with a reference that differs from ours only in letter case. */
	| { kind: 'caseVariant'; statements: StatementOverview[]; complete: boolean }
	/** The answer was capped and shows no standing statement with this reference (`listed`: what it showed). */
	| { kind: 'capped'; listed: StatementOverview[] }
	/** The answer is complete and shows no standing statement with this reference in any case. */
	| { kind: 'notFiled' };

const standing = (o: StatementOverview) => !INACTIVE_STATUSES.includes(o.status);

/** What `lookup` (a search containing `reference`) proves about `reference`. */
export function verdictOf(lookup: ReferenceLookup, reference: string): Verdict {
	const folded = foldCase(reference);
	const same = lookup.overviews.filter(
		(o) => o.internalReferenceNumber !== null && foldCase(o.internalReferenceNumber) === folded,
	);
	const exact = same.filter((o) => o.internalReferenceNumber === reference && standing(o));
	if (exact.length > 0) return { kind: 'standing', statements: exact };
	const variants = same.filter(standing);
	if (variants.length > 0)
		return { kind: 'caseVariant', statements: variants, complete: isComplete(lookup) };
	return isComplete(lookup) ? { kind: 'notFiled' } : { kind: 'capped', listed: lookup.overviews };
}

/** Whether the verdict settles the reference (only "not filed" needs a complete answer). */
export function decisive(verdict: Verdict): boolean {
	return verdict.kind !== 'capped';
}

/**
 * The references (each with its items) that differ from another of the same run only in
 * letter case: the EU's lookup cannot tell them apart, so they cannot each be filed exactly
 * once. Returns the groups of such references (2 or more distinct spellings each).
 */
export function caseCollisions<T extends { internalReference: string }>(
	groups: readonly T[],
): T[][] {
	const byFold = new Map<string, T[]>();
	for (const g of groups) {
		const key = foldCase(g.internalReference);
		byFold.set(key, [...(byFold.get(key) ?? []), g]);
	}
	return [...byFold.values()].filter(
		(list) => new Set(list.map((g) => g.internalReference)).size > 1,
	);
}

/** The longest prefix the references share, compared case-blindly, as written in the first. */
export function commonPrefix(references: readonly string[]): string {
	if (references.length === 0) return '';
	const first = references[0];
	let n = Math.min(first.length, MAX_SEARCH_CHARS);
	for (const r of references.slice(1)) {
		let i = 0;
		while (i < n && i < r.length && foldCase(first[i]) === foldCase(r[i])) i++;
		n = i;
	}
	// never cut between the two halves of a surrogate pair
	if (n > 0 && /[\uD800-\uDBFF]/.test(first[n - 1])) n--;
	return first.slice(0, n);
}

/** A search string the EU can take: trimmed (its search may trim), 3 to 50 characters. */
export function usableSearch(prefix: string): string | undefined {
	const s = prefix.trim();
	if (s.length < MIN_SEARCH_CHARS || s.length > MAX_SEARCH_CHARS) return undefined;
	// the search is a substring: a prefix trimmed at its start still contains what it matched
	return s;
}

/**
 * The search that answers for `reference` among the `pending` references of a run (pure):
 * the longest prefix it shares with the others, when usable and not known to be capped;
 * otherwise the references are split by the next character after the capped or too short
 * prefix (the trie below it), down to `reference` alone. `cappedOnPath` counts the capped
 * prefixes passed: after `maxCapped` of them, the reference is looked up alone.
 */
export function searchFor(
	reference: string,
	pending: readonly string[],
	capped: ReadonlySet<string>,
	maxCapped: number,
): { search: string; covers: string[] } {
	let group = pending.includes(reference) ? [...pending] : [reference, ...pending];
	let passed = 0;
	for (;;) {
		if (group.length <= 1) return { search: reference, covers: [reference] };
		const prefix = commonPrefix(group);
		const search = usableSearch(prefix);
		if (search !== undefined && !capped.has(foldCase(search))) return { search, covers: group };
		if (search !== undefined) passed++;
		if (passed >= maxCapped) return { search: reference, covers: [reference] };
		const next = foldCase(reference.slice(0, prefix.length + 1));
		const narrower = group.filter((r) => foldCase(r.slice(0, prefix.length + 1)) === next);
		// nothing narrower to split by (the reference is the prefix, or a cut surrogate pair)
		if (narrower.length === group.length) return { search: reference, covers: [reference] };
		group = narrower;
	}
}
