/**
 * What a poll tells the n8n log (warnings and notes, never errors): a stored state it could not
 * use, a credential now pointing elsewhere, listed jobs it could not read, and what the
 * tracker dropped or forgot. Each says what happened and what it means for the workflow.
 */
import type { IPollFunctions } from 'n8n-workflow';

import type { AdvanceResult, PollPlan, RestoredState, TrackerSettings } from './completionTracker';
import { loggedId } from './triggerRequests';

const PREFIX = 'Geospatial Analysis Trigger:';

export function pollLog(ctx: IPollFunctions) {
	const node = ctx.getNode().name;
	const warn = (message: string, extra: object = {}) =>
		ctx.logger.warn(`${PREFIX} ${message}`, { node, ...extra });
	return {
		/** The stored state could not be used as it was. */
		restored(restored: RestoredState): void {
			if (restored.unreadable) warn('stored state unreadable, starting afresh');
			if (restored.unbelievable)
				warn(
					`stored state not usable (${restored.unbelievable}), starting afresh: jobs that finished within the grace period fire`,
				);
		},
		/** Before the requests: how the poll starts. */
		planned(plan: PollPlan): void {
			if (plan.start === 'newService')
				ctx.logger.info(
					`${PREFIX} the credential now points to ${plan.identity?.service} (was ${plan.state?.service}); watching its jobs from now on, those of the other service no longer`,
					{ node },
				);
			else if (plan.start === 'newAccount')
				ctx.logger.info(
					`${PREFIX} the credential now uses another account; watching its jobs from now on`,
					{ node },
				);
		},
		unusable(count: number): void {
			if (count > 0)
				warn(
					`${count} job${count === 1 ? '' : 's'} listed by GET /jobs without a usable job_id or created_at skipped`,
				);
		},
		/** After every request succeeded: what the tracker dropped, shrank or forgot. */
		advanced(result: AdvanceResult, settings: TrackerSettings): void {
			for (const { id, reason } of result.dropped) {
				const why =
					reason === 'gone'
						? 'it no longer exists or belongs to another account'
						: reason === 'age'
							? `it is still unfinished after ${settings.maxAgeMs / 86_400_000} days (raise "Watch Unfinished Jobs For (Days)")`
							: reason === 'bytes'
								? `the ids of the unfinished jobs watched take more than ${Math.round((settings.maxPendingBytes ?? 0) / 1024)} KB of the workflow's static data; the oldest are dropped`
								: `more than ${settings.maxPending} unfinished jobs are watched; the oldest are dropped`;
				warn(`stopped watching job ${loggedId(id)}: ${why}; it will not fire`, { jobId: id });
			}
			if (result.overlapShrunkTo !== undefined)
				warn(
					`more than ${settings.maxSeen} jobs (or ${Math.round((settings.maxSeenBytes ?? 0) / 1024)} KB of ids) created within the overlap window; window shortened to ${result.overlapShrunkTo} ms`,
				);
			const { forgotten } = result;
			if (forgotten.length > 0)
				warn(
					`forgot ${forgotten.length} finished job${forgotten.length === 1 ? '' : 's'} dated more than 5 minutes in the future (${forgotten.slice(0, 3).map(loggedId).join(', ')}${forgotten.length > 3 ? ', …' : ''}): more remembered ids than fit in the static data; if the service lists them again they may fire again`,
				);
		},
	};
}
