/**
 * What the trigger emits: one item per change (the event, the status before, the statement as
 * the EU node's reads output it), and the manual test ("test step"), which emits the statement
 * the EU dated latest without touching the tracker's state.
 */
import type { INodeExecutionData, IPollFunctions, IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { StatementOverview } from '../shared/dds/statement';
import { overviewOutput } from '../shared/dds/statementOutput';
import { parseServiceTimestamp } from '../shared/time/serviceTime';
import { uuidKey } from './statementState';
import type { StatementChange } from './statementTracker';
import { hasPrefix } from './statementTracker';
import type { EuTriggerParams } from './triggerParams';
import { wanted } from './triggerParams';
import { readsFor } from './statementReads';
import { searchStatements } from './triggerRequests';

const STATEMENT_TYPES = { dds: 'dueDiligenceStatement', sd: 'simplifiedDeclaration' } as const;

export function changeItem(
	change: Pick<StatementChange, 'event' | 'kind' | 'previousStatus'>,
	overview: StatementOverview,
	simplify: boolean,
): INodeExecutionData {
	const json = {
		event: change.event,
		statementType: STATEMENT_TYPES[change.kind],
		previousStatus: change.previousStatus,
		...overviewOutput(overview, simplify),
	} as IDataObject;
	return { json };
}

/** The items of the changes the user asked for, in the tracker's order. */
export function changeItems(
	changes: readonly StatementChange[],
	overviews: ReadonlyMap<string, StatementOverview>,
	params: EuTriggerParams,
): INodeExecutionData[] {
	const items: INodeExecutionData[] = [];
	for (const change of changes) {
		const overview = overviews.get(uuidKey(change.uuid));
		if (!overview || !wanted(change, params)) continue;
		items.push(changeItem(change, overview, params.simplify));
	}
	return items;
}

/** "Test step": the latest-dated statement with the prefix whose status is wanted. */
export async function manualPoll(
	this: IPollFunctions,
	params: EuTriggerParams,
): Promise<INodeExecutionData[][]> {
	const found = await searchStatements(this, params.prefix, readsFor(params.kinds));
	let latest:
		| { overview: StatementOverview; kind: StatementChange['kind']; at: number }
		| undefined;
	for (const o of found.observed) {
		if (!hasPrefix(o.internalReferenceNumber, params.prefix)) continue;
		const change = { event: 'statusChange' as const, status: o.status };
		const fits =
			o.status !== 'SUBMITTED' &&
			wanted({ ...change, uuid: o.uuid, kind: o.kind, previousStatus: null, atMs: null }, params);
		const communicates = o.communication !== '' && params.events.includes('communication');
		if (!fits && !communicates) continue;
		const overview = found.overviews.get(uuidKey(o.uuid))!;
		const at = parseServiceTimestamp(overview.date) ?? -Infinity;
		if (!latest || at > latest.at) latest = { overview, kind: o.kind, at };
	}
	if (!latest)
		throw new NodeOperationError(
			this.getNode(),
			`No statement found whose internal reference starts with "${params.prefix}" and whose status or communication is selected`,
			{
				description:
					'File a statement with this internal reference (EU Information System → Submit), wait until the EU has processed it (about 30 minutes), then test this trigger again. Check "Internal Reference Starts With", "Trigger On" and "Statuses" too.',
			},
		);
	const item = changeItem(
		{ event: 'statusChange', kind: latest.kind, previousStatus: null },
		latest.overview,
		params.simplify,
	);
	return [[item]];
}
