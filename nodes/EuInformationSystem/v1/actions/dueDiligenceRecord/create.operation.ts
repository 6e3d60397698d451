/**
 * Due Diligence Record → Create: one record per shipment (the input rows grouped by Shipment),
 * as the item's JSON and as two files: record.json and a self-contained HTML page with a map of
 * the plots coloured by outcome (shared/record/). Nothing is sent: no request, no credential.
 * Every item is read first (the runner's pre-flight): a Decision or Rule that differs within a
 * shipment, or a Shipment empty on some items only, is refused naming the item and the field.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { geometryValues } from '../../../../shared/descriptions/geometrySourceFields';
import type { OperationModule } from '../../../../shared/descriptions/operationModule';
import type { Reading } from '../../../../shared/input';
import { readCountry, readHectares, readJsonObject, readText } from '../../../../shared/input';
import { EU_POINT_MAX_HA } from '../../../../shared/plots/euExport';
import type { RecordRow, RiskDecision } from '../../../../shared/record/dueDiligenceRecord';
import { buildRecord } from '../../../../shared/record/dueDiligenceRecord';
import { recordHtml } from '../../../../shared/record/recordHtml';
import { recordMap } from '../../../../shared/record/recordMap';
import type { PlotGeometry } from '../../../../shared/geometry';
import { rowGeometry } from '../../../../shared/record/recordGeometry';
import type { Batch, Problems } from '../../../../shared/runner';
import { runItems } from '../../../../shared/runner';
import { isObject, str } from '../../../../shared/values/answerValues';
import { RECORD_AREA_FIELD, readDecision } from './recordFields';

export { description } from './recordFields';

interface Prepared {
	shipment: string | null;
	decision: RiskDecision | null;
	rule: string | null;
	row: RecordRow;
	shapes: PlotGeometry[];
}

const DATA_OPTIONS = [
	['validationData', 'Validation Data'],
	['analysisData', 'Analysis Data'],
	['statementData', 'Statement Data'],
] as const;

/**
 * An option giving an object (not set: the input item itself; `={{ $json }}` read directly).
 * An expression that gives nothing for an item (e.g. a lookup that found no row) gives the
 * record nothing for it (null with the reason), never the item's own fields instead.
 */
function dataOf(
	ctx: IExecuteFunctions,
	i: number,
	name: string,
	label: string,
	problems: Problems,
): IDataObject {
	const json = ctx.getInputData()[i]?.json ?? {};
	const raw = ctx.getNodeParameter(`options.${name}`, i, '', { rawExpressions: true });
	if (
		raw === '' ||
		raw === undefined ||
		(typeof raw === 'string' && /^=\{\{\s*\$json\s*\}\}$/.test(raw))
	)
		return json;
	const value = ctx.getNodeParameter(`options.${name}`, i, '');
	if (isObject(value)) return value;
	const read = readJsonObject(value);
	if (read.kind === 'value') return read.value as IDataObject;
	if (read.kind === 'invalid') problems.field(label, read.reason);
	return {};
}

/** What the first item of each shipment gave, to hold the others to it. */
interface FirstOfShipment {
	item: number;
	decision: RiskDecision | null;
	rule: string | null;
}

function prepareItem(
	ctx: IExecuteFunctions,
	i: number,
	problems: Problems,
	seen: { shipments: Map<string, FirstOfShipment>; withKey?: number; withoutKey?: number },
): Prepared {
	const param = (name: string) => ctx.getNodeParameter(name, i, '');
	const shipment = problems.take('Shipment', readText(param('shipment'))) ?? null;
	if (shipment === null) seen.withoutKey ??= i;
	else seen.withKey ??= i;
	if (shipment === null && seen.withKey !== undefined)
		problems.field(
			'Shipment',
			`it is empty, while item ${seen.withKey} has a shipment: give every item its shipment (e.g. the internal reference), or leave Shipment empty to make one record of all items.`,
		);
	else if (shipment !== null && seen.withoutKey !== undefined)
		problems.field(
			'Shipment',
			`it is "${shipment}", while item ${seen.withoutKey} has none: give every item its shipment (e.g. the internal reference), or leave Shipment empty to make one record of all items.`,
		);
	const decision = problems.take('Decision', readDecision(param('riskDecision'))) ?? null;
	const rule = problems.take('Rule', readText(param('riskRule'))) ?? null;
	const key = shipment ?? '';
	const first = seen.shipments.get(key);
	const which = shipment === null ? 'the other items' : `item ${first?.item} of the same shipment`;
	if (!first) seen.shipments.set(key, { item: i, decision, rule });
	else if (first.decision !== decision)
		problems.field('Decision', `it is ${decision ?? 'not stated'}, while ${which} gives ${first.decision ?? 'not stated'}: one shipment has one decision.`); // prettier-ignore
	else if (first.rule !== rule)
		problems.field('Rule', `it differs from the rule of ${which}: one shipment has one rule.`);

	const countryRead = readCountry(param('producerCountry'));
	if (countryRead.kind === 'invalid') problems.field('Producer Country', countryRead.reason);
	const area = readHectares(param('pointArea'), { min: 0, max: EU_POINT_MAX_HA });
	problems.take(RECORD_AREA_FIELD, area);
	const [validationData, analysisData, statementData] = DATA_OPTIONS.map(([name, label]) =>
		dataOf(ctx, i, name, label, problems),
	);
	const json = ctx.getInputData()[i]?.json ?? {};
	const { source, values } = geometryValues(ctx, i);
	const geometry = rowGeometry(source, values, {
		country: countryRead.kind === 'value' ? countryRead.value : undefined,
		pointHa: area.kind === 'invalid' ? { kind: 'missing' } : (area as Reading<number>),
		pointHaField: RECORD_AREA_FIELD,
	});
	const properties = isObject(json.properties) ? json.properties : {};
	const text = (...values: unknown[]) => {
		for (const v of values) {
			const s = str(v);
			if (s !== null && s.trim() !== '') return s;
		}
		return null;
	};
	return {
		shipment,
		decision,
		rule,
		shapes: geometry.shapes,
		row: {
			item: i,
			plotId: text(analysisData.plot_id, json.plot_id),
			plotName: text(analysisData.plot_name, json.plot_name, json.name, properties.name),
			producerCountry: countryRead.kind === 'value' ? countryRead.value : null,
			producerName: problems.take('Producer Name', readText(param('producerName'))) ?? null,
			euFeature: geometry.eu,
			validationData,
			analysisData,
			statementData,
		},
	};
}

