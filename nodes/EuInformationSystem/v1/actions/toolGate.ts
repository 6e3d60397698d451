/**
 * The EU Information System node as an AI Agent tool (issue 30): reads and Verify work as tools
 * as they are; the operations that file, change or withdraw a statement (which has legal value)
 * need "Allow Filing Statements", a setting shown only in the tool variant, off by default.
 *
 * - While it is off, the tool's Operation offers no write operation (a tool saved with one
 *   lists that one only, by name, with why it may not run: savedWrites): each resource with write
 *   operations has three Operation selectors (n8n's pattern for one parameter shown in different
 *   forms): the node's own (not a tool; listed first, so the nodes panel and n8n's naming read
 *   its actions), the tool's with every operation (setting on), and the tool's with the reads
 *   only (setting not on). The tool's two default to the first read, so turning the setting on
 *   never turns a read into a write by itself.
 * - The router refuses a write before any request when the node runs as a tool without the
 *   setting saved on (a tool node saved with a write operation, then the setting turned off,
 *   or the setting an expression or the model's): a pre-flight problem of the setting for every
 *   item, through the runner. The setting is a literal only, read as saved (filingSwitch.ts),
 *   and such a tool shows why in the panel and on the canvas before it runs.
 * - Each operation has a Tool Description shown in the tool variant only (n8n then adds none of
 *   its own and sends this one to the model); those of the write operations say that they file
 *   statements with legal value.
 *
 * A new resource's write operations are gated by listing them in WRITE_OPERATIONS.
 */
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
	IDisplayOptions,
} from 'n8n-workflow';

import {
	ALLOW_FILING,
	ALLOW_FILING_LABEL,
	filingRefusal,
	filingSwitchOf,
	filingWarnings,
} from './filingSwitch';
import { runItems } from '../../../shared/runner';

export { ALLOW_FILING, ALLOW_FILING_LABEL };

/** The operations that file, change or withdraw a statement, per resource. */
export const WRITE_OPERATIONS: Readonly<Record<string, readonly string[]>> = {
	dueDiligenceStatement: ['submit', 'amend', 'withdraw'],
	simplifiedDeclaration: ['submit', 'update', 'withdraw'],
};

export function isWriteOperation(resource: string, operation: string): boolean {
	return (
		Object.hasOwn(WRITE_OPERATIONS, resource) && WRITE_OPERATIONS[resource].includes(operation)
	);
}

/** What a write operation's tool description says of it (and the setting's description). */
export const LEGAL_VALUE =
	'it files a statement with LEGAL VALUE in the EU Information System (EUDR), which cannot be taken back by asking again';

export const allowFilingProperty: INodeProperties = {
	displayName: ALLOW_FILING_LABEL,
	name: ALLOW_FILING,
	type: 'boolean',
	default: false,
	// A literal only: no expression, no "let the model define this" button (filingSwitch.ts).
	noDataExpression: true,
	displayOptions: { show: { '@tool': [true] } },
	description: `Whether the AI Agent may submit, amend or withdraw statements with this tool: ${LEGAL_VALUE}. Off: the tool offers only the operations that read (and Verify). A plain switch that only you set: never an expression, never the model's choice.`,
};

/** What the model is told of each read (the others are derived from the action). */
const TOOL_WORDS: Record<string, Record<string, string>> = {
	declaration: {
		verify:
			"Verify a supplier's reference number and verification number (of a due diligence statement or a simplified declaration) in the EU Information System. Returns result (EXISTING_USABLE, EXISTING_NON_USABLE or NON_EXISTENT), usable (true/false), status and a message. Reads only, changes nothing.",
	},
	dueDiligenceStatement: {
		get: 'Get the status, reference and verification numbers of due diligence statements by their UUIDs in the EU Information System. Reads only, changes nothing.',
		getByInternalReference:
			'Find the due diligence statements whose internal reference contains a text (3 to 50 characters) in the EU Information System. Reads only, changes nothing.',
		getContent:
			'Get the full content of a due diligence statement by its reference and verification numbers in the EU Information System. Reads only, changes nothing.',
	},
};

/** The Tool Description of one operation: ours, or its action with what it is. */
export function toolWords(resource: string, option: INodePropertyOptions): string {
	const operation = String(option.value);
	const own = TOOL_WORDS[resource]?.[operation];
	if (own) return own;
	const action = option.action ?? option.name;
	if (isWriteOperation(resource, operation))
		return `${action} in the EU Information System: ${LEGAL_VALUE}. Call it only when the user explicitly asked for exactly this, with the contents confirmed.`;
	return `${action} in the EU Information System. Reads only, changes nothing.`;
}

const showOf = (p: INodeProperties): NonNullable<IDisplayOptions['show']> =>
	p.displayOptions?.show ?? {};

function isOperationSelector(p: INodeProperties): boolean {
	return p.name === 'operation' && p.type === 'options' && showOf(p).resource !== undefined;
}

