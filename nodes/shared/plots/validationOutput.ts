/**
 * Plot → Validate's output item for one row: the decision first (`valid`, `problem_count`,
 * `problem_summary`), then the input's own columns, then `validation`. Pure.
 *
 * Two shapes of `validation` (a node version decides: saved workflows read fields by name):
 * - full (node versions 1 and 2): the row's report as `validateRows` builds it (problems and
 *   warnings as objects with their place, features, duplicates, overlaps);
 * - compact (node version 3): what n8n's Table view can show in one line per field — the
 *   figures as plain values, one short text per problem and per warning (the plain sentence and
 *   the place), the advice for the workflow builder, and every nested detail in one field,
 *   `details` (problems and warnings with their codes and places, features, duplicates,
 *   overlaps, repairs).
 */
import type { ReportedProblem, RowReport } from './plotReports';

export interface ValidationOutputOptions {
	/** The compact `validation` (node version 3). */
	compact: boolean;
}

/** The short text of a problem: its plain sentence (the message before "Detail:"), and where. */
export function shortText(p: ReportedProblem): string {
	const plain = p.message.split(' Detail: ')[0];
	const w = p.where;
	const place = [
		w.feature !== null && w.feature !== undefined && w.other_item === undefined
			? `feature ${w.feature}`
			: '',
		w.polygon !== undefined ? `polygon ${w.polygon}` : '',
		w.ring !== undefined ? `ring ${w.ring}` : '',
		w.position !== undefined ? `position ${w.position}` : '',
	]
		.filter(Boolean)
		.join(', ');
	return place ? `${plain} (${place})` : plain;
}

function compactValidation(report: RowReport): Record<string, unknown> {
	// valid and problem_summary are the item's own columns: not repeated here
	const {
		problems,
		warnings,
		features,
		duplicates,
		overlaps,
		repairs,
		repaired_geojson: repairedGeojson,
		workflow_hints: hints,
		...rest
	} = report;
	const figures: Record<string, unknown> = { ...rest };
	delete figures.valid;
	delete figures.problem_summary;
	return {
		problems: problems.map(shortText),
		warnings: warnings.map(shortText),
		warning_count: warnings.length,
		...figures,
		workflow_hints: hints,
		details: {
			problems,
			warnings,
			features,
			duplicates,
			overlaps,
			...(repairs !== undefined ? { repairs } : {}),
			...(repairedGeojson !== undefined ? { repaired_geojson: repairedGeojson } : {}),
		},
	};
}

/** The output item's json for one row: the decision first, the input's columns, then `validation`. */
export function validationItem(
	input: Record<string, unknown>,
	report: RowReport,
	options: ValidationOutputOptions,
): Record<string, unknown> {
	// the decision's keys placed first; the input's own columns of the same names give way to it
	const json: Record<string, unknown> = {
		valid: report.valid,
		problem_count: report.problems.length,
		problem_summary: report.problem_summary,
		...input,
	};
	json.valid = report.valid;
	json.problem_count = report.problems.length;
	json.problem_summary = report.problem_summary;
	json.validation = options.compact ? compactValidation(report) : report;
	return json;
}
