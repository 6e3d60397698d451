import type { INodeProperties, INodePropertyOptions, IDisplayOptions } from 'n8n-workflow';

import { requestTimeoutProperty } from '../../../shared/transport/authenticationFields';
import { optionsCollection } from '../../../shared/descriptions/optionsCollection';
import type { VersionDescription } from '../../v1/actions/versionDescription';
import {
	OPERATIONS_WITHOUT_REQUESTS,
	versionDescription as v1,
} from '../../v1/actions/versionDescription';
import { createDescription, getQuoteDescription } from './jobFields';

/**
 * Version 2 of the action node: the operations of version 1 (v1/actions, the same router and
 * execute code, which reads each moved field where the node's version keeps it) with an
 * editor made for a newcomer:
 * - short actions (n8n's style, "Register plots"), so that a node added from the nodes panel
 *   gets a short name; what each operation costs and returns reaches an AI Agent through the
 *   Tool Description field of the tool variant (TOOL_DESCRIPTIONS), which n8n sends to the
 *   model instead of the action;
 * - Job → Create / Get Quote: Max Tokens at the top with a limit by default, Checks showing
 *   the EUDR bundle, the rest in Options (jobFields.ts);
 * - Wait for Completion outputs Per-Plot Results by default;
 * - Request Timeout (Seconds) inside each operation's Options.
 */

/** Short actions: the names of nodes added from the nodes panel (each under 30 characters). */
const SHORT_ACTIONS: Record<string, Record<string, string>> = {
	account: { getTokenBalance: 'Get token balance' },
	analysisRun: { get: 'Get an analysis run', getMany: 'Get many analysis runs' },
	capability: { getMany: 'Get many capabilities' },
	job: {
		create: 'Create a job',
		get: 'Get a job',
		getMany: 'Get many jobs',
		getQuote: 'Get a job quote',
		getResults: 'Get job results',
		waitForCompletion: 'Wait for job completion',
	},
	plot: {
		exportEu: 'Export plots for the EU',
		get: 'Get a plot',
		getMany: 'Get many plots',
		readFile: 'Read a geo file',
		register: 'Register plots',
		validate: 'Validate plots',
	},
	protectedArea: { check: 'Check protected areas', get: 'Get a protected area' },
};

/**
 * What an AI Agent is told about each operation used as a tool: version 1's action (what it
 * costs, what it returns) and the service, as n8n words it for version 1
 * (`<action> in <node name>`).
 */
const TOOL_DESCRIPTIONS: Record<string, Record<string, string>> = {};

const show = (p: INodeProperties): IDisplayOptions['show'] => p.displayOptions?.show ?? {};

function isOperationSelector(p: INodeProperties): boolean {
	return p.name === 'operation' && p.type === 'options';
}

/** [resource, operation] of a property shown for exactly one of each. */
function shownFor(p: INodeProperties): Array<[string, string]> {
	const resources = (show(p)?.resource ?? []) as string[];
	const operations = (show(p)?.operation ?? []) as string[];
	return resources.flatMap((r) => operations.map((o): [string, string] => [r, o]));
}

const v1Properties = v1.properties;

/** Every resource → operation pair of version 1, in the order of the lists. */
const PAIRS: Array<[string, string]> = v1Properties
	.filter(isOperationSelector)
	.flatMap((p) =>
		((p.options ?? []) as INodePropertyOptions[]).map((o): [string, string] => [
			String(show(p)?.resource?.[0]),
			String(o.value),
		]),
	);

for (const p of v1Properties.filter(isOperationSelector)) {
	const resource = String(show(p)?.resource?.[0]);
	for (const o of (p.options ?? []) as INodePropertyOptions[])
		(TOOL_DESCRIPTIONS[resource] ??= {})[String(o.value)] = `${o.action} in Geospatial Analysis`;
}
// Version 2 waits and then outputs the per-plot results by default.
TOOL_DESCRIPTIONS.job.waitForCompletion =
	'Wait for a job to complete — free — returns one item per plot with its results in Geospatial Analysis';

function withShortActions(p: INodeProperties): INodeProperties {
	const resource = String(show(p)?.resource?.[0]);
	return {
		...p,
		options: ((p.options ?? []) as INodePropertyOptions[]).map((o) => ({
			...o,
			action: SHORT_ACTIONS[resource][String(o.value)],
		})),
	};
}

