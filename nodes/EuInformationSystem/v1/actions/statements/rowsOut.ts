/**
 * Output "Input Rows with Statement Fields" (issue 34): instead of one item per statement, one
 * item per INPUT ROW, in input order and paired with it, carrying the fields of the statement
 * it was filed for (Submit, Amend, Update) or that it names (Get) FIRST — so that they are the
 * first columns of n8n's Table view — then the row's own fields unchanged (its binary data too).
 *
 * It is made from what the operation output in its own mode (one item per statement, paired
 * with the statement's rows; or an error item per failed row with Continue On Fail): the
 * requests are the same and as many in both modes. A failed row keeps its own fields and its
 * statement fields as it had them (null when none), and gets its error in the statement's
 * `error` field: never in `error` / `description`, which a sheet may have as columns of its own
 * (a product's description), and never as n8n's item error (n8n replaces the json of such an
 * item by `{ error }`: the row would be lost). So with "Continue (using error output)" a failed
 * row stays on the main output.
 *
 * The fields, in this order (the SD's with `sd_`): status, reference_number,
 * verification_number, uuid, internal_reference, filed_by, updated_at, environment, and note:
 * why a field is null or what the EU said beside it (not yet AVAILABLE, rejected and why, the
 * authority's communication), null when there is nothing to say; error: why the row failed
 * (Continue On Fail), null when it did not.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { IdField } from '../../../../shared/descriptions/takeId';
import { numbersNoteOf } from '../../../../shared/dds/statementOutput';
import type { Problems } from '../../../../shared/runner';
import { euCredential } from '../../../../shared/transport/euCredential';

/** The Output parameter's values: today's output (the default) and rows. */
export type OutputMode = 'statement' | 'inputRows';

export const OUTPUT_MODE = 'outputMode';

/** The prefix of a statement's fields on a row: the DDS's `dds_`, the SD's `sd_`. */
export type RowPrefix = 'dds' | 'sd';

/** The fields a statement puts on a row, in their order (after the prefix and `_`). */
export const ROW_FIELDS = [
	'status',
	'reference_number',
	'verification_number',
	'uuid',
	'internal_reference',
	'filed_by',
	'updated_at',
	'environment',
	'note',
	'error',
] as const;

type RowField = (typeof ROW_FIELDS)[number];

/** The Output parameter of an operation that can put a statement's fields on its rows. */
export function outputModeField(prefix: RowPrefix, rows: string): INodeProperties {
	const noun = prefix === 'sd' ? 'declaration' : 'statement';
	return {
		displayName: 'Output',
		name: OUTPUT_MODE,
		type: 'options',
		// one shape for the whole output: chosen, never computed per item
		noDataExpression: true,
		options: [
			{
				name: 'One Item per Statement',
				value: 'statement',
				description: `One item per ${noun}, paired with ${rows}`,
			},
			{
				name: 'Input Rows with Statement Fields',
				value: 'inputRows',
				description: `Each input row, in order, with its ${noun}'s ${prefix}_status, ${prefix}_reference_number, ${prefix}_verification_number, ${prefix}_uuid and more first, then the row's own fields`,
			},
		],
		default: 'statement',
		description: `Whether to output one item per ${noun}, or every input row with its ${noun}'s fields added in front (for writing the numbers back to a sheet without code)`,
	};
}

/** The Output parameter's value, or undefined when it is neither value. */
export function readOutputMode(value: unknown): OutputMode | undefined {
	if (value === undefined || value === null || value === '' || value === 'statement')
		return 'statement';
	return value === 'inputRows' ? 'inputRows' : undefined;
}

