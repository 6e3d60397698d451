/**
 * What one input row says about its plot, for the due-diligence record: its validation
 * outcome (Plot → Validate's fields), its analysis outcome (the EUDR analysis' per-plot row of
 * Job → Wait for Completion or Get Results, simplified or raw), and the statement it was filed
 * in (the `dds_…` / `sd_…` fields Submit and Get put on input rows, or the EU Information System
 * node's statement item). Only what the row holds is read: a field the row does not have is
 * null and named in `not_in_input`; a part the row has nothing of is null with a reason saying
 * what to connect. Pure: no n8n imports.
 */
import type { IDataObject } from 'n8n-workflow';

import type { ReportedProblem } from '../plots/plotReports';
import { shortText } from '../plots/validationOutput';
import { simplifyPlotResult } from '../results/flatten';
import { bool, isObject, num, str } from '../values/answerValues';

/** Problems and warnings listed per plot (the rest counted). */
export const MAX_LISTED_PER_PLOT = 20;

export interface ValidationRecord {
	valid: boolean | null;
	problem_count: number | null;
	problem_summary: string | null;
	problems: string[];
	warnings: string[];
	/** Problems or warnings the row had beyond those listed. */
	not_listed: number;
}

/** Plot → Validate's fields on a row, or null with why there are none. */
export function validationOf(row: IDataObject): {
	validation: ValidationRecord | null;
	reason: string | null;
} {
	const has = (k: string) => Object.hasOwn(row, k);
	if (!has('valid') && !has('problem_count') && !has('problem_summary'))
		return {
			validation: null,
			reason:
				'the input has no validation fields (valid, problem_count, problem_summary): connect the output of Plot → Validate, or map it in Options → Validation Data',
		};
	const report = isObject(row.validation) ? row.validation : {};
	// version 3's short texts, or versions 1 and 2's problems (as version 3 words them)
	const text = (p: unknown): string | null => {
		if (!isObject(p)) return str(p);
		const message = str(p.message);
		if (message === null) return str(p.code);
		return isObject(p.where) ? shortText({ ...p, message } as unknown as ReportedProblem) : message;
	};
	const texts = (list: unknown): string[] =>
		(Array.isArray(list) ? list : []).map(text).filter((t): t is string => t !== null && t !== '');
	const problems = texts(report.problems);
	const warnings = texts(report.warnings);
	const listed = (list: string[]) => list.slice(0, MAX_LISTED_PER_PLOT);
	return {
		validation: {
			valid: bool(row.valid),
			problem_count: num(row.problem_count),
			problem_summary: str(row.problem_summary),
			problems: listed(problems),
			warnings: listed(warnings),
			not_listed:
				Math.max(0, problems.length - MAX_LISTED_PER_PLOT) +
				Math.max(0, warnings.length - MAX_LISTED_PER_PLOT),
		},
		reason: null,
	};
}

/** The analysis fields the record keeps, as the per-plot rows name them (results/flatten.ts). */
export const ANALYSIS_FIELDS = [
	'job_id',
	'status',
	'failed',
	'failure_reason',
	'risk_level',
	'risk_reason',
	'deforestation_free',
	'deforestation_percentage',
	'deforestation_area_ha',
	'forest_percentage_2020',
	'protected_area_overlap',
	'protected_area_overlap_reason',
	'protected_area_overlap_percentage',
	'protected_area_overlap_ha',
	'protected_area_extractive_activity_legality',
	'protected_area_names',
	'indigenous_land_overlap',
	'indigenous_land_overlap_reason',
	'indigenous_land_overlap_percentage',
	'indigenous_land_overlap_ha',
	'analysis_start',
	'analysis_end',
	'analysis_version',
	'image_url',
] as const;

/** Fields that only an analysis row has (a row with none of them holds no analysis). */
const ANALYSIS_MARKERS = [
	'risk_level',
	'risk_reason',
	'deforestation_free',
	'protected_area_overlap',
	'indigenous_land_overlap',
	'analysis_end',
	'analysis_version',
	'results_reason',
];

export interface DataSource {
	/** What the source was used for: protected_areas, indigenous_land, … (the result's key). */
	check: string;
	source_name: string | null;
	data_version: string | null;
}

export type AnalysisRecord = Record<(typeof ANALYSIS_FIELDS)[number], unknown> & {
	/** The data sources and their versions the service named (raw rows only). */
	data_sources: DataSource[] | null;
	/** Fields of ANALYSIS_FIELDS the input did not have (they are null). */
	not_in_input: string[];
};

/** The sources a raw analysis names under each of its results (`<result>.sources[]`). */
function sourcesOf(analysis: IDataObject): DataSource[] {
	const out: DataSource[] = [];
	for (const [check, result] of Object.entries(analysis)) {
		if (!isObject(result) || !Array.isArray(result.sources)) continue;
		for (const s of result.sources)
			if (isObject(s))
				out.push({ check, source_name: str(s.source_name), data_version: str(s.data_version) });
			else if (str(s) !== null) out.push({ check, source_name: str(s), data_version: null });
	}
	return out;
}

