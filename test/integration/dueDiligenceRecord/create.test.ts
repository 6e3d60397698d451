/**
 * EU Information System → Due Diligence Record → Create through n8n's engine: the input rows
 * grouped by Shipment into one item each, with the record as the item's JSON and as two files
 * (record.json, the HTML page) that n8n's binary viewer shows; no credential, nothing sent;
 * what cannot make one record is refused before anything, naming the item and the field. Also
 * the operation's `__schema__` file (recorded with UPDATE_OUTPUT_SCHEMAS=1).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'fs';
import { dirname, join } from 'path';

import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { DueDiligenceRecord } from '../../../nodes/shared/record/dueDiligenceRecord';
import { CredentialStore } from '../../helpers/engine';
import type { OutputSchema } from '../../helpers/outputSchema';
import { misfits, schemaOfOutputs } from '../../helpers/outputSchema';
import { analysed, filed, square, validated } from '../../unit/record/fixtures';
import { runEu } from '../euInformationSystem/helpers';

const SCHEMA = join(
	__dirname,
	'../../../nodes/EuInformationSystem/__schema__/v1.0.0/dueDiligenceRecord/create.json',
);

const record = async (input: IDataObject[], parameters: INodeParameters = {}, continueOnFail = false) =>
	await runEu({
		parameters: { resource: 'dueDiligenceRecord', operation: 'create', ...parameters },
		input,
		store: new CredentialStore(),
		withCredential: false,
		continueOnFail,
	}); // prettier-ignore

const fileOf = (item: INodeExecutionData, field: string) => {
	const binary = item.binary![field];
	return { binary, text: Buffer.from(binary.data, 'base64').toString('utf8') };
};

/** Rows of two shipments as Get puts them out with the statement fields (Validate's and the analysis' fields merged on). */
const shipmentRows = (): IDataObject[] => [
	{ geometry: square(-5.3, 6.8), country: 'CI', internal_reference: 'PO-1', ...validated(true), ...analysed('p1', 'Low'), ...filed('u-1') },
	{ geometry: square(-5.29, 6.8), country: 'CI', internal_reference: 'PO-1', ...validated(true), ...analysed('p2', 'Low'), ...filed('u-1') },
	{ geometry: square(-1.6, 6.6), country: 'Ghana', internal_reference: 'PO-2', ...validated(true), ...analysed('p3', 'High') },
]; // prettier-ignore

const DECIDED: INodeParameters = {
	shipment: '={{ $json.internal_reference }}',
	riskDecision: "={{ $json.internal_reference === 'PO-1' ? 'negligible' : 'needs mitigation' }}",
	riskRule: 'Negligible when every plot is Low risk',
};

