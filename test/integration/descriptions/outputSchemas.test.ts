/**
 * The `__schema__` files n8n's editor loads for the action node before it has run
 * (`GET /schemas/<node type>/<version>/<resource>/<operation>.json`, read from
 * `dist/nodes/GeospatialAnalysis/__schema__/v<x.y.z>/<resource>/<operation>.json`): one per
 * operation and node version, built from the outputs each operation gives at its defaults
 * through n8n's engine against the fake. This test records those outputs and requires every
 * key of every output to be in the committed schema with its type, and the committed schema
 * to be exactly the one the outputs give (no key the node no longer writes).
 * `npm run schemas` (UPDATE_OUTPUT_SCHEMAS=1) writes the files anew.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'fs';
import { dirname, join } from 'path';

import type {
	IDataObject,
	INodeParameters,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';

import { GeospatialAnalysis } from '../../../nodes/GeospatialAnalysis/GeospatialAnalysis.node';
import { GeospatialAnalysisTrigger } from '../../../nodes/GeospatialAnalysisTrigger/GeospatialAnalysisTrigger.node';
import { runNode } from '../../helpers/engine';
import { fileItem } from '../../helpers/geoFileTests';
import type { OutputSchema } from '../../helpers/outputSchema';
import { misfits, schemaOfOutputs } from '../../helpers/outputSchema';
import { CredentialStore, makeJob, runPoll } from '../../helpers/poll';
import { fake, storeWithApiKey, useFakeService } from '../../helpers/fakeService';

const FAILING = 'Plot whose analysis fails';
const SCHEMA_DIR = join(__dirname, '../../../nodes/GeospatialAnalysis/__schema__');
const UPDATE = process.env.UPDATE_OUTPUT_SCHEMAS === '1';

const versioned = new GeospatialAnalysis();
const VERSIONS = Object.keys(versioned.nodeVersions).map(Number);

/** `1` → `v1.0.0`, `2.1` → `v2.1.0` (n8n pads the version the editor asks for). */
const versionDir = (v: number) =>
	`v${String(v).split('.').concat(['0', '0']).slice(0, 3).join('.')}`;
const schemaFile = (v: number, resource: string, operation: string) =>
	join(SCHEMA_DIR, versionDir(v), resource, `${operation}.json`);
/** A node without resource and operation (the trigger): `__schema__/v1.0.0.json`. */
const TRIGGER_SCHEMA_DIR = join(__dirname, '../../../nodes/GeospatialAnalysisTrigger/__schema__');

/** Writes the schema (UPDATE_OUTPUT_SCHEMAS=1), then checks the committed file against the outputs. */
function checkSchemaFile(file: string, outputs: IDataObject[]): void {
	expect(outputs.length).toBeGreaterThan(0);
	const generated = schemaOfOutputs(outputs);
	if (UPDATE) {
		mkdirSync(dirname(file), { recursive: true });
		writeFileSync(file, JSON.stringify(generated, null, '\t') + '\n');
	}
	expect(existsSync(file)).toBe(true);
	const committed = JSON.parse(readFileSync(file, 'utf8')) as OutputSchema;
	// what the editor requires of a schema (n8n's schemaPreview store)
	expect(committed.type).toBe('object');
	expect(Object.keys(committed.properties ?? {}).length).toBeGreaterThan(0);
	expect(outputs.flatMap((json) => misfits(json, committed))).toEqual([]);
	expect(committed).toEqual(generated);
}

/** Every resource/operation pair a node version offers. */
function operationsOf(version: number): Array<[string, string]> {
	const description = versioned.nodeVersions[version].description as INodeTypeDescription;
	const pairs: Array<[string, string]> = [];
	for (const p of description.properties) {
		const resources = p.displayOptions?.show?.resource;
		if (p.name !== 'operation' || !Array.isArray(resources)) continue;
		for (const o of (p.options ?? []) as INodePropertyOptions[])
			for (const r of resources) pairs.push([String(r), String(o.value)]);
	}
	return pairs;
}