/** `record`, or `record-<shipment>` with the shipment's characters safe in a file name. */
function fileBase(given: unknown, shipment: string | null): string {
	const name = typeof given === 'string' ? given.trim().replace(/\.(json|html?)$/i, '') : '';
	if (name !== '') return name;
	if (shipment === null) return 'record';
	const safe = shipment
		.replace(/[^\p{L}\p{N}._-]+/gu, '-')
		.replace(/^-+|-+$/g, '')
		.slice(0, 80);
	return safe === '' ? 'record' : `record-${safe}`;
}

async function recordOutput(
	ctx: IExecuteFunctions,
	group: Array<{ itemIndex: number; value: Prepared }>,
) {
	const first = group[0].value;
	const workflow = ctx.getWorkflow();
	const record = buildRecord({
		shipment: first.shipment,
		decision: first.decision,
		rule: first.rule,
		rows: group.map((g) => g.value.row),
		madeAt: new Date().toISOString(),
		madeBy: {
			workflow_id: str(workflow.id),
			workflow_name: str(workflow.name),
			execution_id: str(ctx.getExecutionId()),
			node: ctx.getNode().name,
		},
	});
	const html = recordHtml(
		record,
		recordMap(
			record,
			group.map((g) => g.value.shapes),
		),
	);
	const options = ctx.getNodeParameter('options', group[0].itemIndex, {}) as IDataObject;
	const base = fileBase(options.fileName, first.shipment);
	const field = (v: unknown, fallback: string) => (typeof v === 'string' && v.trim() ? v.trim() : fallback); // prettier-ignore
	const mime = options.htmlMimeType === 'text/html' ? 'text/html' : 'text/plain';
	const jsonFile = await ctx.helpers.prepareBinaryData(
		Buffer.from(JSON.stringify(record), 'utf8'),
		`${base}.json`,
		'application/json',
	);
	jsonFile.fileType = 'json';
	const htmlFile = await ctx.helpers.prepareBinaryData(
		Buffer.from(html, 'utf8'),
		`${base}.html`,
		mime,
	);
	// n8n's viewer shows fileType "html" as a page (sanitised, in an iframe): recordHtml.ts
	htmlFile.fileType = 'html';
	htmlFile.fileExtension = 'html';
	return {
		item: group.map((g) => g.itemIndex),
		json: record as unknown as IDataObject,
		binary: {
			[field(options.htmlField, 'html')]: htmlFile,
			[field(options.jsonField, 'json')]: jsonFile,
		},
	};
}

export const execute: OperationModule['execute'] = async function (items) {
	const seen = { shipments: new Map<string, FirstOfShipment>() };
	return await runItems<Prepared>(this, items, {
		prepare: (i, problems) => prepareItem(this, i, problems, seen),
		// one record per shipment, in the order of each shipment's first item
		plan: (ready) => {
			const groups = new Map<string, Array<{ itemIndex: number; value: Prepared }>>();
			for (const r of ready) {
				const key = r.value.shipment ?? '';
				const list = groups.get(key) ?? [];
				list.push(r);
				groups.set(key, list);
			}
			return [...groups.values()].map(
				(group): Batch => ({
					items: group.map((g) => g.itemIndex),
					send: async () => [await recordOutput(this, group)],
				}),
			);
		},
	});
};