describe('Due Diligence Record → Create (through the n8n engine)', () => {
	it('makes one record per shipment, paired with its items, as JSON and two files; no credential', async () => {
		const { items, error } = await record(shipmentRows(), DECIDED);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		expect(items.map((i) => i.pairedItem)).toEqual([
			[{ item: 0 }, { item: 1 }],
			[{ item: 2 }],
		]);
		const [po1, po2] = items.map((i) => i.json as unknown as DueDiligenceRecord);
		expect(po1).toMatchObject({
			shipment: 'PO-1',
			decision: { risk: 'negligible', rule: 'Negligible when every plot is Low risk' },
			items: [0, 1],
			summary: { plots: 2, valid: 2, risk_levels: { Low: 2 }, eu_features: 2 },
			made_by: { node: 'Geospatial Analysis', workflow_name: 'test' },
		});
		expect(po1.made_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
		expect(po1.statements).toEqual([expect.objectContaining({ uuid: 'u-1', reference_number: '26FRXVV3VOAUD1', verification_number: 'KQ2ZB4ZJ', environment: 'acceptance' })]); // prettier-ignore
		expect(po2).toMatchObject({ shipment: 'PO-2', decision: { risk: 'needs mitigation' }, statements: [] });
		expect(po2.statement_reason).toMatch(/nothing filed/);
		expect(po2.plots[0].eu_geojson).toMatchObject({ features: [{ properties: { ProducerCountry: 'GH' } }] });

		const json = fileOf(items[0], 'json');
		expect(json.binary).toMatchObject({ fileName: 'record-PO-1.json', mimeType: 'application/json', fileType: 'json' });
		expect(JSON.parse(json.text)).toEqual(items[0].json);
		const html = fileOf(items[0], 'html');
		// viewable in n8n 1.x and 2.x: a media type on the viewer's list, shown as a page (fileType html)
		expect(html.binary).toMatchObject({ fileName: 'record-PO-1.html', mimeType: 'text/plain', fileType: 'html', fileExtension: 'html' });
		expect(html.text).toMatch(/^<!DOCTYPE html>/);
		expect(html.text).toContain('26FRXVV3VOAUD1');
		expect(html.text).toContain('Negligible risk');
	}); // prettier-ignore

	it('makes one record of every item when Shipment is empty; options name the files and fields', async () => {
		const { items, error } = await record(shipmentRows(), {
			options: { fileName: 'dd', htmlField: 'page', jsonField: 'data', htmlMimeType: 'text/html' },
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		const r = items[0].json as unknown as DueDiligenceRecord;
		expect(r.shipment).toBeNull();
		expect(r.items).toEqual([0, 1, 2]);
		expect(r.decision.risk).toBeNull();
		expect(r.decision.risk_reason).toMatch(/no risk decision/);
		expect(Object.keys(items[0].binary!).sort()).toEqual(['data', 'page']);
		expect(items[0].binary!.page).toMatchObject({ fileName: 'dd.html', mimeType: 'text/html' });
		expect(items[0].binary!.data.fileName).toBe('dd.json');
	});

	it("reads the parts from other nodes' rows through expressions (Options → … Data)", async () => {
		const rows = shipmentRows().map((r) => ({
			geometry: r.geometry,
			country: r.country,
			fromValidate: { valid: r.valid, problem_count: r.problem_count, problem_summary: r.problem_summary },
			fromWait: { plot_id: r.plot_id, risk_level: r.risk_level, deforestation_free: r.deforestation_free },
		})); // prettier-ignore
		const { items, error } = await record(rows, {
			options: {
				validationData: '={{ $json.fromValidate }}',
				analysisData: '={{ $json.fromWait }}',
			},
		});
		expect(error).toBeUndefined();
		const r = items[0].json as unknown as DueDiligenceRecord;
		expect(r.plots.map((p) => [p.plot_id, p.validation?.valid, p.analysis?.risk_level])).toEqual([
			['p1', true, 'Low'],
			['p2', true, 'Low'],
			['p3', true, 'High'],
		]);
		expect(r.plots[0].analysis!.not_in_input).toContain('protected_area_overlap');
		// an expression that finds nothing for an item: nothing for that part, not the item's own fields
		const none = await record(shipmentRows(), {
			options: { validationData: '={{ $json.plot_id === "p2" ? undefined : $json }}' },
		});
		const plots = (none.items[0].json as unknown as DueDiligenceRecord).plots;
		expect(plots.map((p) => p.validation?.valid ?? null)).toEqual([true, null, true]);
		expect(plots[1].validation_reason).toMatch(/Options → Validation Data/);
	});

	it('refuses before anything a shipment with two decisions, a Shipment empty on some items, a Decision it cannot read', async () => {
		const rows = shipmentRows();
		const two = await record(rows, { ...DECIDED, riskDecision: '={{ $json.plot_id === "p2" ? "needs mitigation" : "negligible" }}' }); // prettier-ignore
		expect(two.items).toHaveLength(0);
		expect(two.error?.message).toMatch(/Item 1, field "Decision": it is needs mitigation, while item 0 of the same shipment gives negligible/);
		const some = await record(rows, { shipment: '={{ $json.dds_internal_reference }}' });
		expect(some.error?.message).toMatch(/Item 2, field "Shipment": it is empty, while item 0 has a shipment/);
		const unreadable = await record(rows, { riskDecision: '={{ "maybe" }}' });
		expect(unreadable.error?.message).toMatch(/field "Decision": "maybe" is not a decision/);
		// with Continue On Fail, the bad item is an error item and the others make their record
		const going = await record(rows, { ...DECIDED, riskDecision: '={{ $json.plot_id === "p3" ? "maybe" : "negligible" }}' }, true); // prettier-ignore
		expect(going.items.map((i) => (i.json.error ? 'error' : i.json.shipment))).toEqual(['PO-1', 'error']);
	}); // prettier-ignore

	it('escapes a hostile plot name in the page and redacts a key in the record', async () => {
		const hostile = '<script>alert(1)</script><img src=x onerror=alert(2)>';
		const rows = [{ geometry: square(1, 1), country: 'BR', plot_name: hostile, ...analysed('p', 'Low', { plot_name: hostile, risk_reason: 'key service_live_abcdef123456' }) }]; // prettier-ignore
		const { items } = await record(rows);
		const html = fileOf(items[0], 'html').text;
		expect(html).not.toMatch(/<script|<img/);
		expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
		expect(JSON.stringify(items[0])).not.toContain('abcdef123456');
	});

	// every version of the node has it (the editor asks for <version>/dueDiligenceRecord/create.json)
	it.each(['v1.0.0', 'v1.1.0'])('has the __schema__ file of its output (%s)', async (version) => {
		const file = SCHEMA.replace('/v1.0.0/', `/${version}/`);
		const { items } = await record(shipmentRows(), DECIDED);
		const outputs = items.map((i) => i.json);
		const generated = schemaOfOutputs(outputs);
		if (process.env.UPDATE_OUTPUT_SCHEMAS === '1') {
			mkdirSync(dirname(file), { recursive: true });
			writeFileSync(file, JSON.stringify(generated, null, '\t') + '\n');
		}
		expect(existsSync(file)).toBe(true);
		const committed = JSON.parse(readFileSync(file, 'utf8')) as OutputSchema;
		expect(outputs.flatMap((json) => misfits(json, committed))).toEqual([]);
		expect(committed).toEqual(generated);
	});
});
