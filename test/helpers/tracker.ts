import type {
	JobObservation,
	TrackerIdentity,
	TrackerSettings,
	TrackerState,
} from '../../nodes/GeospatialAnalysisTrigger/completionTracker';
import { advance, planPoll } from '../../nodes/GeospatialAnalysisTrigger/completionTracker';

/**
 * One poll through the tracker's plan-and-advance API, for scenarios written as "this state,
 * this clock, this listing, these rechecks": the plan is made from the state and the clock,
 * and the tracker advances it with what came back.
 */
export function planAndAdvance(input: {
	state: TrackerState | undefined;
	now: number;
	listed: JobObservation[];
	rechecked: Map<string, JobObservation | null>;
	settings: TrackerSettings;
	identity?: TrackerIdentity;
}) {
	const plan = planPoll(input.state, input.now, input.settings, input.identity);
	return advance(plan, { listed: input.listed, rechecked: input.rechecked });
}
