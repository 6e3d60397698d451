/**
 * The due-diligence record (issue 34, Deliver 3): time and size of one record — the plots as
 * filed (EU GeoJSON, every vertex), the record JSON, the map and the HTML page — for 1,000 plots
 * and for one 100,000-vertex plot, beside what keeping the input rows as JSON costs (the naive
 * record: the rows as they are, measured in the same run). Times are CPU time of this process
 * (the machine is shared), the best of three; sizes are bytes of the files n8n stores.
 *
 * - BENCH_RECORD_PLOTS (default 1,000): rows of 40-vertex plots (~1 ha) with Validate's,
 *   the analysis' and the statement's fields, as the flagship's rows carry them;
 * - BENCH_RECORD_VERTICES (default 100,000): one plot of a wiggly boundary (a survey of a
 *   large estate).
 */
import type { IDataObject } from 'n8n-workflow';

import type { PlotGeometry } from '../nodes/shared/geometry';
import type { RecordRow } from '../nodes/shared/record/dueDiligenceRecord';
import { buildRecord } from '../nodes/shared/record/dueDiligenceRecord';
import { rowGeometry } from '../nodes/shared/record/recordGeometry';
import { MAX_HTML_BYTES, recordHtml } from '../nodes/shared/record/recordHtml';
import { recordMap } from '../nodes/shared/record/recordMap';
import type { Ring } from './lib';
import { cpuMs, envNumber, fmt, jitteredCircle, prng, record, wiggly } from './lib';

const section = 'record';
const KB = 1024;

/** A row as the flagship's rows carry it: geometry, Validate's, the analysis' and the statement's fields. */
function rowOf(i: number, ring: Ring): IDataObject {
	const risk = ['Low', 'Low', 'Low', 'Medium', 'High'][i % 5];
	return {
		dds_status: 'AVAILABLE',
		dds_reference_number: '26FRXVV3VOAUD1',
		dds_verification_number: 'KQ2ZB4ZJ',
		dds_uuid: '0f3a9c1e-3b6d-4c2a-9e51-7d2b8f6a1c30',
		dds_internal_reference: 'PO-2026-0042',
		dds_filed_by: 'this run',
		dds_updated_at: '2026-05-20T10:20:01.000Z',
		dds_environment: 'acceptance',
		valid: true,
		problem_count: 0,
		problem_summary: null,
		plot_name: `Plot ${i + 1}`,
		plot_id: `plot-${i + 1}`,
		country: 'BR',
		geometry: { type: 'Polygon', coordinates: [ring] },
		validation: { problems: [], warnings: [], warning_count: 0, area_ha: 1.1 },
		risk_level: risk,
		risk_reason:
			risk === 'Low' ? 'No deforestation after 31 Dec 2020' : 'Deforestation of 0.4 ha in 2022',
		deforestation_free: risk === 'Low',
		protected_area_overlap: false,
		protected_area_overlap_reason: null,
		indigenous_land_overlap: false,
		indigenous_land_overlap_reason: null,
		failed: false,
		failure_reason: null,
		status: 'analysed',
		job_id: 'job-1',
		analysis_end: '2026-05-01',
		analysis_version: '2026-04-15',
	};
}

/** What the operation does with the rows of one shipment (beyond n8n's own handling of items). */
function makeRecord(rows: IDataObject[]) {
	const shapes: PlotGeometry[][] = [];
	const recordRows: RecordRow[] = rows.map((json, item) => {
		const g = rowGeometry(
			'item',
			{ item: json },
			{
				country: 'BR',
				pointHa: { kind: 'missing' },
				pointHaField: 'Area of Points (Hectares)',
			},
		);
		shapes.push(g.shapes);
		return {
			item,
			plotId: json.plot_id as string,
			plotName: json.plot_name as string,
			producerCountry: 'BR',
			producerName: null,
			euFeature: g.eu,
			validationData: json,
			analysisData: json,
			statementData: json,
		};
	});
	const made = buildRecord({
		shipment: 'PO-2026-0042',
		decision: 'negligible',
		rule: 'Negligible when every plot is valid, Low risk, deforestation-free, with no overlap',
		rows: recordRows,
		madeAt: '2026-05-20T11:00:00.000Z',
		madeBy: { workflow_id: 'wf', workflow_name: 'Shipments', execution_id: '1', node: 'Record' },
	});
	const map = recordMap(made, shapes);
	const html = recordHtml(made, map);
	const json = JSON.stringify(made);
	return { html, json, map };
}

function best<T>(work: () => T): { ms: number; value: T } {
	let min: { ms: number; value: T } | undefined;
	for (let i = 0; i < 3; i++) {
		const start = cpuMs();
		const value = work();
		const r = { ms: cpuMs() - start, value };
		if (!min || r.ms < min.ms) min = r;
	}
	return min!;
}

function measure(
	name: string,
	rows: IDataObject[],
	targets: { ms: number; htmlKb: number; jsonRatio: number },
): void {
	const naive = best(() => JSON.stringify(rows));
	const ours = best(() => makeRecord(rows));
	const htmlBytes = Buffer.byteLength(ours.value.html, 'utf8');
	const jsonBytes = Buffer.byteLength(ours.value.json, 'utf8');
	const naiveBytes = Buffer.byteLength(naive.value, 'utf8');
	const caption = ours.value.map.svg === null ? ours.value.map.reason : ours.value.map.caption;
	console.log(`  ${name}: ${caption}`);
	record({
		section,
		name: `${name}: time (EU GeoJSON, record, map, page, JSON)`,
		value: ours.ms,
		unit: 'ms CPU',
		baseline: naive.ms,
		baselineLabel: 'the rows as JSON',
		target: `≤ ${fmt(targets.ms)} ms`,
		ok: ours.ms <= targets.ms,
	});
	record({
		section,
		name: `${name}: HTML page`,
		value: htmlBytes / KB,
		unit: 'KB',
		target: `≤ ${fmt(targets.htmlKb)} KB (cap ${fmt(MAX_HTML_BYTES / 1e6)} MB)`,
		ok: htmlBytes / KB <= targets.htmlKb,
	});
	record({
		section,
		name: `${name}: record.json`,
		value: jsonBytes / KB,
		unit: 'KB',
		baseline: naiveBytes / KB,
		baselineLabel: 'the rows as JSON',
		target: `≤ ${targets.jsonRatio}× the rows`,
		ok: jsonBytes <= targets.jsonRatio * naiveBytes,
	});
}

export async function recordBench(): Promise<void> {
	console.log('\n## Due-diligence record (EU Information System → Due Diligence Record → Create)');
	const count = envNumber('BENCH_RECORD_PLOTS', 1000);
	const vertices = envNumber('BENCH_RECORD_VERTICES', 100_000);
	const random = prng(34);
	const side = Math.ceil(Math.sqrt(count));
	const rows = Array.from({ length: count }, (_, i) =>
		rowOf(i, jitteredCircle(40, -55.5 + (i % side) * 0.0015, -6.7 + Math.floor(i / side) * 0.0015, 0.0006, random)),
	); // prettier-ignore
	measure(`${fmt(count)} plots of 40 vertices`, rows, { ms: 1500, htmlKb: 2048, jsonRatio: 1.5 });
	measure(`one ${fmt(vertices)}-vertex plot`, [rowOf(0, wiggly(vertices))], {
		ms: 1500,
		htmlKb: 1024,
		jsonRatio: 1.2,
	});
}