/** Simplify of the per-plot output in version 2, whose rows put the decision first. */
const SIMPLIFY_V2 =
	'Whether to return a flat row per plot fit for a spreadsheet, the decision first (plot name and ID, risk level and reason, deforestation-free, protected-area and Indigenous-land overlap, whether the plot failed and why), then job ID and status, deforestation figures, image URL and the top-level result of each other check; instead of the full plot with its nested analysis';

const REPLACED_JOB_OPERATIONS = ['create', 'getQuote'];

/** Version 1's fields of Job → Create / Get Quote, replaced by jobFields.ts. */
function isReplacedJobField(p: INodeProperties): boolean {
	return (
		!isOperationSelector(p) &&
		(show(p)?.resource as string[] | undefined)?.includes('job') === true &&
		((show(p)?.operation ?? []) as string[]).some((o) => REPLACED_JOB_OPERATIONS.includes(o))
	);
}

const timeoutOption: INodeProperties = {
	displayName: requestTimeoutProperty.displayName,
	name: requestTimeoutProperty.name,
	type: requestTimeoutProperty.type,
	typeOptions: requestTimeoutProperty.typeOptions,
	default: requestTimeoutProperty.default,
	description: requestTimeoutProperty.description,
};

const byName = (a: { displayName: string }, b: { displayName: string }) =>
	a.displayName.localeCompare(b.displayName);

const sendsRequests = ([, operation]: [string, string]) =>
	!OPERATIONS_WITHOUT_REQUESTS.includes(operation);

/** Each operation's Options, with Request Timeout (every operation that sends requests). */
function withTimeoutOption(p: INodeProperties): INodeProperties {
	if (p.name !== 'options' || p.type !== 'collection') return p;
	const placeholder = 'Add option';
	if (!shownFor(p).every(sendsRequests)) return { ...p, placeholder };
	return {
		...p,
		placeholder,
		options: [...((p.options ?? []) as INodeProperties[]), timeoutOption].sort(byName),
	};
}

/** An Options collection holding only Request Timeout, for an operation without Options. */
function timeoutOnlyOptions([resource, operation]: [string, string]): INodeProperties {
	return {
		...optionsCollection([timeoutOption]),
		displayOptions: { show: { resource: [resource], operation: [operation] } },
	};
}

/** The Tool Description field; its default is set per operation (toolDescriptionField). */
const toolDescription: INodeProperties = {
	displayName: 'Tool Description',
	name: 'toolDescription',
	type: 'string',
	typeOptions: { rows: 2 },
	default: '',
	required: true,
	description:
		'Explain to the AI model what this tool does, what it costs and what it returns. The default says it for this operation.',
};

/** The Tool Description of each operation, shown only in the tool variant of the node. */
function toolDescriptionField([resource, operation]: [string, string]): INodeProperties {
	return {
		...toolDescription,
		default: TOOL_DESCRIPTIONS[resource][operation],
		displayOptions: { show: { '@tool': [true], resource: [resource], operation: [operation] } },
	};
}

function buildProperties(): INodeProperties[] {
	const properties: INodeProperties[] = [];
	for (const p of v1Properties) {
		if (p.name === requestTimeoutProperty.name) continue;
		if (isReplacedJobField(p)) continue;
		if (isOperationSelector(p)) {
			const resource = String(show(p)?.resource?.[0]);
			properties.push(withShortActions(p));
			// Its tool descriptions (each shows for its operation in the tool variant only).
			properties.push(...PAIRS.filter(([r]) => r === resource).map(toolDescriptionField));
			if (show(p)?.resource?.[0] === 'job')
				properties.push(...[...createDescription, ...getQuoteDescription].map(withTimeoutOption));
			continue;
		}
		if (
			p.name === 'output' &&
			shownFor(p).some(([r, o]) => r === 'job' && o === 'waitForCompletion')
		) {
			properties.push({ ...p, default: 'perPlot' });
			continue;
		}
		if (p.name === 'simplify' && shownFor(p).some(([r]) => r === 'job')) {
			properties.push({ ...p, description: SIMPLIFY_V2 });
			continue;
		}
		properties.push(withTimeoutOption(p));
	}
	const hasOptions = new Set(
		properties
			.filter((p) => p.name === 'options' && p.type === 'collection')
			.flatMap((p) => shownFor(p).map(([r, o]) => `${r}.${o}`)),
	);
	for (const pair of PAIRS.filter(sendsRequests))
		if (!hasOptions.has(`${pair[0]}.${pair[1]}`)) properties.push(timeoutOnlyOptions(pair));
	return properties;
}

export const versionDescription: VersionDescription = {
	...v1,
	version: 2,
	properties: buildProperties(),
};
