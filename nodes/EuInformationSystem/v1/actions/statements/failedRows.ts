/**
 * A statement is filed with all its rows or not at all. With Continue On Fail, a row whose own
 * pre-flight failed (e.g. its geometry cannot be read) is an error item and is not planned; the
 * statement it names would then be filed (or amended, updated) without that plot: a statement
 * with legal value declaring less than the user's sheet. So each failed row's Internal
 * Reference is read again, tolerantly (that field alone, trimmed as the grouping reads it), and
 * every statement it names — compared case-blindly, as the pre-flight's letter-case check
 * compares references — is refused whole before anything is sent: each of its rows an error
 * item saying which row to fix. A failed row whose reference cannot be read could belong to any
 * statement of the run (unknown is never "not this one"): then no statement of the run is sent,
 * and every error item says which row to fix.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { foldCase } from '../../../../shared/dds/referenceMatch';
import { readText } from '../../../../shared/input';
import type { Failed, Planned, Refusal } from '../../../../shared/runner';
import type { GroupedRows } from './groupStatements';
import { itemsLabel } from './groupStatements';

/** The most problem lines of the failed rows quoted in a refusal (the rows' own items list all). */
const QUOTED = 3;

/** A failed row's Internal Reference as the grouping would read it, or why it cannot be read. */
function referenceOf(
	ctx: IExecuteFunctions,
	itemIndex: number,
	requireReference: boolean,
): { reference: string } | { unreadable: string } {
	let raw: unknown;
	try {
		raw = ctx.getNodeParameter('internalReference', itemIndex, '');
	} catch (error) {
		return { unreadable: String((error as Error)?.message ?? error).slice(0, 200) };
	}
	const read = readText(raw);
	if (read.kind === 'value') return { reference: read.value };
	// without a required reference (Amend), rows without one are grouped together (under '')
	if (read.kind === 'missing')
		return requireReference ? { unreadable: 'it is empty' } : { reference: '' };
	return { unreadable: read.reason };
}

function quoted(rows: Array<Failed & { reference: string }>): string {
	const lines = rows.flatMap((r) => r.lines);
	const more = lines.length > QUOTED ? ` … and ${lines.length - QUOTED} more` : '';
	return `${lines.slice(0, QUOTED).join('; ')}${more}`;
}

/**
 * The statements that may be checked and sent (none of their rows failed), the refusals of those
 * a failed row names, and what each failed row's error item says of them.
 */
export function holdIncomplete(
	ctx: IExecuteFunctions,
	groups: GroupedRows[],
	failed: readonly Failed[],
	kind: { service: 'dds' | 'sd'; noun: string },
	requireReference: boolean,
): { complete: GroupedRows[]; refused: Refusal[]; notes: NonNullable<Planned['notes']> } {
	const Noun = kind.noun;
	const noun = Noun.toLowerCase();
	const named = new Map<string, Array<Failed & { reference: string }>>();
	const notes: NonNullable<Planned['notes']> = [];
	const unknown: number[] = [];
	for (const row of failed) {
		const read = referenceOf(ctx, row.itemIndex, requireReference);
		if ('unreadable' in read) {
			unknown.push(row.itemIndex);
			notes.push({
				item: row.itemIndex,
				lines: [
					`Its Internal Reference cannot be read (${read.unreadable.replace(/\.$/, '')}), so it is not known which ${noun} it belongs to: a ${noun} is filed with all its rows or not at all, so no ${noun} of this run was sent. Fix this row and run again.`,
				],
			});
			continue;
		}
		const key = foldCase(read.reference);
		named.set(key, [...(named.get(key) ?? []), { ...row, reference: read.reference }]);
	}
	const complete: GroupedRows[] = [];
	const refused: Refusal[] = [];
	for (const group of groups) {
		const rows = named.get(foldCase(group.internalReference));
		if (!rows && unknown.length > 0) {
			refused.push({
				items: group.items,
				lines: [
					`${Noun} "${group.internalReference}" (${itemsLabel(group.items)}): not sent, because ${itemsLabel(unknown)} of this run ${unknown.length > 1 ? 'have' : 'has'} problems and no readable Internal Reference, so ${unknown.length > 1 ? 'they' : 'it'} may belong to this ${noun}; a ${noun} is filed with all its rows or not at all. Fix ${itemsLabel(unknown)} and run again.`,
				],
			});
			continue;
		}
		if (!rows) {
			complete.push(group);
			continue;
		}
		const bad = rows.map((r) => r.itemIndex);
		const all = itemsLabel([...group.items, ...bad].sort((a, b) => a - b));
		const variants = [...new Set(rows.map((r) => r.reference))].filter(
			(r) => r !== group.internalReference,
		);
		const caseNote =
			variants.length > 0
				? ` (named ${variants.map((v) => `"${v}"`).join(', ')}: the same reference but for letter case, which the EU's lookup does not tell apart)`
				: '';
		refused.push({
			items: group.items,
			lines: [
				`${Noun} "${group.internalReference}" (${all}): ${itemsLabel(bad)} of it${caseNote} ${bad.length > 1 ? 'have' : 'has'} problems (${quoted(rows)}); a ${noun} is filed with all its rows or not at all, so nothing was sent for it. Fix ${itemsLabel(bad)} and run again.`,
			],
		});
		for (const r of rows)
			notes.push({
				item: r.itemIndex,
				lines: [
					`${Noun} "${group.internalReference}" (${all}) was not sent either: a ${noun} is filed with all its rows or not at all. Fix this item and run again.`,
				],
			});
	}
	return { complete, refused, notes };
}
