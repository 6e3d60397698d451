/**
 * Warnings bounded: a file's warnings are kept once each (a repeat is counted into the one
 * already kept), at most `MAX_FILE_WARNINGS` distinct ones, then one line saying how many
 * more were met; a feature's own warnings at most `MAX_FEATURE_WARNINGS`. So the warnings
 * of a file never grow with its features or its skipped members (a GeoJSON of 200,000
 * members that are not features gives one counted warning, not 200,000). Pure.
 */

/** Distinct file-level warnings kept for one file. */
export const MAX_FILE_WARNINGS = 100;
/** Distinct warnings kept on one feature. */
export const MAX_FEATURE_WARNINGS = 20;

const count = (n: number) => n.toLocaleString('en-US');

/** The file-level warnings of one read: deduplicated, counted, capped. */
export class FileWarnings {
	private readonly kept = new Map<string, number>();
	private more = 0;

	add(text: string): void {
		const seen = this.kept.get(text);
		if (seen !== undefined) this.kept.set(text, seen + 1);
		else if (this.kept.size < MAX_FILE_WARNINGS) this.kept.set(text, 1);
		else this.more++;
	}

	addAll(texts: Iterable<string>): void {
		for (const text of texts) this.add(text);
	}

	/** The warnings, each once (a repeated one says how often it was met). */
	list(): string[] {
		const out = [...this.kept].map(([text, n]) => (n > 1 ? `${text} (×${count(n)})` : text));
		if (this.more > 0)
			out.push(
				`…and ${count(this.more)} more warning(s) not listed (the first ${MAX_FILE_WARNINGS} distinct ones are)`,
			);
		return out;
	}
}

/** A feature's own warnings, each once, at most `MAX_FEATURE_WARNINGS`. */
export function featureWarnings(texts: string[]): string[] {
	if (texts.length <= 1) return texts.slice();
	const distinct = [...new Set(texts)];
	if (distinct.length <= MAX_FEATURE_WARNINGS) return distinct;
	return [
		...distinct.slice(0, MAX_FEATURE_WARNINGS),
		`…and ${count(distinct.length - MAX_FEATURE_WARNINGS)} more warning(s) on this feature not listed`,
	];
}

/**
 * Skips of one kind counted into one warning: the first said in full, the others counted
 * ("200,000 members were skipped …; the first: …").
 */
export class CountedSkips {
	private first: string | undefined;
	private n = 0;

	constructor(private readonly what: string) {}

	add(text: string): void {
		this.n++;
		this.first ??= text;
	}

	/** Nothing, the one skip as it was said, or the count with the first. */
	warning(): string | undefined {
		if (this.n === 0 || this.first === undefined) return undefined;
		if (this.n === 1) return this.first;
		return `${count(this.n)} ${this.what}; the first: ${this.first}`;
	}
}
