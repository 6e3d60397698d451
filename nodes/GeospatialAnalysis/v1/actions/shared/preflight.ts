/**
 * Pre-flight problems (found before any request) as n8n errors: without Continue On
 * Fail, one NodeOperationError for the whole run listing every problem of every item;
 * with it, one error item per bad item.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** Problem lines of one item, e.g. `Item 3, feature 0: the ring is not closed ...`. */
export type ItemProblems = Map<number, string[]>;

const MAX_LISTED = 50;

function summary(lines: string[]): string {
	return lines.length === 1 ? lines[0] : `${lines.length} problems: ${lines.join(' | ')}`;
}

/** The error that stops the node when any item is invalid; nothing has been sent. */
export function preflightError(
	ctx: IExecuteFunctions,
	problems: ItemProblems,
	nothingSent = 'Nothing was sent to the service.',
): NodeOperationError {
	const all = [...problems.entries()].sort(([a], [b]) => a - b);
	const lines = all.flatMap(([, l]) => l);
	const [firstItem] = all[0];
	const itemCount = all.length;
	const message =
		lines.length === 1
			? lines[0]
			: `${lines[0]} (and ${lines.length - 1} more problem${lines.length > 2 ? 's' : ''} in ${itemCount} item${itemCount > 1 ? 's' : ''})`;
	const listed = lines.slice(0, MAX_LISTED).join('\n');
	const more = lines.length > MAX_LISTED ? `\n… and ${lines.length - MAX_LISTED} more.` : '';
	return new NodeOperationError(ctx.getNode(), message, {
		itemIndex: firstItem,
		description: `${nothingSent} Fix these inputs (or turn on "Continue On Fail" to skip the bad items) and run again:\n${listed}${more}`,
	});
}

/** The error item of one bad item under Continue On Fail. */
export function problemItem(
	itemIndex: number,
	lines: string[],
	nothingSent = 'Nothing was sent for this item.',
): INodeExecutionData {
	return {
		json: {
			error: summary(lines),
			problems: lines,
			description: `${nothingSent} Fix the input and run again.`,
		},
		pairedItem: { item: itemIndex },
	};
}
