import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { euCredential, EU_CREDENTIAL_TYPE } from '../shared/transport/euCredential';
import { accountKey } from '../shared/polling/accountKey';
import { openRunScope } from '../shared/transport/serviceContext';
import { euPollLog } from './pollLog';
import { readEuState } from './statementState';
import type { EuTrackerIdentity } from './statementTracker';
import { advance, planPoll, toRefresh } from './statementTracker';
import { readsFor } from './statementReads';
import { EU_PANEL_DESCRIPTION, TRIGGER_SUBTITLE, triggerProperties } from './triggerDescription';
import { changeItems, manualPoll } from './triggerItems';
import { readEuParams } from './triggerParams';
import { refreshStatements, searchStatements } from './triggerRequests';

/** The account label of this trigger's stored account values (nodes/shared/polling/accountKey.ts). */
const ACCOUNT_LABEL = 'n8n-nodes-geospatial-analysis/eu-trigger-account/v1';

/** Where the statements come from: the credential's Base URL and its user and key. */
async function euIdentity(ctx: IPollFunctions): Promise<EuTrackerIdentity> {
	const credential = await euCredential.call(ctx);
	return {
		service: credential.baseUrl,
		account: await accountKey(
			credential.key,
			credential.baseUrl,
			credential.username,
			ACCOUNT_LABEL,
		),
	};
}

export class EuInformationSystemTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'EU Information System Trigger',
		name: 'euInformationSystemTrigger',
		icon: {
			light: 'file:../../icons/euInformationSystem.svg',
			dark: 'file:../../icons/euInformationSystem.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: TRIGGER_SUBTITLE,
		// n8n's nodes panel merges this trigger with the EU Information System node into one
		// entry and shows THIS description for both (2.40.7's generateMergedNodesAndActions:
		// the merged entry takes the trigger's description): it names what the node does too.
		description: EU_PANEL_DESCRIPTION,
		defaults: { name: 'EU Information System Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: EU_CREDENTIAL_TYPE, required: true }],
		properties: triggerProperties,
	};

	/**
	 * One poll, as plan and advance (statementTracker.ts says why): the tracker plans from the
	 * stored state, this node searches and refreshes, the tracker advances with what came back,
	 * and the new state is stored only when all of it succeeded.
	 */
	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		// n8n reuses this context for every poll: the credential is read anew.
		openRunScope(this);
		const params = readEuParams(this);
		if (this.getMode() === 'manual') return await manualPoll.call(this, params);

		const log = euPollLog(this);
		const staticData = this.getWorkflowStaticData('node');
		const now = Date.now();
		const state = readEuState(staticData.statements);
		log.restored(staticData.statements, state !== undefined);
		const plan = planPoll(state, now, params.settings, await euIdentity(this));
		log.planned(plan);

		// Every request happens before the state changes: a failure throws and loses nothing.
		const reads = readsFor(params.kinds);
		const searched = await searchStatements(this, params.prefix, reads);
		log.searched(searched.capped, params.prefix);
		const refresh = toRefresh(plan, searched.observed, reads.length);
		const refreshed = await refreshStatements(this, refresh.batches, reads);
		log.skipped(searched.skipped, refreshed.skipped);
		const result = advance(plan, {
			searched: searched.observed,
			refreshed: refreshed.observed,
			refresh,
		});
		const overviews = new Map([...searched.overviews, ...refreshed.overviews]);
		const items = changeItems(result.changes, overviews, params);

		// All requests succeeded: only now does the new state replace the stored one.
		log.advanced(result, params.settings);
		staticData.statements = result.state as unknown as IDataObject;
		return items.length > 0 ? [items] : null;
	}
}
