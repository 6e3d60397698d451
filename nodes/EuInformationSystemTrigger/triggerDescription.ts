/**
 * The EU Information System Trigger's parameters (their names are what saved workflows store:
 * keep them). Read by triggerParams.ts.
 */
import type { INodeProperties } from 'n8n-workflow';

import { optionsCollection } from '../shared/descriptions/optionsCollection';

/**
 * The trigger's description, which n8n's nodes panel shows for the one entry it makes of this
 * trigger and the EU Information System node (the trigger's description replaces the node's):
 * what the node does first (files, reads, verifies), then what the trigger does.
 */
export const EU_PANEL_DESCRIPTION =
	'File, read and verify EUDR due diligence statements in the EU Information System (TRACES), and start a workflow when a statement changes status (available with its numbers, rejected, withdrawn, …) or receives a communication from the authority';

/** The statuses offered in "Statuses" (EudrStatusType without SUBMITTED, where every statement starts). */
export const STATUS_OPTIONS = [
	{
		name: 'Available',
		value: 'AVAILABLE',
		description: 'Reference and verification numbers assigned',
	},
	{ name: 'Rejected', value: 'REJECTED', description: 'With the rejection reason' },
	{ name: 'Withdrawn', value: 'WITHDRAWN' },
	{ name: 'Grouped', value: 'GROUPED', description: 'Referenced by another declaration' },
	{ name: 'Archived', value: 'ARCHIVED' },
	{ name: 'Suspended', value: 'SUSPENDED' },
	{ name: 'Obsolete', value: 'OBSOLETE' },
	{
		name: 'Any Other Status',
		value: 'other',
		description:
			'A status the EU documents as not active (UPDATED) or adds later, passed through as written',
	},
] as const;

/**
 * The trigger's subtitle on the canvas: the references it watches ("Statements SHIP-2026-…"),
 * or, before a prefix is set, what to set.
 */
export const TRIGGER_SUBTITLE =
	'={{ $parameter["internalReferencePrefix"] ? "Statements " + $parameter["internalReferencePrefix"] + "…" : "Set Internal Reference Starts With" }}';

export const ALL_STATUSES: string[] = STATUS_OPTIONS.map((o) => o.value);

export const triggerProperties: INodeProperties[] = [
	{
		displayName:
			'Starts the workflow once for each change of a statement this account filed: a new status or a new communication from the authority. Statements are found by their internal reference.',
		name: 'notice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Internal Reference Starts With',
		name: 'internalReferencePrefix',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. SHIP-2026-',
		description:
			'The beginning of the internal references of the statements to watch (3 to 50 characters, not case-sensitive). The EU answers at most 100 statements per search: choose a prefix that matches fewer, for example with the year or month.',
	},
	{
		displayName: 'Watch',
		name: 'statementTypes',
		type: 'multiOptions',
		options: [
			{ name: 'Due Diligence Statements', value: 'dueDiligenceStatement' },
			{
				name: 'Simplified Declarations',
				value: 'simplifiedDeclaration',
				description: 'One more search per poll; needs an account allowed to file them',
			},
		],
		default: ['dueDiligenceStatement'],
		required: true,
		description: 'Which kinds of statements to watch',
	},
	{
		displayName: 'Trigger On',
		name: 'events',
		type: 'multiOptions',
		options: [
			{
				name: 'Status Change',
				value: 'statusChange',
				description: 'A statement got another status (see Statuses)',
			},
			{
				name: 'Communication',
				value: 'communication',
				description: 'A competent authority sent a new communication about a statement',
			},
		],
		default: ['statusChange', 'communication'],
		required: true,
		description: 'What starts the workflow, once per change',
	},
	{
		displayName: 'Statuses',
		name: 'statuses',
		type: 'multiOptions',
		options: [...STATUS_OPTIONS],
		default: [
			'AVAILABLE',
			'REJECTED',
			'WITHDRAWN',
			'GROUPED',
			'ARCHIVED',
			'SUSPENDED',
			'OBSOLETE',
			'other',
		],
		description:
			'Status changes to these statuses start the workflow (with Trigger On → Status Change). A change to a status not selected is skipped, never emitted later.',
	},
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description:
			'Whether to return the fields a compliance officer acts on first (status, reference and verification numbers, UUID, internal reference, rejection reason, communication) instead of the whole overview as the EU sent it',
	},
	optionsCollection([
		{
			displayName: 'Look Back (Hours)',
			name: 'lookBackHours',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description:
				'On activation, also emit changes the EU dated this many hours before it. 0: only changes after activation, or within two poll intervals plus five minutes before it.',
		},
		{
			displayName: 'Wait After Filing (Minutes)',
			name: 'minAgeMinutes',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 30,
			description:
				'A statement is asked for by its UUID only this long after it was first seen. The EU asks to wait at least 30 minutes after a submission before asking for its status; lower it only with a reason (for example the Acceptance environment).',
		},
		{
			displayName: 'Most Requests per Poll',
			name: 'maxRequestsPerPoll',
			type: 'number',
			typeOptions: { minValue: 2, maxValue: 100 },
			default: 10,
			description:
				'Each poll makes one search by internal reference and asks for up to 100 known statements per further request, taking turns when there are more. The EU allows 5 calls per second.',
		},
		{
			displayName: 'Most Statements Watched',
			name: 'maxStatements',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 20000 },
			default: 2000,
			description:
				'Statements remembered in the workflow (about 60 bytes each). Beyond it the oldest withdrawn, rejected, archived or obsolete ones are forgotten first, then the oldest others, with a warning in the n8n log.',
		},
	]),
];
