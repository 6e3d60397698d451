/**
 * The colour of each outcome of the record: the map drawing's colours (shared/map/), so the
 * page's table and its map agree. Pure: no n8n imports.
 */
import type { MapOutcome } from '../map';
import { OUTCOME_COLOURS } from '../map';
import type { PlotOutcomeClass } from './plotRecord';

/** The drawing's outcome for each outcome of the record. */
export const MAP_OUTCOME_OF: Record<PlotOutcomeClass, MapOutcome> = {
	invalid: 'invalid',
	'analysis failed': 'unknown',
	'high risk': 'risk',
	'medium risk': 'problem',
	'low risk': 'negligible',
	'not known': 'unknown',
};

/** The colour of a record outcome, as the map draws it. */
export const colourOf = (outcome: PlotOutcomeClass): string =>
	OUTCOME_COLOURS[MAP_OUTCOME_OF[outcome]];
