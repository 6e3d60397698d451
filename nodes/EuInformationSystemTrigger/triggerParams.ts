/**
 * The EU Information System Trigger's parameters, read once at the start of a poll through the
 * input layer: the prefix (3 to 50 characters, the EU's search), what fires, the output and
 * the tracker's settings (the grace period from the poll schedule).
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readXmlText } from '../shared/input/text';
import { firstPollGraceMs } from '../shared/polling/pollSchedule';
import { pollTimesOf, readPollOption } from '../shared/polling/pollOption';
import type { ChangeEvent, EuTrackerSettings, StatementChange } from './statementTracker';
import { EU_DEFAULT_SETTINGS } from './statementTracker';
import type { StatementKind } from './statementState';
import { ALL_STATUSES } from './triggerDescription';

const KINDS: ReadonlyMap<string, StatementKind> = new Map([
	['dueDiligenceStatement', 'dds'],
	['simplifiedDeclaration', 'sd'],
]);

export interface EuTriggerParams {
	prefix: string;
	/** The kinds of statements watched. */
	kinds: StatementKind[];
	events: ChangeEvent[];
	/** Selected statuses; 'other' stands for every status not offered. */
	statuses: string[];
	simplify: boolean;
	settings: EuTrackerSettings;
}

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
/** The EU's search string: 3 to 50 characters [CF3 §6.1]. */
export const PREFIX_MIN = 3;
export const PREFIX_MAX = 50;

function refuse(ctx: IPollFunctions, message: string, description: string): never {
	throw new NodeOperationError(ctx.getNode(), message, { description });
}

/** The prefix as the EU's search takes it, or the reason it cannot be searched for. */
export function prefixProblem(prefix: string): string | undefined {
	if (prefix.length < PREFIX_MIN)
		return `it has ${prefix.length} character${prefix.length === 1 ? '' : 's'}; the EU searches internal references by at least ${PREFIX_MIN}`;
	if (prefix.length > PREFIX_MAX)
		return `it has ${prefix.length} characters; the EU searches internal references by at most ${PREFIX_MAX}`;
	return undefined;
}

export function readEuParams(ctx: IPollFunctions): EuTriggerParams {
	const prefixRead = readXmlText(ctx.getNodeParameter('internalReferencePrefix', ''));
	if (prefixRead.kind !== 'value')
		refuse(
			ctx,
			`Field "Internal Reference Starts With": ${prefixRead.kind === 'missing' ? 'it is empty' : prefixRead.reason}`,
			'Enter the beginning of the internal references of the statements to watch, for example SHIP-2026-.',
		);
	const prefix = prefixRead.value;
	const problem = prefixProblem(prefix);
	if (problem !== undefined)
		refuse(
			ctx,
			`Field "Internal Reference Starts With": ${problem}`,
			`Enter ${PREFIX_MIN} to ${PREFIX_MAX} characters that begin the internal references of the statements to watch.`,
		);
	const kinds = (ctx.getNodeParameter('statementTypes', ['dueDiligenceStatement']) as string[])
		.map((t) => KINDS.get(t))
		.filter((k): k is StatementKind => k !== undefined);
	if (kinds.length === 0)
		refuse(
			ctx,
			'Nothing selected in "Watch"',
			'Select Due Diligence Statements, Simplified Declarations or both.',
		);
	const events = (ctx.getNodeParameter('events', []) as string[]).filter(
		(e): e is ChangeEvent => e === 'statusChange' || e === 'communication',
	);
	if (events.length === 0)
		refuse(
			ctx,
			'Nothing selected in "Trigger On"',
			'Select Status Change, Communication or both so that the trigger has something to react to.',
		);
	const statuses = (ctx.getNodeParameter('statuses', ALL_STATUSES) as string[]).filter((s) =>
		ALL_STATUSES.includes(s),
	);
	if (events.includes('statusChange') && !events.includes('communication') && statuses.length === 0)
		refuse(
			ctx,
			'No status selected in "Statuses"',
			'Select the statuses whose changes start the workflow, for example Available and Rejected.',
		);
	const simplify = ctx.getNodeParameter('simplify', true) as boolean;
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const lookBackHours = readPollOption(ctx, options, {
		name: 'lookBackHours',
		label: 'Look Back (Hours)',
		default: 0,
		rule: { min: 0 },
		hint: 'Enter 0 to skip changes before activation (except those within two poll intervals plus five minutes before it), or the number of hours to look back.',
	});
	const minAgeMinutes = readPollOption(ctx, options, {
		name: 'minAgeMinutes',
		label: 'Wait After Filing (Minutes)',
		default: EU_DEFAULT_SETTINGS.minAgeMs / MINUTE_MS,
		rule: { min: 0 },
		hint: 'Enter how many minutes after filing a statement is first asked for, 30 as the EU advises.',
	});
	const maxRequests = readPollOption(ctx, options, {
		name: 'maxRequestsPerPoll',
		label: 'Most Requests per Poll',
		default: EU_DEFAULT_SETTINGS.maxRequests,
		rule: { min: 2, max: 100, integer: true },
		hint: 'Enter a whole number from 2 to 100, for example 10.',
	});
	const maxStatements = readPollOption(ctx, options, {
		name: 'maxStatements',
		label: 'Most Statements Watched',
		default: EU_DEFAULT_SETTINGS.maxStatements,
		rule: { min: 1, max: 20_000, integer: true },
		hint: 'Enter a whole number from 1 to 20000, for example 2000.',
	});
	return {
		prefix,
		kinds,
		events,
		statuses,
		simplify,
		settings: {
			prefix,
			graceMs: firstPollGraceMs(pollTimesOf(ctx)),
			lookBackMs: lookBackHours * HOUR_MS,
			minAgeMs: minAgeMinutes * MINUTE_MS,
			maxRequests,
			maxStatements,
		},
	};
}

/** Whether a change starts the workflow: its event and, for a status change, its status. */
export function wanted(change: StatementChange, params: EuTriggerParams): boolean {
	if (!params.events.includes(change.event)) return false;
	if (change.event === 'communication') return true;
	const offered = ALL_STATUSES.includes(change.status) && change.status !== 'other';
	return params.statuses.includes(offered ? change.status : 'other');
}
