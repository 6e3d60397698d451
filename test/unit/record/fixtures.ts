/** Rows as the package's nodes output them, for the record's unit tests. */
import type { IDataObject } from 'n8n-workflow';

import type { RecordInput, RecordRow } from '../../../nodes/shared/record/dueDiligenceRecord';
import { rowGeometry } from '../../../nodes/shared/record/recordGeometry';

export { squarePlot as square } from '../../helpers/square';

/** Plot → Validate's fields (version 3, compact). */
export const validated = (valid: boolean, problems: string[] = []): IDataObject => ({
	valid,
	problem_count: problems.length,
	problem_summary: problems.length ? problems.join('; ') : null,
	validation: { problems, warnings: [], warning_count: 0 },
});

/** Job → Wait for Completion's simplified row of one plot. */
export const analysed = (plotId: string, risk: string, over: IDataObject = {}): IDataObject => ({
	plot_name: `Plot ${plotId}`,
	plot_id: plotId,
	risk_level: risk,
	risk_reason: risk === 'Low' ? 'No deforestation after 2020' : 'Deforestation of 2.1 ha in 2022',
	deforestation_free: risk === 'Low',
	protected_area_overlap: false,
	indigenous_land_overlap: false,
	failed: false,
	failure_reason: null,
	job_id: 'job-1',
	job_name: 'Shipment PO-1',
	job_status: 'done',
	status: 'analysed',
	results_reason: null,
	protected_area_overlap_reason: null,
	indigenous_land_overlap_reason: null,
	analysis_end: '2026-05-01',
	analysis_version: '2026-04-15',
	...over,
});

/** The statement fields Submit and Get put on an input row (i34-rows). */
export const filed = (uuid: string, over: IDataObject = {}): IDataObject => ({
	dds_status: 'AVAILABLE',
	dds_reference_number: '26FRXVV3VOAUD1',
	dds_verification_number: 'KQ2ZB4ZJ',
	dds_uuid: uuid,
	dds_internal_reference: 'PO-1',
	dds_filed_by: 'this run',
	dds_updated_at: '2026-05-20T10:20:01.000Z',
	dds_environment: 'acceptance',
	...over,
});

/** One row of a record: its JSON holds the geometry and every part's fields. */
export function row(item: number, json: IDataObject, country = 'CI'): RecordRow {
	const geometry = rowGeometry(
		'item',
		{ item: json },
		{
			country,
			pointHa: { kind: 'missing' },
			pointHaField: 'Area of Points (Hectares)',
		},
	);
	return {
		item,
		plotId: (json.plot_id as string) ?? null,
		plotName: (json.plot_name as string) ?? null,
		producerCountry: country,
		producerName: null,
		euFeature: geometry.eu,
		validationData: json,
		analysisData: json,
		statementData: json,
	};
}

export const input = (rows: RecordRow[], over: Partial<RecordInput> = {}): RecordInput => ({
	shipment: 'PO-1',
	decision: 'negligible',
	rule: 'Low risk, deforestation-free, no overlap',
	rows,
	madeAt: '2026-05-20T11:00:00.000Z',
	madeBy: { workflow_id: 'wf1', workflow_name: 'Shipments', execution_id: '42', node: 'Record' },
	...over,
});
