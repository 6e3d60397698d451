/**
 * The lookups of one Submit run: fewer calls than one lookup per statement. The EU's lookup by
 * internal reference matches substrings (3 to 50 characters), so one search of the prefix the
 * run's references share ("PO-2026-05" for PO-2026-05001 … PO-2026-05100) lists every
 * statement filed with any of them — when its answer is complete (fewer than LOOKUP_CAP
 * entries, referenceMatch.ts), it proves "not filed" for all of them at once.
 *
 * A capped answer still proves what it shows (a statement standing with the reference, or a
 * case variant of it); for the others the references are split by the next character after
 * the prefix (the longer prefixes under it), and after MAX_CAPPED_PREFIXES capped prefixes on
 * one reference's way, it is looked up alone (then a capped answer is the refusal of
 * submitOnce.ts). An answer is used for LOOKUP_FRESH_MS after it came; a run that files for
 * longer looks the rest up again. The first statement's lookup is made when it is its turn;
 * statements filed side by side ask one after the other, so that one search serves them all.
 */
import type { ReferenceLookup, Verdict } from './referenceMatch';
import { decisive, foldCase, isComplete, searchFor, verdictOf } from './referenceMatch';

/** How long one answer may answer for the run's later statements. */
export const LOOKUP_FRESH_MS = 60_000;
/** Capped prefixes passed on one reference's way before it is looked up alone. */
export const MAX_CAPPED_PREFIXES = 2;
/** Searches made for one reference at most (a bound on the loop; never reached in practice). */
const MAX_SEARCHES_PER_REFERENCE = MAX_CAPPED_PREFIXES + 3;

export type Search<C> = (ctx: C, search: string, itemIndex: number) => Promise<ReferenceLookup>;

interface Answer {
	search: string;
	at: number;
	lookup: ReferenceLookup;
	/** The case-folded references the search was made for. */
	covers: Set<string>;
}

export class RunLookups {
	private pending: string[];
	private answers: Answer[] = [];
	private readonly capped = new Set<string>();
	/** Searches sent (for the bench and tests). */
	searches = 0;

	constructor(
		references: readonly string[],
		private readonly now: () => number,
	) {
		this.pending = [...references];
	}

	/** One verdict at a time: statements filed side by side wait for the search that covers them. */
	private queue: Promise<unknown> = Promise.resolve();

	/** What the EU shows for `reference`: a fresh answer that decides, else new searches. */
	async verdict<C>(
		ctx: C,
		search: Search<C>,
		reference: string,
		itemIndex: number,
	): Promise<Verdict> {
		const turn = this.queue.then(async () => await this.decide(ctx, search, reference, itemIndex));
		this.queue = turn.catch(() => undefined);
		return await turn;
	}

	private async decide<C>(
		ctx: C,
		search: Search<C>,
		reference: string,
		itemIndex: number,
	): Promise<Verdict> {
		const folded = foldCase(reference);
		for (let n = 0; ; n++) {
			const now = this.now();
			this.answers = this.answers.filter((a) => now - a.at <= LOOKUP_FRESH_MS);
			for (const a of this.answers) {
				if (!a.covers.has(folded)) continue;
				const v = verdictOf(a.lookup, reference);
				// an answer to the reference itself is final, even capped
				if (decisive(v) || foldCase(a.search) === folded || n >= MAX_SEARCHES_PER_REFERENCE)
					return this.done(reference, v);
			}
			const next = searchFor(reference, this.pending, this.capped, MAX_CAPPED_PREFIXES);
			const lookup = await search(ctx, next.search, itemIndex);
			this.searches++;
			this.answers.push({
				search: next.search,
				at: this.now(),
				lookup,
				covers: new Set(next.covers.map(foldCase)),
			});
			if (!isComplete(lookup)) this.capped.add(foldCase(next.search));
		}
	}

	private done(reference: string, verdict: Verdict): Verdict {
		this.pending = this.pending.filter((r) => r !== reference);
		return verdict;
	}
}
