/**
 * The due-diligence record of one shipment (EUDR Art. 9–12: what was collected, how the risk was
 * assessed and decided, what was filed), made from the input rows of the shipment: per plot its
 * geolocation as filed (the EU GeoJSON feature, written by Plot → Export's writer), its
 * validation and analysis outcomes (plotRecord.ts), the statements the rows name, and the
 * user's risk decision with the rule that made it. Nothing is looked up, nothing invented: a
 * part the rows do not give is null with a reason. Secrets are redacted in the whole record
 * (recordRedaction.ts) before it is written anywhere. Pure: no n8n imports.
 */
import type { IDataObject } from 'n8n-workflow';

import { str } from '../values/answerValues';
import type {
	AnalysisRecord,
	PlotOutcomeClass,
	StatementFields,
	ValidationRecord,
} from './plotRecord';
import { analysisOf, outcomeClass, statementOf, validationOf } from './plotRecord';
import { redactDeep } from './recordRedaction';

export const RECORD_KIND = 'EUDR due-diligence record';
/** The shape of the record: raised when a field changes meaning or goes. */
export const RECORD_FORMAT = 1;

/** The user's risk decision (EUDR Art. 10–11): negligible, or mitigation needed first. */
export type RiskDecision = 'negligible' | 'needs mitigation';

/** A plot's geolocation as filed: its EU GeoJSON FeatureCollection (and its UTF-8 bytes), or why there is none. */
export type EuFeatureOutcome =
	| { geojson: IDataObject; bytes: number }
	| { geojson: null; reason: string };

/** One input row of the shipment, as the operation read it. */
export interface RecordRow {
	/** The input item's index. */
	item: number;
	plotId: string | null;
	plotName: string | null;
	producerCountry: string | null;
	producerName: string | null;
	euFeature: EuFeatureOutcome;
	/** Where Validate's fields, the analysis row and the statement fields are read. */
	validationData: IDataObject;
	analysisData: IDataObject;
	statementData: IDataObject;
}

export interface RecordInput {
	/** The Shipment key shared by the rows; null when every input item makes one record. */
	shipment: string | null;
	decision: RiskDecision | null;
	rule: string | null;
	rows: readonly RecordRow[];
	/** When the record is made (ISO 8601). */
	madeAt: string;
	madeBy: { workflow_id: string | null; workflow_name: string | null; execution_id: string | null; node: string }; // prettier-ignore
}

export interface PlotEntry {
	item: number;
	plot_id: string | null;
	plot_name: string | null;
	producer_country: string | null;
	producer_name: string | null;
	/** The worst outcome known: what the plot is coloured and counted by. */
	outcome: PlotOutcomeClass;
	validation: ValidationRecord | null;
	validation_reason: string | null;
	analysis: AnalysisRecord | null;
	analysis_reason: string | null;
	/** The UUID of the statement the row names (null: none). */
	statement_uuid: string | null;
	/** The plot's EU GeoJSON as filed (a FeatureCollection: ProducerCountry, Area of a point), never simplified. */
	eu_geojson: IDataObject | null;
	eu_geojson_reason: string | null;
}

export interface StatementEntry extends StatementFields {
	/** The date it was filed: the status date of a SUBMITTED statement, otherwise null (see filed_at_reason). */
	filed_at: string | null;
	filed_at_reason: string | null;
	/** Fields the input did not give (they are null). */
	not_in_input: string[];
	/** The input items that name it. */
	items: number[];
}

export interface RecordSummary {
	plots: number;
	by_outcome: Record<PlotOutcomeClass, number>;
	valid: number;
	invalid: number;
	validation_not_known: number;
	analysed: number;
	analysis_failed: number;
	analysis_not_known: number;
	risk_levels: Record<string, number>;
	not_deforestation_free: number;
	protected_area_overlaps: number;
	indigenous_land_overlaps: number;
	/** Features of the plots' EU GeoJSON, and its UTF-8 bytes (the plots' FeatureCollections together). */
	eu_features: number;
	eu_geojson_bytes: number;
}

export interface DueDiligenceRecord {
	record: typeof RECORD_KIND;
	record_format: typeof RECORD_FORMAT;
	shipment: string | null;
	shipment_reason: string | null;
	made_at: string;
	made_by: RecordInput['madeBy'];
	decision: {
		risk: RiskDecision | null;
		risk_reason: string | null;
		rule: string | null;
		rule_reason: string | null;
	};
	statements: StatementEntry[];
	statement_reason: string | null;
	summary: RecordSummary;
	plots: PlotEntry[];
	/** The input items of the record. */
	items: number[];
}

const FILED_AT_REASON =
	"the EU Information System gives the date of a statement's current status (status_date), not the date it was filed; that is the filing date only while the status is SUBMITTED";