/** What the rows' fields need besides the statements: the credential's environment. */
export interface RowsContext {
	prefix: RowPrefix;
	/** The credential's Environment (acceptance, production, custom), or null when unreadable. */
	environment: string | null;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

const key = (prefix: RowPrefix, field: RowField) => `${prefix}_${field}`;

/** An error item of the runner (`{ error, description? }`), as opposed to a statement. */
export function isErrorItem(json: IDataObject): boolean {
	const keys = Object.keys(json);
	return keys.includes('error') && keys.every((k) => k === 'error' || k === 'description');
}

/**
 * What the EU said beside the fields, or why the numbers are null: the node's own notes (the
 * output's numbersNote and note), else why there are no numbers yet, the rejection reason and
 * the authority's communication.
 */
function noteOf(s: IDataObject): string | null {
	const status = text(s.status) ?? '';
	const notes: string[] = [];
	const numbers =
		text(s.numbersNote) ??
		numbersNoteOf({ referenceNumber: text(s.referenceNumber), status } as Parameters<
			typeof numbersNoteOf
		>[0]);
	if (numbers !== undefined && numbers !== null) notes.push(numbers);
	if (text(s.note) !== null) notes.push(String(s.note));
	const reason = text(s.rejectionReason);
	if (reason !== null) notes.push(`Rejection reason: ${reason}`);
	const communication =
		text(s.communication) ?? text((s.communicationToOperator as IDataObject | null)?.content);
	if (communication !== null) notes.push(`The authority's communication: ${communication}`);
	return notes.length > 0 ? notes.join(' ') : null;
}

/**
 * The fields a statement output (simplified or as read: the same names) puts on a row.
 * `row`: the row's own json, whose filed_by is kept when it names the same statement (Get
 * after Submit: Get does not know who filed it).
 */
export function statementFieldsOf(
	statement: IDataObject,
	row: IDataObject,
	context: RowsContext,
): IDataObject {
	const { prefix } = context;
	const uuid = text(statement.uuid);
	const rowUuid = text(row[key(prefix, 'uuid')]);
	const sameStatement =
		uuid !== null && rowUuid !== null && rowUuid.toLowerCase() === uuid.toLowerCase();
	const filedBy =
		text(statement.filedBy) ?? (sameStatement ? text(row[key(prefix, 'filed_by')]) : null);
	const values: Record<RowField, unknown> = {
		status: text(statement.status),
		reference_number: text(statement.referenceNumber),
		verification_number: text(statement.verificationNumber),
		uuid,
		internal_reference: text(statement.internalReferenceNumber),
		filed_by: filedBy,
		updated_at: text(statement.date),
		environment: context.environment,
		note: noteOf(statement),
		error: null,
	};
	return fieldsOf(prefix, values);
}

function fieldsOf(prefix: RowPrefix, values: Partial<Record<RowField, unknown>>): IDataObject {
	const out: IDataObject = {};
	for (const field of ROW_FIELDS) out[key(prefix, field)] = (values[field] ?? null) as never;
	return out;
}

/** A row's own fields without the statement fields it carried (they are put first, anew). */
function ownFields(row: IDataObject, prefix: RowPrefix): IDataObject {
	const drop = new Set(ROW_FIELDS.map((f) => key(prefix, f)));
	const out: IDataObject = {};
	for (const [k, v] of Object.entries(row)) if (!drop.has(k)) out[k] = v;
	return out;
}

/** An error item's message and description as one text. */
export function errorText(error: IDataObject): string {
	const message = String(error.error ?? '').trim();
	const description = text(error.description);
	if (description === null) return message;
	return `${/[.!?]$/.test(message) ? message : `${message}.`} ${description}`;
}

/**
 * A failed row's statement fields: those it carried (e.g. Submit's, when Get fails for it: its
 * UUID is not lost, so the next Get can ask again), null when it carried none; its error.
 */
function failedFields(row: IDataObject, error: IDataObject, prefix: RowPrefix): IDataObject {
	const had = Object.fromEntries(ROW_FIELDS.map((f) => [f, row[key(prefix, f)]]));
	return fieldsOf(prefix, { ...had, error: errorText(error) });
}

const pairedOf = (item: INodeExecutionData): number[] => {
	const p = item.pairedItem;
	if (typeof p === 'number') return [p];
	if (Array.isArray(p)) return p.map((x) => x.item);
	return p ? [p.item] : [];
};

/** The fields of a row that got several statements (or none): null but for why. */
function ambiguous(statements: IDataObject[], context: RowsContext): IDataObject {
	const noun = context.prefix === 'sd' ? 'declaration' : 'statement';
	const listed = statements
		.map(
			(s) =>
				`UUID ${text(s.uuid) ?? '(none)'} (status ${text(s.status) ?? 'unknown'}, reference number ${text(s.referenceNumber) ?? 'none yet'})`,
		)
		.join('; ');
	const note =
		statements.length === 0
			? `The node output no ${noun} for this row.`
			: `${statements.length} ${noun}s are output for this row: ${listed}. Which one the row belongs to is not known: use Output "One Item per Statement", or Get each by its UUID.`;
	return fieldsOf(context.prefix, { note });
}

/**
 * The operation's output (per statement, paired) as one item per input row, in input order:
 * the statement's fields first, then the row's own; a failed row with its error among them.
 */
export function rowsOut(
	input: INodeExecutionData[],
	output: INodeExecutionData[],
	context: RowsContext,
): INodeExecutionData[] {
	const statements = input.map((): IDataObject[] => []);
	const errors = new Map<number, IDataObject>();
	for (const item of output)
		for (const i of pairedOf(item)) {
			if (i < 0 || i >= input.length) continue;
			if (isErrorItem(item.json)) {
				if (!errors.has(i)) errors.set(i, item.json);
			} else statements[i].push(item.json);
		}
	return input.map((item, i) => {
		const row = item.json ?? {};
		const own = ownFields(row, context.prefix);
		const error = errors.get(i);
		let json: IDataObject;
		if (error !== undefined) json = { ...failedFields(row, error, context.prefix), ...own };
		else {
			const found = statements[i];
			const fields =
				found.length === 1 ? statementFieldsOf(found[0], row, context) : ambiguous(found, context);
			json = { ...fields, ...own };
		}
		const out: INodeExecutionData = { json, pairedItem: { item: i } };
		if (item.binary) out.binary = item.binary;
		return out;
	});
}

/** The node's Output (read once, for item 0: one shape for the whole output), checked. */
export function outputModeOf(ctx: IExecuteFunctions): OutputMode {
	const value = ctx.getNodeParameter(OUTPUT_MODE, 0, 'statement');
	const mode = readOutputMode(value);
	if (mode !== undefined) return mode;
	throw new NodeOperationError(
		ctx.getNode(),
		`The Output "${String(value)}" is not one of the choices`,
		{
			description:
				'Choose "One Item per Statement" or "Input Rows with Statement Fields" in the Output field.',
		},
	);
}

/**
 * With Output "Input Rows with Statement Fields" each row names one statement (Get): a row
 * naming several is a problem of the UUIDs field, before any request. Returns what the item's
 * `prepare` read.
 */
export function oneStatementPerRow<P extends { wanted: unknown[] }>(
	mode: OutputMode,
	problems: Problems,
	field: IdField,
	prepared: P,
): P {
	const count = prepared.wanted.length;
	if (mode !== 'inputRows' || count <= 1) return prepared;
	const prefix = field.noun === 'declaration' ? 'sd' : 'dds';
	problems.field(
		field.label,
		`the row names ${count} ${field.noun}s; with Output "Input Rows with Statement Fields" each row names one ${field.noun} (its fields go on the row). Map one UUID per row, e.g. {{ $json.${prefix}_uuid }}, or choose Output "One Item per Statement".`,
	);
	return prepared;
}

/**
 * The operation's output in the chosen Output: as it is, or one item per input row (rowsOut)
 * with the credential's environment (null when the credential cannot be read: no request was
 * made then).
 */
export async function outputAs(
	ctx: IExecuteFunctions,
	mode: OutputMode,
	prefix: RowPrefix,
	input: INodeExecutionData[],
	output: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	if (mode === 'statement') return output;
	let environment: string | null = null;
	try {
		environment = (await euCredential.call(ctx)).environment;
	} catch {
		environment = null;
	}
	return rowsOut(input, output, { prefix, environment });
}
