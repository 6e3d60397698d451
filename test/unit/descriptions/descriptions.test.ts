/**
 * Every expression the UI shows runs: each `{{ … }}` in a description, placeholder, hint or
 * option description, each `=` default and each node subtitle of both nodes (every version
 * of the action node, the trigger) and of the credentials is evaluated by n8n-workflow's
 * expression engine against a sample item, and must give a value. An expression that does
 * not run (`{{ $JSON.plot_id }}`: n8n's variable is `$json`) gives undefined and fails here.
 */
import type {
	ICredentialType,
	IDataObject,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { GeospatialAnalysisApi } from '../../../credentials/GeospatialAnalysisApi.credentials';
import { GeospatialAnalysisLoginApi } from '../../../credentials/GeospatialAnalysisLoginApi.credentials';
import { GeospatialAnalysis } from '../../../nodes/GeospatialAnalysis/GeospatialAnalysis.node';
import { GeospatialAnalysisTrigger } from '../../../nodes/GeospatialAnalysisTrigger/GeospatialAnalysisTrigger.node';
import { NodeTypesOf } from '../../helpers/nodeTypes';

/** An input item as users have them: every field a shown expression may read. */
const SAMPLE_ITEM: IDataObject = {
	plot_id: '100001',
	plot_ids: ['100001', '100002'],
	plot_name: 'Farm A',
	job_id: '7001',
	run_id: '500001',
	area_id: '351814',
	latitude: -15.793889,
	longitude: -47.882778,
	geojson: {
		type: 'Feature',
		properties: { name: 'Farm A' },
		geometry: {
			type: 'Polygon',
			coordinates: [
				[
					[-47.88, -15.79],
					[-47.87, -15.79],
					[-47.87, -15.78],
					[-47.88, -15.79],
				],
			],
		},
	},
	wkt: 'POINT (-47.882778 -15.793889)',
	commodity: 'cocoa',
	harvest_date: '2024-03-15',
	country: 'BR',
	point_ha: 2.5,
	notes: 'checked on site',
	status: 'done',
};

/** A credential as saved (made-up values, not secrets). */
const SAMPLE_CREDENTIALS: IDataObject = {
	baseUrl: 'https://api.example.com/',
	apiKey: 'service_live_' + 'abc',
	username: 'alice',
	password: 'not-a-secret',
	sessionToken: ['header', 'payload', 'signature'].join('.'),
};

interface Shown {
	/** Where the UI shows it, e.g. `geospatialAnalysis v1 › Plot IDs › description`. */
	where: string;
	/** The expression to evaluate, as a parameter value (`={{ … }}`). */
	expression: string;
}

const EXPRESSION = /\{\{[\s\S]*?\}\}/g;

/** Every `{{ … }}` in a text the UI shows, each as an expression of its own. */
function inText(where: string, text: unknown): Shown[] {
	if (typeof text !== 'string') return [];
	return [...text.matchAll(EXPRESSION)].map((m) => ({ where, expression: `=${m[0]}` }));
}

/** An `=` default is evaluated as it is, and each of its `{{ … }}` on its own. */
function inDefault(where: string, value: unknown): Shown[] {
	if (typeof value !== 'string' || !value.startsWith('=')) return [];
	const parts = inText(where, value.slice(1)).filter((part) => part.expression !== value);
	return [{ where, expression: value }, ...parts];
}

/** `[job: create, getQuote]` for a field shown for some operations only. */
function shownFor(p: INodeProperties): string {
	const show = p.displayOptions?.show ?? {};
	const list = (v: unknown) => (Array.isArray(v) ? v.join(', ') : '');
	const resource = list(show.resource);
	const operation = list(show.operation);
	return resource || operation ? ` [${[resource, operation].filter(Boolean).join(': ')}]` : '';
}

function isOption(
	o: INodePropertyOptions | INodeProperties | INodePropertyCollection,
): o is INodePropertyOptions {
	return 'value' in o && !('type' in o);
}

function isCollection(
	o: INodePropertyOptions | INodeProperties | INodePropertyCollection,
): o is INodePropertyCollection {
	return 'values' in o && Array.isArray((o as INodePropertyCollection).values);
}

/** Walks properties, nested collection and fixedCollection options included. */
function walk(properties: INodeProperties[], path: string, seen: { count: number }): Shown[] {
	const out: Shown[] = [];
	for (const p of properties) {
		seen.count++;
		const at = `${path} › ${p.displayName} (${p.name})${shownFor(p)}`;
		out.push(
			...inText(`${at} › displayName`, p.displayName),
			...inText(`${at} › description`, p.description),
			...inText(`${at} › placeholder`, p.placeholder),
			...inText(`${at} › hint`, p.hint),
			...inDefault(`${at} › default`, p.default),
		);
		for (const o of p.options ?? []) {
			if (isOption(o)) {
				const oat = `${at} › option "${o.name}"`;
				out.push(
					...inText(`${oat} › name`, o.name),
					...inText(`${oat} › description`, o.description),
					...inText(`${oat} › action`, o.action),
				);
			} else if (isCollection(o)) {
				out.push(...inText(`${at} › ${o.displayName} › displayName`, o.displayName));
				out.push(...walk(o.values, `${at} › ${o.displayName}`, seen));
			} else {
				out.push(...walk([o], at, seen));
			}
		}
	}
	return out;
}

const action = new GeospatialAnalysis();
const trigger = new GeospatialAnalysisTrigger();
const versions = Object.entries(action.nodeVersions).map(([version, type]) => ({
	version: Number(version),
	type,
}));
const credentialTypes: ICredentialType[] = [
	new GeospatialAnalysisApi(),
	new GeospatialAnalysisLoginApi(),
];

const nodeTypes = () =>
	new NodeTypesOf({
		'test.geospatialAnalysis': action,
		'test.geospatialAnalysisTrigger': trigger,
	});

const NODE_NAME = 'Geospatial Analysis';

/** A workflow holding one node of the given type, as n8n builds one (defaults filled in). */
function workflowWith(type: string, version: number, parameters: IDataObject): Workflow {
	return new Workflow({
		id: 'descriptions',
		name: 'descriptions',
		nodes: [
			{
				id: 'node',
				name: NODE_NAME,
				type,
				typeVersion: version,
				position: [0, 0],
				parameters: parameters as never,
			},
		],
		connections: {},
		active: false,
		nodeTypes: nodeTypes(),
	});
}

type Outcome = { value: unknown } | { error: string };

/** Evaluates one parameter value the way n8n does for the node of `workflow`, on the sample item. */
function evaluate(workflow: Workflow, expression: string): Outcome {
	try {
		const value = workflow.expression.getParameterValue(
			expression,
			null,
			0,
			0,
			NODE_NAME,
			[{ json: SAMPLE_ITEM }],
			'manual',
			{ $credentials: SAMPLE_CREDENTIALS } as never,
		);
		return { value };
	} catch (error) {
		return { error: (error as Error).message };
	}
}

/** The expressions that do not run: each with where it is shown and what it gave. */
function failures(workflow: Workflow, shown: Shown[]): string[] {
	return shown.flatMap(({ where, expression }) => {
		const got = evaluate(workflow, expression);
		if ('error' in got) return [`${where}: ${expression} throws "${got.error}"`];
		if (got.value === undefined || got.value === null)
			return [`${where}: ${expression} evaluates to ${String(got.value)}`];
		return [];
	});
}

describe('every expression shown in the UI runs', () => {
	it.each(versions)('action node v$version', ({ version, type }) => {
		const description = type.description as INodeTypeDescription;
		const seen = { count: 0 };
		const name = `${description.name} v${version}`;
		const shown = [
			...inDefault(`${name} › subtitle`, description.subtitle),
			...walk(description.properties, name, seen),
		];
		// the walk reaches the nested fields (a walk that sees nothing would pass anything)
		expect(seen.count).toBeGreaterThan(100);
		expect(shown.map((s) => s.where)).toEqual(
			expect.arrayContaining([
				// (the two descriptions that showed `{{ $JSON.… }}` now show no expression: n8n's lint
				// rule would uppercase any `$json` in a description)
				`${name} › Plot IDs (plotIds) [job: create] › default`,
				`${name} › Plot IDs (plotIds) [job: getQuote] › default`,
				// version 2 keeps the per-plot values in Options
				...(version >= 2
					? [
							`${name} › Options (options) [job: create] › Per-Plot Harvest Date (perPlotHarvestDate) › placeholder`,
							`${name} › Options (options) [job: create] › Per-Plot Commodity (perPlotCommodity) › placeholder`,
							`${name} › Options (options) [job: getQuote] › Per-Plot Commodity (perPlotCommodity) › placeholder`,
						]
					: [
							`${name} › Per-Plot Values (perPlot) [job: create] › Harvest Date (harvestDate) › placeholder`,
							`${name} › Per-Plot Values (perPlot) [job: create] › Commodity (commodity) › placeholder`,
						]),
				`${name} › GeoJSON (geoJson) [plot: register] › default`,
			]),
		);
		const workflow = workflowWith('test.geospatialAnalysis', version, {
			resource: 'job',
			operation: 'create',
		});
		expect(failures(workflow, shown)).toEqual([]);
	});

	it('trigger node', () => {
		const description = trigger.description;
		const seen = { count: 0 };
		const name = description.name;
		const shown = [
			...inDefault(`${name} › subtitle`, description.subtitle),
			...walk(description.properties, name, seen),
		];
		expect(seen.count).toBeGreaterThan(5);
		expect(shown.length).toBeGreaterThan(0);
		const workflow = workflowWith(
			'test.geospatialAnalysisTrigger',
			Math.max(...[description.version].flat()),
			{},
		);
		expect(failures(workflow, shown)).toEqual([]);
	});

	it.each(credentialTypes.map((c) => [c.name, c] as const))(
		'credential %s',
		(_name, credential) => {
			const seen = { count: 0 };
			const shown = walk(credential.properties, credential.name, seen);
			expect(seen.count).toBe(credential.properties.length);
			// the request templates n8n resolves with $credentials run too
			const templates = JSON.stringify([credential.authenticate, credential.test]);
			for (const value of (JSON.parse(templates) as unknown[]).flatMap(function strings(
				v: unknown,
			): string[] {
				if (typeof v === 'string') return [v];
				if (v && typeof v === 'object') return Object.values(v).flatMap(strings);
				return [];
			}))
				shown.push(...inDefault(`${credential.name} › request template`, value));
			expect(shown.length).toBeGreaterThan(0);
			const workflow = workflowWith('test.geospatialAnalysis', 1, {});
			expect(failures(workflow, shown)).toEqual([]);
		},
	);
});

describe('the check itself', () => {
	const workflow = workflowWith('test.geospatialAnalysis', 1, {});

	it.each([
		['a miscased variable', '{{ $JSON.plot_id }}', /evaluates to undefined/],
		['a field the item does not have', '{{ $json.plotId }}', /evaluates to undefined/],
		['a syntax error', '{{ $json. }}', /throws/],
		['an unknown function', '{{ $json.plot_id.nope() }}', /throws|evaluates to undefined/],
	])('flags %s: %s', (_label, text, problem) => {
		const shown = inText('sample › description', `e.g. ${text} after Register`);
		expect(shown).toEqual([{ where: 'sample › description', expression: `=${text}` }]);
		const found = failures(workflow, shown);
		expect(found).toHaveLength(1);
		expect(found[0]).toMatch(problem);
	});

	it('passes what runs: fields of the item, $now, composed defaults', () => {
		const shown = [
			...inText('sample › description', 'use {{ $json.commodity }} or {{ $json.geojson }}'),
			...inText('sample › hint', 'today is {{ $now.toISODate() }}'),
			...inDefault('sample › default', '=Bearer {{ $credentials.sessionToken }}'),
		];
		expect(shown).toHaveLength(5);
		expect(failures(workflow, shown)).toEqual([]);
	});
});

describe("the trigger's subtitle on the canvas", () => {
	it.each([
		[['done', 'done-with-errors'], 'On finished jobs'],
		[['done'], 'On jobs done'],
		[['done-with-errors'], 'On jobs done with errors'],
	])('Trigger On %j reads "%s" (whole words, short)', (statuses, words) => {
		const workflow = workflowWith('test.geospatialAnalysisTrigger', 1, { statuses });
		const got = evaluate(workflow, String(trigger.description.subtitle));
		expect(got).toEqual({ value: words });
		expect(words.length).toBeLessThanOrEqual(25);
	});
});