function toolDescriptionField(resource: string, option: INodePropertyOptions): INodeProperties {
	return {
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 3 },
		required: true,
		default: toolWords(resource, option),
		description:
			'What the AI model is told this tool does. The default says it for this operation (and, for an operation that files, that it has legal value).',
		displayOptions: { show: { '@tool': [true], resource: [resource], operation: [option.value] } },
	};
}

/** One resource's Operation selector in its three forms (see the header), or as it is. */
function gatedSelectors(p: INodeProperties, resource: string): INodeProperties[] {
	const writes = WRITE_OPERATIONS[resource] ?? [];
	const options = (p.options ?? []) as INodePropertyOptions[];
	if (!options.some((o) => writes.includes(String(o.value)))) return [p];
	const reads = options.filter((o) => !writes.includes(String(o.value)));
	const show = showOf(p);
	const firstRead = reads[0]?.value ?? p.default;
	return [
		{ ...p, displayOptions: { ...p.displayOptions, show: { ...show, '@tool': [false] } } },
		{
			...p,
			default: firstRead,
			displayOptions: { show: { ...show, '@tool': [true], [ALLOW_FILING]: [true] } },
		},
		{
			...p,
			default: firstRead,
			options: [...reads, ...savedWrites(options, writes)],
			// whenever the setting is not on (an expression included: n8n 2.x hands the node
			// "={{ true }}" as "{{ true }}", and the saved operation must stay for the refusal)
			displayOptions: { show: { ...show, '@tool': [true] }, hide: { [ALLOW_FILING]: [true] } },
		},
	];
}

/**
 * The write operations in the list of a tool whose setting is not on, each shown only when it
 * is the operation saved (the editor lists an option only where its own displayOptions hold:
 * n8n 1.x and 2.x): a tool saved with Submit, the setting then turned off, reads "Submit" with
 * the reason, not the raw value "submit" outlined in red; a new tool, or one on a read, is
 * offered the reads only.
 */
function savedWrites(
	options: INodePropertyOptions[],
	writes: readonly string[],
): INodePropertyOptions[] {
	return options
		.filter((o) => writes.includes(String(o.value)))
		.map((o) => ({
			...o,
			description: `Not allowed while "${ALLOW_FILING_LABEL}" is off: this tool may not ${String(o.value)} statements (see the notice below). Switch "${ALLOW_FILING_LABEL}" on, or choose an operation that reads.`,
			displayOptions: { show: { operation: [o.value] } },
		}));
}

/**
 * The node's properties with the gate: the setting after Resource, each Operation selector in
 * its forms followed by its operations' Tool Descriptions.
 */
export function withToolGate(properties: INodeProperties[]): INodeProperties[] {
	const out: INodeProperties[] = [];
	for (const p of properties) {
		if (!isOperationSelector(p)) {
			out.push(p);
			if (p.name === 'resource') out.push(allowFilingProperty);
			continue;
		}
		const resource = String(showOf(p).resource?.[0]);
		out.push(...gatedSelectors(p, resource));
		for (const operation of WRITE_OPERATIONS[resource] ?? [])
			out.push(...filingWarnings(resource, operation));
		for (const option of (p.options ?? []) as INodePropertyOptions[])
			out.push(toolDescriptionField(resource, option));
	}
	return out;
}

/** Whether the node runs as an AI Agent tool (n8n's tool variant: its type ends with "Tool"). */
export function runsAsTool(ctx: Pick<IExecuteFunctions, 'getNode'>): boolean {
	return ctx.getNode().type.endsWith('Tool');
}

/**
 * Why a tool may not run this operation (a write, as a tool, without "Allow Filing
 * Statements" saved on: e.g. a tool node saved with Submit, then the setting turned off, or
 * the setting an expression or `$fromAI`), or undefined. It reads the saved parameter, never
 * the resolved one (which would be the model's answer for `$fromAI`).
 */
export function ungatedWriteReason(
	ctx: Pick<IExecuteFunctions, 'getNode'>,
	resource: string,
	operation: string,
): string | undefined {
	if (!isWriteOperation(resource, operation) || !runsAsTool(ctx)) return undefined;
	const state = filingSwitchOf(ctx.getNode().parameters[ALLOW_FILING]);
	return state === 'on' ? undefined : filingRefusal(state, operation);
}

/**
 * The refusal of an ungated write, before any request: every item gets the setting's problem
 * through the runner's pre-flight (one error naming it, or error items with Continue On Fail,
 * which an AI Agent then reads as the tool's answer), never with a hint to supply a tool input:
 * the model cannot and may not switch it on.
 */
export async function refuseUngatedWrite(
	ctx: IExecuteFunctions,
	reason: string,
): Promise<INodeExecutionData[]> {
	return await runItems(ctx, ctx.getInputData(), {
		prepare: (_itemIndex, problems) => problems.setting(ALLOW_FILING_LABEL, reason),
		run: async () => [],
	});
}