/**
 * The analysis outcome of a row: a raw plot with its `analysis` object (read as the simplified
 * rows are, plus its data sources and start date), or a simplified row's fields as they are.
 */
export function analysisOf(row: IDataObject): {
	analysis: AnalysisRecord | null;
	reason: string | null;
} {
	const raw = isObject(row.analysis) ? row.analysis : undefined;
	let source: IDataObject = row;
	let sources: DataSource[] | null = null;
	if (raw) {
		const job = { job_id: row.job_id, status: row.job_status } as IDataObject;
		source = {
			...simplifyPlotResult(row, job),
			analysis_start: str(raw.analysis_start),
			// the raw row's own outcome (Wait for Completion's raw mode) when it gives one
			...(Object.hasOwn(row, 'failed') ? { failed: row.failed } : {}),
			...(Object.hasOwn(row, 'failure_reason') ? { failure_reason: row.failure_reason } : {}),
		};
		sources = sourcesOf(raw);
	} else if (!ANALYSIS_MARKERS.some((k) => Object.hasOwn(row, k))) {
		return {
			analysis: null,
			reason:
				'the input has no analysis fields (risk_level, deforestation_free, protected_area_overlap, …): connect the output of Job → Wait for Completion, or map it in Options → Analysis Data',
		};
	}
	const out = {} as AnalysisRecord;
	const absent: string[] = [];
	for (const key of ANALYSIS_FIELDS) {
		const given = Object.hasOwn(source, key) && source[key] !== undefined;
		out[key] = given ? source[key] : null;
		if (!given) absent.push(key);
	}
	out.data_sources = sources;
	if (sources === null) absent.push('data_sources');
	out.not_in_input = absent;
	return { analysis: out, reason: null };
}

export interface StatementFields {
	/** due diligence statement or simplified declaration */
	kind: 'due diligence statement' | 'simplified declaration';
	uuid: string | null;
	status: string | null;
	reference_number: string | null;
	verification_number: string | null;
	internal_reference: string | null;
	filed_by: string | null;
	/** The date the EU Information System gives with the statement's current status. */
	status_date: string | null;
	environment: string | null;
	rejection_reason: string | null;
	/** Why a field is null, or what the EU said beside it (Submit's and Get's `dds_note`). */
	note: string | null;
}

const PREFIXES = [
	['dds_', 'due diligence statement'],
	['sd_', 'simplified declaration'],
] as const;

/**
 * The statement a row names: the fields Submit and Get put on input rows (`dds_…`, or `sd_…`
 * for a simplified declaration), else the EU Information System node's statement item (a
 * `uuid` with `referenceNumber` or `internalReferenceNumber`); undefined when it names none.
 */
export function statementOf(row: IDataObject): StatementFields | undefined {
	const s = (v: unknown) => {
		const t = str(v);
		return t === null || t.trim() === '' ? null : t;
	};
	for (const [p, kind] of PREFIXES) {
		if (s(row[`${p}uuid`]) === null && s(row[`${p}reference_number`]) === null) continue;
		return {
			kind,
			uuid: s(row[`${p}uuid`]),
			status: s(row[`${p}status`]),
			reference_number: s(row[`${p}reference_number`]),
			verification_number: s(row[`${p}verification_number`]),
			internal_reference: s(row[`${p}internal_reference`]),
			filed_by: s(row[`${p}filed_by`]),
			status_date: s(row[`${p}updated_at`]),
			environment: s(row[`${p}environment`]),
			rejection_reason: s(row[`${p}rejection_reason`]),
			note: s(row[`${p}note`]),
		};
	}
	const uuid = s(row.uuid);
	if (uuid === null || !('referenceNumber' in row || 'internalReferenceNumber' in row))
		return undefined;
	return {
		kind: 'due diligence statement',
		uuid,
		status: s(row.status),
		reference_number: s(row.referenceNumber),
		verification_number: s(row.verificationNumber),
		internal_reference: s(row.internalReferenceNumber),
		filed_by: s(row.filedBy),
		status_date: s(row.date),
		environment: s(row.environment),
		rejection_reason: s(row.rejectionReason),
		note: s(row.numbersNote),
	};
}

/** How a plot is coloured and counted: its worst known outcome. */
export type PlotOutcomeClass =
	| 'invalid'
	| 'analysis failed'
	| 'high risk'
	| 'medium risk'
	| 'low risk'
	| 'not known';

/** The outcome class of a plot from its validation and analysis (not known when neither says). */
export function outcomeClass(
	validation: ValidationRecord | null,
	analysis: AnalysisRecord | null,
): PlotOutcomeClass {
	if (validation?.valid === false) return 'invalid';
	if (analysis?.failed === true) return 'analysis failed';
	const risk = (str(analysis?.risk_level) ?? '').trim().toLowerCase();
	if (risk === 'high') return 'high risk';
	if (risk === 'medium') return 'medium risk';
	if (risk === 'low') return 'low risk';
	return 'not known';
}