describe('output schemas (__schema__) for the editor, from outputs at the defaults', () => {
	// the contract's shapes (the default variant), whatever FAKE_VARIANT says
	useFakeService({ perPlotDurationMs: 1000, failingPlotNames: [FAILING], variant: {} });

	/** The json of what each operation gave, per version: `resource.operation` → items. */
	const recorded = new Map<number, Map<string, IDataObject[]>>();

	/** Runs the operations of one node version at their defaults (only what they need set). */
	async function record(typeVersion: number): Promise<Map<string, IDataObject[]>> {
		const outputs = new Map<string, IDataObject[]>();
		const store = storeWithApiKey(fake);
		const run = async (parameters: INodeParameters, input?: IDataObject[]) => {
			const { items, error } = await runNode({ parameters, input, store, typeVersion });
			if (error)
				throw new Error(`${parameters.resource}.${parameters.operation}: ${error.message}`);
			const key = `${parameters.resource}.${parameters.operation}`;
			outputs.set(key, [...(outputs.get(key) ?? []), ...items.map((i) => i.json)]);
			return items.map((i) => i.json);
		};
		// three plots given as latitude/longitude columns with a name, a commodity (the analyses
		// need one) and an area: one in a protected area (Jamanxim), one outside, one whose
		// analysis fails (so that the failure fields have their type)
		const rows = [
			{ name: 'In Jamanxim', latitude: '-6.712345', longitude: '-55.512345', ha: '2', crop: 'soy' },
			{ name: 'Outside', latitude: '-12.012345', longitude: '-50.012345', ha: '1.5', crop: 'soy' },
			{ name: FAILING, latitude: '-12.112345', longitude: '-50.112345', ha: '', crop: 'soy' },
		];
		const plotFields = {
			plotName: '={{ $json.name }}',
			commodity: '={{ $json.crop }}',
			pointHa: '={{ $json.ha }}',
			harvestDate: '2025-03-01',
		};
		// Validate passes the input's columns through: the schema has only what it adds
		const validated = await run({ resource: 'plot', operation: 'validate', plotFields }, [
			...rows,
			{ name: 'Swapped', latitude: '-55.512345', longitude: '-6.712345', ha: '1', crop: 'soy' },
			{ name: 'Big', latitude: '-6.812345', longitude: '-55.612345', ha: '6', crop: 'soy' },
			{ name: 'Bananas', latitude: '-6.912345', longitude: '-55.712345', ha: '1', crop: 'bananas' },
			{ name: 'Same place', latitude: '-6.712345', longitude: '-55.512345', ha: '2', crop: 'soy' },
		]);
		// lat/lon rows are points, which never overlap: two overlapping polygons (GeoJSON, a
		// second run) so that the items of `validation.overlaps` have their fields in the schema
		const square = (west: number, south: number) => ({
			type: 'Feature',
			properties: {},
			geometry: {
				type: 'Polygon',
				coordinates: [
					[
						[west, south],
						[west + 0.001001, south],
						[west + 0.001001, south + 0.001001],
						[west, south + 0.001001],
						[west, south],
					].map(([x, y]) => [Number(x.toFixed(6)), Number(y.toFixed(6))]),
				],
			},
		});
		const polygons = [
			{ name: 'Field A', geojson: square(-50.012345, -12.012345) },
			{ name: 'Field B (overlaps A)', geojson: square(-50.011845, -12.011845) },
		];
		const overlapping = await run(
			{
				resource: 'plot',
				operation: 'validate',
				geometrySource: 'geoJson',
				geoJson: '={{ $json.geojson }}',
				plotFields,
			},
			polygons,
		);
		// the recorded input's columns must give the overlap (else the schema would lack it)
		// version 3's compact validation keeps the overlaps in its one nested field, details
		const overlaps = overlapping.map((json) => {
			const validation = json.validation as IDataObject;
			const nested = typeVersion >= 3 ? (validation.details as IDataObject) : validation;
			return nested.overlaps as IDataObject[];
		});
		expect(overlaps.map((list) => list.length)).toEqual([1, 1]);
		expect(overlaps[0][0]).toMatchObject({ overlap_ha: expect.any(Number) });
		const without = (input: IDataObject) => (json: IDataObject) =>
			Object.fromEntries(Object.entries(json).filter(([key]) => !(key in input)));
		outputs.set('plot.validate', [
			...validated.map(without(rows[0])),
			...overlapping.map(without(polygons[0])),
		]);
		// Read File: a supplier's KMZ and zipped Shapefile in the binary field `data`
		const files = ['cooperativa-nested-folders.kmz', 'fazendas-utm22s-latin1.zip'].map((name) =>
			fileItem(name),
		);
		const read = await runNode({
			parameters: { resource: 'plot', operation: 'readFile' },
			inputItems: files,
			store,
			typeVersion,
		});
		if (read.error) throw new Error(`plot.readFile: ${read.error.message}`);
		// `properties` are the file's own attributes (here the fixtures' owner, planted, Name, …):
		// another user's file has others, so the schema keeps `properties` as an object without
		// listing one fixture's attribute names as if every file had them (the editor would offer
		// them for mapping). Recorded with their children stripped; the rest as it came.
		const readItems = read.items.map((i) => i.json);
		expect(readItems.some((json) => Object.keys(json.properties as object).length > 0)).toBe(true);
		// one of the files gives a warning, so that `warnings` has its item type
		expect(readItems.some((json) => (json.warnings as unknown[]).length > 0)).toBe(true);
		outputs.set(
			'plot.readFile',
			readItems.map((json) => ({ ...json, properties: {} })),
		);
		const plots = await run({ resource: 'plot', operation: 'register', plotFields }, rows);
		await run({ resource: 'plot', operation: 'get', plotId: '={{ $json.plot_id }}' }, plots);
		await run({ resource: 'plot', operation: 'getMany' });
		await run({ resource: 'plot', operation: 'exportEu' }, plots);
		// one picture of the plots (version 3 on)
		if (typeVersion >= 3) await run({ resource: 'plot', operation: 'drawMap' }, plots);
		await run({ resource: 'protectedArea', operation: 'check' }, plots);
		await run({ resource: 'protectedArea', operation: 'get', areaId: '351814' });
		await run({ resource: 'job', operation: 'getQuote' }, plots);
		const jobs = await run({ resource: 'job', operation: 'create' }, plots);
		await run({ resource: 'job', operation: 'get' }, jobs);
		fake.clock.advance(60_000);
		await run({ resource: 'job', operation: 'waitForCompletion' }, jobs);
		await run({ resource: 'job', operation: 'get' }, jobs);
		await run({ resource: 'job', operation: 'getMany' });
		await run({ resource: 'job', operation: 'getResults' }, jobs);
		// a plot with its latest analysis
		await run({ resource: 'plot', operation: 'get', plotId: '={{ $json.plot_id }}' }, plots);
		await run({ resource: 'plot', operation: 'getMany' });
		const runs = await run(
			{ resource: 'analysisRun', operation: 'getMany', plotId: '={{ $json.plot_id }}' },
			plots,
		);
		await run({ resource: 'analysisRun', operation: 'get', runId: '={{ $json.run_id }}' }, runs);
		await run({ resource: 'capability', operation: 'getMany' });
		await run({ resource: 'account', operation: 'getTokenBalance' });
		return outputs;
	}

	beforeAll(async () => {
		for (const v of VERSIONS) recorded.set(v, await record(v));
	}, 120_000);

	for (const version of VERSIONS) {
		describe(`node version ${version} (${versionDir(version)})`, () => {
			for (const [resource, operation] of operationsOf(version)) {
				it(`${resource} → ${operation}: every key of the output is in the schema with its type`, () => {
					const outputs = recorded.get(version)?.get(`${resource}.${operation}`) ?? [];
					checkSchemaFile(schemaFile(version, resource, operation), outputs);
				});
			}
		});
	}
});

