/**
 * The one shape every input reader returns, and the one way a reader's reason becomes a
 * problem line naming the item and the field. Pure: no n8n imports.
 */

/**
 * What a reader made of one value: nothing there, something unusable (with a reason that
 * is a full sentence saying what to fix), or the value to send.
 */
export type Reading<T> =
	| { kind: 'missing' }
	| { kind: 'invalid'; reason: string }
	| { kind: 'value'; value: T };

/** `Item 3, field "Plot IDs": <reason>` */
export function fieldProblem(itemIndex: number, field: string, reason: string): string {
	return `Item ${itemIndex}, field "${field}": ${reason}`;
}
