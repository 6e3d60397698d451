/**
 * What a poll tells the n8n log (warnings and notes, never errors): a stored state it could not
 * read, a credential now pointing elsewhere, a search that hit the EU's cap, statements no longer
 * watched and why. Each says what happened and what it means for the workflow.
 */
import type { IPollFunctions } from 'n8n-workflow';

import type { SkippedOverviews } from '../shared/dds/answers';

import type { EuAdvanceResult, EuPollPlan, EuTrackerSettings } from './statementTracker';
import { MAX_UUIDS_PER_CALL } from './statementTracker';

const PREFIX = 'EU Information System Trigger:';

function few(uuids: readonly string[]): string {
	return `${uuids.slice(0, 3).join(', ')}${uuids.length > 3 ? ', …' : ''}`;
}

export function euPollLog(ctx: IPollFunctions) {
	const node = ctx.getNode().name;
	const warn = (message: string, extra: object = {}) =>
		ctx.logger.warn(`${PREFIX} ${message}`, { node, ...extra });
	const info = (message: string) => ctx.logger.info(`${PREFIX} ${message}`, { node });
	return {
		restored(stored: unknown, readable: boolean): void {
			if (stored !== undefined && !readable) warn('stored state unreadable, starting afresh');
		},
		planned(plan: EuPollPlan): void {
			if (plan.start === 'newService')
				info(
					`the credential now points to ${plan.identity?.service} (was ${plan.state?.service}); watching its statements from now on`,
				);
			else if (plan.start === 'newAccount')
				info(
					'the credential now uses another account; statements it cannot read stop being watched',
				);
		},
		searched(capped: readonly string[], prefix: string): void {
			if (capped.length > 0)
				warn(
					`the search for internal references containing "${prefix}" returned ${MAX_UUIDS_PER_CALL} statements, the EU's most: statements beyond them may not be found. Use a longer "Internal Reference Starts With" (for example with the year or month).`,
				);
		},
		/** Statements the reads left out (their UUID is none): counted, never stored. */
		skipped(...reads: SkippedOverviews[]): void {
			const count = reads.reduce((sum, r) => sum + r.count, 0);
			if (count === 0) return;
			const one = count === 1;
			const reasons = reads.flatMap((r) => r.reasons).slice(0, 3);
			warn(
				`the EU listed ${count} statement${one ? '' : 's'} without a valid UUID; ${one ? 'it is' : 'they are'} not watched and nothing of ${one ? 'it' : 'them'} is stored (${reasons.join('; ')})`,
				{ skipped: count },
			);
		},
		advanced(result: EuAdvanceResult, settings: EuTrackerSettings): void {
			if (result.gone.length > 0)
				warn(
					`stopped watching ${result.gone.length} statement${result.gone.length === 1 ? '' : 's'} the EU no longer shows to this account (${few(result.gone)})`,
				);
			if (result.forgotten.length > 0)
				warn(
					`more than ${settings.maxStatements} statements watched (raise "Most Statements Watched"): forgot ${result.forgotten.length}, withdrawn, rejected, archived or obsolete ones and then the oldest first (${few(result.forgotten)}); their later changes fire only if the search finds them again`,
				);
		},
	};
}