/** The statements the rows name, once each (by UUID, else by reference number), in order. */
function statementsOf(rows: readonly RecordRow[]): StatementEntry[] {
	const byKey = new Map<string, StatementEntry>();
	for (const row of rows) {
		const s = statementOf(row.statementData);
		if (!s) continue;
		const key = s.uuid ?? `ref:${s.reference_number}`;
		const known = byKey.get(key);
		if (known) {
			known.items.push(row.item);
			// a later row may know more (e.g. the numbers after Get): fill what is still null
			for (const k of Object.keys(s) as Array<keyof StatementFields>)
				if (known[k] === null && s[k] !== null) (known as unknown as IDataObject)[k] = s[k];
			continue;
		}
		byKey.set(key, {
			...s,
			filed_at: null,
			filed_at_reason: null,
			not_in_input: [],
			items: [row.item],
		});
	}
	const out = [...byKey.values()];
	for (const s of out) {
		if (s.status === 'SUBMITTED' && s.status_date !== null) s.filed_at = s.status_date;
		else s.filed_at_reason = FILED_AT_REASON;
		s.not_in_input = (
			[
				'uuid',
				'status',
				'reference_number',
				'verification_number',
				'internal_reference',
				'filed_by',
				'status_date',
				'environment',
			] as const
		).filter((k) => s[k] === null);
	}
	return out;
}

function plotEntry(row: RecordRow): PlotEntry {
	const { validation, reason: validationReason } = validationOf(row.validationData);
	const { analysis, reason: analysisReason } = analysisOf(row.analysisData);
	const statement = statementOf(row.statementData);
	const eu = row.euFeature;
	return {
		item: row.item,
		plot_id: row.plotId,
		plot_name: row.plotName,
		producer_country: row.producerCountry,
		producer_name: row.producerName,
		outcome: outcomeClass(validation, analysis),
		validation,
		validation_reason: validationReason,
		analysis,
		analysis_reason: analysisReason,
		statement_uuid: statement?.uuid ?? null,
		eu_geojson: eu.geojson,
		eu_geojson_reason: eu.geojson === null ? eu.reason : null,
	};
}

const OUTCOMES: PlotOutcomeClass[] = [
	'invalid',
	'analysis failed',
	'high risk',
	'medium risk',
	'low risk',
	'not known',
];

function summaryOf(plots: readonly PlotEntry[], rows: readonly RecordRow[]): RecordSummary {
	const by_outcome = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<
		PlotOutcomeClass,
		number
	>;
	const risk_levels: Record<string, number> = {};
	const s: RecordSummary = {
		plots: plots.length,
		by_outcome,
		valid: 0,
		invalid: 0,
		validation_not_known: 0,
		analysed: 0,
		analysis_failed: 0,
		analysis_not_known: 0,
		risk_levels,
		not_deforestation_free: 0,
		protected_area_overlaps: 0,
		indigenous_land_overlaps: 0,
		eu_features: 0,
		eu_geojson_bytes: 0,
	};
	for (const p of plots) {
		by_outcome[p.outcome]++;
		const valid = p.validation?.valid;
		if (valid === true) s.valid++;
		else if (valid === false) s.invalid++;
		else s.validation_not_known++;
		const a = p.analysis;
		if (a?.failed === true) s.analysis_failed++;
		else if (
			a !== null &&
			(a.status === 'analysed' || (a.failed === false && a.risk_level !== null))
		)
			s.analysed++;
		else s.analysis_not_known++;
		const risk = str(a?.risk_level);
		if (risk !== null && risk !== '') risk_levels[risk] = (risk_levels[risk] ?? 0) + 1;
		if (a?.deforestation_free === false) s.not_deforestation_free++;
		if (a?.protected_area_overlap === true) s.protected_area_overlaps++;
		if (a?.indigenous_land_overlap === true) s.indigenous_land_overlaps++;
	}
	for (const r of rows)
		if (r.euFeature.geojson !== null) {
			const features = r.euFeature.geojson.features;
			s.eu_features += Array.isArray(features) ? features.length : 0;
			s.eu_geojson_bytes += r.euFeature.bytes;
		}
	return s;
}

/** The record of one shipment, with every secret redacted. */
export function buildRecord(input: RecordInput): DueDiligenceRecord {
	const plots = input.rows.map(plotEntry);
	const statements = statementsOf(input.rows);
	const record: DueDiligenceRecord = {
		record: RECORD_KIND,
		record_format: RECORD_FORMAT,
		shipment: input.shipment,
		shipment_reason:
			input.shipment === null ? 'no Shipment was given: every input item is in this record' : null,
		made_at: input.madeAt,
		made_by: input.madeBy,
		decision: {
			risk: input.decision,
			risk_reason:
				input.decision === null
					? 'the workflow gave no risk decision (Decision: Not Stated)'
					: null,
			rule: input.rule,
			rule_reason: input.rule === null ? 'the workflow gave no rule (Rule is empty)' : null,
		},
		statements,
		statement_reason:
			statements.length === 0
				? 'no input item names a statement (dds_uuid, dds_reference_number, or a statement of the EU Information System node): nothing filed is recorded for this shipment'
				: null,
		summary: summaryOf(plots, input.rows),
		plots,
		items: input.rows.map((r) => r.item),
	};
	return redactDeep(record) as DueDiligenceRecord;
}