describe('output schema (__schema__) of the trigger, from what it emits at its defaults', () => {
	// n8n's editor asks for it (`/schemas/<trigger type>/1.0.0.json`) when the trigger is the
	// parent of an open panel and has not run
	useFakeService({ perPlotDurationMs: 1000, failingPlotNames: [FAILING], variant: {} });
	const trigger = new GeospatialAnalysisTrigger();
	const versions = [trigger.description.version].flat();

	it.each(versions)(
		'version %s: every key of the output is in the schema with its type',
		async (version) => {
			fake.reset();
			fake.clock.setScale(0);
			const store = new CredentialStore({
				geospatialAnalysisApi: { baseUrl: fake.url, apiKey: fake.users.alice.apiKey },
			});
			const baseline = await runPoll({ parameters: {}, store });
			expect(baseline.error).toBeUndefined();
			const [ok] = fake.seedPlots('alice', 1, { namePrefix: 'Farm', commodity: 'soy' });
			const apiKey = fake.users.alice.apiKey;
			await makeJob(fake.url, apiKey, { plot_ids: [ok], job_name: 'Weekly' });
			const failing = fake.seedPlots('alice', 1, { namePrefix: FAILING, commodity: 'soy' });
			fake.setFailingPlotIds(failing);
			await makeJob(fake.url, apiKey, { plot_ids: [ok, ...failing], job_name: 'With a failure' });
			fake.clock.advance(10 * 60_000);
			const polled = await runPoll({ parameters: {}, store, staticData: baseline.staticData });
			expect(polled.error).toBeUndefined();
			const outputs = (polled.items ?? []).map((i) => i.json);
			expect(outputs.length).toBe(2);
			checkSchemaFile(join(TRIGGER_SCHEMA_DIR, `${versionDir(version)}.json`), outputs);
		},
	);
});
