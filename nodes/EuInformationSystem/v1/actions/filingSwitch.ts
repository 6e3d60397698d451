/**
 * "Allow Filing Statements" is the user's alone (issue 36): filing a statement with legal value
 * is a person's decision, so only a literal `true` saved in the workflow opens the gate.
 *
 * - In the editor the setting is a plain switch: `noDataExpression` is what n8n's editor reads
 *   (1.x and 2.x) to offer neither the expression toggle nor the "let the model define this"
 *   ($fromAI) button of an AI Agent tool's parameter.
 * - At run time the gate reads the SAVED parameter (`getNode().parameters`), never the resolved
 *   one: n8n resolves an expression, `$fromAI` included (the model's answer), when a node reads
 *   its parameter. A saved expression (a workflow written by hand, imported or saved before
 *   this) is refused, saying why.
 * - A tool saved with a write while the setting is not a literal on says so before any run: a
 *   notice in the panel, and a parameter issue n8n shows on the canvas (the validation message
 *   of a resource locator, n8n's one parameter check with a message of the node's own), with
 *   the words of the run's refusal.
 */
import type { IDisplayOptions, INodeProperties, NodeParameterValueType } from 'n8n-workflow';

export const ALLOW_FILING = 'allowFilingStatements';
export const ALLOW_FILING_LABEL = 'Allow Filing Statements';

/** The saved setting: on only as a literal true; an expression (or the model's) is no switch. */
export type FilingSwitch = 'on' | 'off' | 'expression';

/**
 * An expression as saved ("=…"), or as n8n 2.x hands it to the node: for a parameter with
 * `noDataExpression` its getNodeParameters drops the "=" of any expression but a lone `$fromAI`
 * ("={{ true }}" arrives as "{{ true }}").
 */
const EXPRESSION = /^=|\{\{/;

export function filingSwitchOf(saved: NodeParameterValueType | undefined): FilingSwitch {
	if (saved === true) return 'on';
	if (typeof saved === 'string' && EXPRESSION.test(saved)) return 'expression';
	return 'off';
}

/** Why a tool may not run this write with the setting as saved (after `field "…": `). */
export function filingRefusal(state: Exclude<FilingSwitch, 'on'>, operation: string): string {
	if (state === 'off')
		return `it is off, so this AI Agent tool may not ${operation} statements: that files a statement with legal value. Turn "${ALLOW_FILING_LABEL}" on in this tool node if the agent is meant to ${operation} statements, or choose an operation that reads.`;
	return `it is set by an expression (or "defined automatically by the model"), so this AI Agent tool may not ${operation} statements: that files a statement with legal value, which only a person may allow, never an expression or the model. Switch "${ALLOW_FILING_LABEL}" on in this tool node itself (a plain on, not an expression) if the agent is meant to ${operation} statements, or choose an operation that reads.`;
}

/** The words of the panel's notice and the canvas issue: the run's refusal without the item. */
export function filingNotice(state: Exclude<FilingSwitch, 'on'>, operation: string): string {
	return `"${ALLOW_FILING_LABEL}": ${filingRefusal(state, operation)}`;
}

/** The value of the setting is an expression (as EXPRESSION above). */
const IS_EXPRESSION = { _cnd: { regex: EXPRESSION.source } } as const;

/** Where each state's notice and issue show: a tool saved with this write, the setting so. */
function whereShown(
	resource: string,
	operation: string,
	state: Exclude<FilingSwitch, 'on'>,
): IDisplayOptions {
	const at = { '@tool': [true], resource: [resource], operation: [operation] };
	// (the setting's key last: n8n shows a parameter at once when a key it reads is an expression)
	return state === 'expression'
		? { show: { ...at, [ALLOW_FILING]: [IS_EXPRESSION] } }
		: { show: at, hide: { [ALLOW_FILING]: [true, IS_EXPRESSION] } };
}

export const FILING_NOTICE = 'filingNotAllowedNotice';
export const FILING_ISSUE = 'filingNotAllowed';

/**
 * The notice and the canvas issue of one write operation, for each state that refuses it. The
 * issue's field is a resource locator nothing is entered in: its one mode's validation never
 * matches, so n8n reports the message as the node's parameter issue (the canvas warning).
 */
export function filingWarnings(resource: string, operation: string): INodeProperties[] {
	return (['off', 'expression'] as const).flatMap((state): INodeProperties[] => [
		{
			displayName: filingNotice(state, operation),
			name: FILING_NOTICE,
			type: 'notice',
			default: '',
			displayOptions: whereShown(resource, operation, state),
		},
		{
			displayName: 'Filing Not Allowed',
			name: FILING_ISSUE,
			type: 'resourceLocator',
			default: { __rl: true, mode: 'reason', value: '' },
			// no expression and no $fromAI here either: an expression would silence the issue
			noDataExpression: true,
			description: `Nothing to enter here: it shows why this tool may not ${operation} statements (see the notice above). It goes away once "${ALLOW_FILING_LABEL}" is switched on, or an operation that reads is chosen.`,
			modes: [
				{
					displayName: 'Why',
					name: 'reason',
					type: 'string',
					placeholder: `Switch "${ALLOW_FILING_LABEL}" on, or choose an operation that reads`,
					validation: [
						{
							type: 'regex',
							properties: { regex: '(?!)', errorMessage: filingNotice(state, operation) },
						},
					],
				},
			],
			displayOptions: whereShown(resource, operation, state),
		},
	]);
}
