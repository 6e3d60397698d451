/**
 * The two versions of the action node, as n8n's editor and an AI Agent meet them, computed
 * with n8n-workflow's own helpers (the ones the editor and the agent use):
 * - version 1 stays as saved workflows have it (defaults, field places, actions);
 * - version 2 (what a node added from the nodes panel gets): short actions, so the node's
 *   name (NodeHelpers.makeNodeName) is under 30 characters; a Tool Description per operation
 *   in the tool variant only, which NodeHelpers.getToolDescriptionForNode sends to the model,
 *   saying what the tool costs and returns; Job → Create with Max Tokens at the top, a limit
 *   by default and a panel no longer than n8n's Airtable create panel; Wait for Completion
 *   outputting per-plot results; Request Timeout inside Options.
 */
import type {
	INode,
	INodeParameters,
	INodeProperties,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { GeospatialAnalysis } from '../../../nodes/GeospatialAnalysis/GeospatialAnalysis.node';
import { MAX_TOKENS_DEFAULT_V2 } from '../../../nodes/GeospatialAnalysis/v1/actions/job/jobRequest';
import { resources } from '../../../nodes/GeospatialAnalysis/v1/actions/router';
import { OPERATIONS_WITHOUT_REQUESTS } from '../../../nodes/GeospatialAnalysis/v1/actions/versionDescription';
import { GeospatialAnalysisTrigger } from '../../../nodes/GeospatialAnalysisTrigger/GeospatialAnalysisTrigger.node';

const node = new GeospatialAnalysis();
const v1 = node.nodeVersions[1].description;
const v2 = node.nodeVersions[2].description;
const v3 = node.nodeVersions[3].description;

/** What n8n makes of a node type with usableAsTool (its "… Tool" variant), as n8n 1.x/2.x do. */
function toolVariant(description: INodeTypeDescription): INodeTypeDescription {
	const tool = structuredClone(description);
	tool.name += 'Tool';
	tool.displayName += ' Tool';
	// n8n adds its own Tool Description fields only when the node has none
	expect(tool.properties.some((p) => p.name === 'toolDescription')).toBe(true);
	return tool;
}
const v2Tool = toolVariant(v2);

/** Operations version 3 added (versions 1 and 2 stay as saved workflows know them). */
const ADDED_IN_V3 = [{ resource: 'plot', operation: 'drawMap' }];
const addedInV3 = (resource: string, operation: string) =>
	ADDED_IN_V3.some((o) => o.resource === resource && o.operation === operation);

/** The operations every version has. */
const operations = Object.entries(resources)
	.flatMap(([resource, module]) =>
		Object.keys(module.operations).map((operation) => ({ resource, operation })),
	)
	.filter(({ resource, operation }) => !addedInV3(resource, operation));

/** The parameters a node has with these values, every other at its default (as n8n fills them). */
function withDefaults(
	description: INodeTypeDescription,
	version: number,
	values: INodeParameters,
): INodeParameters {
	return NodeHelpers.getNodeParameters(
		description.properties,
		values,
		true,
		false,
		{ typeVersion: version },
		description,
	) as INodeParameters;
}

/** The fields the editor shows for these parameters (top level). */
function shown(
	description: INodeTypeDescription,
	version: number,
	values: INodeParameters,
): string[] {
	const parameters = withDefaults(description, version, values);
	return description.properties
		.filter((p) =>
			NodeHelpers.displayParameter(parameters, p, { typeVersion: version }, description),
		)
		.map((p) => p.displayName);
}

function actionOf(description: INodeTypeDescription, resource: string, operation: string) {
	const selector = description.properties.find(
		(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource),
	);
	const option = (selector?.options as INodePropertyOptions[]).find((o) => o.value === operation);
	return option?.action ?? '';
}

function property(
	description: INodeTypeDescription,
	name: string,
	resource: string,
	operation: string,
): INodeProperties | undefined {
	return description.properties.find(
		(p) =>
			p.name === name &&
			p.displayOptions?.show?.resource?.includes(resource) &&
			p.displayOptions?.show?.operation?.includes(operation),
	);
}

describe('versions of the action node', () => {
	// version 3 made new nodes get version 3 (this said 2 before): saved nodes keep theirs
	it('new nodes get version 3; saved version-1 and version-2 nodes keep theirs', () => {
		expect(node.description.defaultVersion).toBe(3);
		expect(v1.version).toBe(1);
		expect(v2.version).toBe(2);
		expect(v3.version).toBe(3);
		expect(node.getNodeType(1).description).toBe(v1);
		expect(node.getNodeType(2).description).toBe(v2);
		expect(node.getNodeType().description).toBe(v3);
	});

	it('every version has every operation', () => {
		for (const description of [v1, v2, v3])
			for (const { resource, operation } of operations)
				expect(actionOf(description, resource, operation)).not.toBe('');
	});
});

describe('version 2: short names, and what the model is told', () => {
	it.each(operations)(
		'$resource → $operation: a short action, the name of a node added from the panel',
		({ resource, operation }) => {
			const action = actionOf(v2, resource, operation);
			expect(action.length).toBeLessThan(30);
			expect(action).not.toMatch(/—|free|returns/);
			// n8n names a node added from the nodes panel after its action
			const name = NodeHelpers.makeNodeName({ resource, operation }, v2);
			expect(name).toBe(action);
			expect(name.length).toBeLessThan(30);
		},
	);

	it.each(operations)(
		'$resource → $operation: as an AI tool, the model reads its cost and what it returns',
		({ resource, operation }) => {
			const parameters = withDefaults(v2Tool, 2, { resource, operation });
			const toolNode: INode = {
				id: '1',
				name: 'Tool',
				type: `test.${v2Tool.name}`,
				typeVersion: 2,
				position: [0, 0],
				parameters,
			};
			const told = NodeHelpers.getToolDescriptionForNode(toolNode, {
				description: v2Tool,
			} as INodeType);
			// version 1's action (its cost and what it returns), as n8n words it for version 1
			expect(told).toBe(
				operation === 'waitForCompletion'
					? 'Wait for a job to complete — free — returns one item per plot with its results in Geospatial Analysis'
					: `${actionOf(v1, resource, operation)} in Geospatial Analysis`,
			);
			expect(told).toMatch(/ — (free|spends tokens[^—]*) — .*\breturns\b/);
			// a description the user edits is what the model reads
			const edited = NodeHelpers.getToolDescriptionForNode(
				{ ...toolNode, parameters: { ...parameters, toolDescription: 'Mine' } },
				{ description: v2Tool } as INodeType,
			);
			expect(edited).toBe('Mine');
		},
	);

	it.each(operations)(
		'$resource → $operation at its defaults: no issue but the fields to fill in (as version 1), as a node or as a tool',
		({ resource, operation }) => {
			const issuesOf = (description: INodeTypeDescription, version: number) =>
				NodeHelpers.getNodeParametersIssues(
					description.properties,
					{
						id: '1',
						name: 'Node',
						type: `test.${description.name}`,
						typeVersion: version,
						position: [0, 0],
						parameters: withDefaults(description, version, { resource, operation }),
					},
					description,
				);
			// only a required ID without a default (Plot ID, Run ID, Area ID) asks to be filled in
			const v1Issues = issuesOf(v1, 1);
			for (const field of Object.keys(v1Issues?.parameters ?? {}))
				expect(['plotId', 'runId', 'areaId']).toContain(field);
			expect(issuesOf(v2, 2)).toEqual(v1Issues);
			expect(issuesOf(v2Tool, 2)).toEqual(v1Issues);
			expect(issuesOf(v3, 3)).toEqual(v1Issues);
			expect(issuesOf(toolVariant(v3), 3)).toEqual(v1Issues);
		},
	);

	it('the Tool Description shows in the tool only, once per operation', () => {
		for (const { resource, operation } of operations) {
			const inTool = shown(v2Tool, 2, { resource, operation });
			expect(inTool.filter((n) => n === 'Tool Description')).toHaveLength(1);
			expect(shown(v2, 2, { resource, operation })).not.toContain('Tool Description');
		}
	});

	it('the spending operations say so to the model, the others say free', () => {
		const spending = operations.filter(({ resource, operation }) =>
			/spends tokens/.test(
				String(
					property(v2Tool, 'toolDescription', resource, operation)?.default ??
						'missing tool description',
				),
			),
		);
		expect(spending.map((o) => o.operation).sort()).toEqual(['check', 'create']);
	});
});

describe('version 2: Job → Create', () => {
	it('the panel at defaults: Plot IDs, Checks (EUDR), Max Tokens and Options, no more than Airtable shows', () => {
		const fields = shown(v2, 2, { resource: 'job', operation: 'create' });
		expect(fields).toEqual([
			'Authentication',
			'Resource',
			'Operation',
			'Plot IDs',
			'Check Names or IDs',
			'Max Tokens',
			'Options',
		]);
		// n8n's Airtable → Record → Create (v2.2, n8n 2.40.7) shows at its defaults
		// Authentication, Resource, Operation, Base, Table, Columns and Options (7, measured
		// the same way); Google Sheets → Append (v4.7) shows 5 until a sheet is chosen, then 8
		expect(fields.length).toBeLessThanOrEqual(7);
		// version 1 showed 14
		expect(shown(v1, 1, { resource: 'job', operation: 'create' })).toHaveLength(14);
	});

	it('Max Tokens: at the top, a limit by default (version 1: in Options, 0 = no limit)', () => {
		const maxTokens = property(v2, 'maxTokens', 'job', 'create');
		expect(maxTokens?.default).toBe(MAX_TOKENS_DEFAULT_V2);
		expect(MAX_TOKENS_DEFAULT_V2).toBe(100);
		expect(maxTokens?.description).toMatch(/free/);
		const v1Options = property(v1, 'options', 'job', 'create')?.options as INodeProperties[];
		expect(v1Options.find((o) => o.name === 'maxTokens')?.default).toBe(0);
		expect(property(v1, 'maxTokens', 'job', 'create')).toBeUndefined();
	});

	it('Checks show the EUDR bundle by default (an empty list runs it too); version 1: empty', () => {
		for (const operation of ['create', 'getQuote']) {
			expect(property(v2, 'checks', 'job', operation)?.default).toEqual(['eudr']);
			expect(property(v1, 'checks', 'job', operation)?.default).toEqual([]);
		}
	});

	it('check configs, per-plot values, harvest date, commodity and jobs are options', () => {
		for (const operation of ['create', 'getQuote']) {
			const options = (property(v2, 'options', 'job', operation)?.options ??
				[]) as INodeProperties[];
			expect(options.map((o) => o.name)).toEqual(
				expect.arrayContaining([
					'checkConfigs',
					'commodity',
					'harvestDate',
					'jobPer',
					'perPlotCommodity',
					'perPlotHarvestDate',
					'requestTimeout',
				]),
			);
			for (const moved of ['checkConfigs', 'commodity', 'harvestDate', 'jobPer', 'perPlot'])
				expect(property(v2, moved, 'job', operation)).toBeUndefined();
		}
		const createOptions = property(v2, 'options', 'job', 'create')?.options as INodeProperties[];
		expect(createOptions.map((o) => o.name)).toEqual(
			expect.arrayContaining(['jobName', 'notes', 'additionalInfo', 'recoveryWindowMinutes']),
		);
		expect(property(v2, 'additionalFields', 'job', 'create')).toBeUndefined();
		// sorted as n8n's lint wants collection options
		const names = createOptions.map((o) => o.displayName);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
	});
});

describe('version 2: other defaults', () => {
	it('Wait for Completion outputs Per-Plot Results (version 1: Job)', () => {
		expect(property(v2, 'output', 'job', 'waitForCompletion')?.default).toBe('perPlot');
		expect(property(v1, 'output', 'job', 'waitForCompletion')?.default).toBe('job');
		expect(shown(v2, 2, { resource: 'job', operation: 'waitForCompletion' })).toContain('Simplify');
	});

	it('Max Wait and the other numbers show as typed (no fixed decimals: "4", not "4.0")', () => {
		for (const description of [v1, v2]) {
			const maxWait = property(description, 'maxWaitMinutes', 'job', 'waitForCompletion');
			expect(maxWait?.default).toBe(4);
			expect(maxWait?.typeOptions?.numberPrecision).toBeUndefined();
		}
	});

	it.each(operations)(
		'$resource → $operation: Request Timeout inside Options (version 1: at the top)',
		({ resource, operation }) => {
			const sends = !OPERATIONS_WITHOUT_REQUESTS.includes(operation);
			const top = (d: INodeTypeDescription, version: number) =>
				shown(d, version, { resource, operation }).includes('Request Timeout (Seconds)');
			expect(top(v1, 1)).toBe(sends);
			expect(top(v2, 2)).toBe(false);
			const options = (property(v2, 'options', resource, operation)?.options ??
				[]) as INodeProperties[];
			const timeout = options.find((o) => o.name === 'requestTimeout');
			expect(timeout !== undefined).toBe(sends);
			if (timeout) expect(timeout.default).toBe(60);
		},
	);
});

/**
 * Version 3 without what it added (Plot → Draw Map: its option, its fields, its place in the
 * lists of operations without a credential), to compare with version 2.
 */
function withoutAddedInV3(d: INodeTypeDescription): INodeTypeDescription {
	const copy = structuredClone(d);
	const dropAdded = (hide: { operation?: unknown } | undefined) => {
		if (hide && Array.isArray(hide.operation))
			hide.operation = hide.operation.filter((o) => !ADDED_IN_V3.some((a) => a.operation === o));
	};
	for (const c of copy.credentials ?? []) dropAdded(c.displayOptions?.hide);
	copy.properties = copy.properties
		.filter((p) => {
			const show = p.displayOptions?.show;
			const ops = (show?.operation ?? []) as string[];
			const res = (show?.resource ?? []) as string[];
			return !(ops.length > 0 && ops.every((o) => res.some((r) => addedInV3(r, o))));
		})
		.map((p) => {
			dropAdded(p.displayOptions?.hide);
			if (p.name !== 'operation') return p;
			const res = String(p.displayOptions?.show?.resource?.[0]);
			const options = (p.options ?? []) as INodePropertyOptions[];
			return { ...p, options: options.filter((o) => !addedInV3(res, String(o.value))) };
		});
	return copy;
}

describe('version 3: Plot → Draw Map (an operation versions 1 and 2 do not show)', () => {
	const drawMap = { resource: 'plot', operation: 'drawMap' };
	const listed = (d: INodeTypeDescription) =>
		(
			(d.properties.find(
				(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.[0] === 'plot',
			)?.options ?? []) as INodePropertyOptions[]
		).map((o) => o.value);

	it('listed in version 3 only', () => {
		expect(listed(v3)).toContain('drawMap');
		expect(listed(v1)).not.toContain('drawMap');
		expect(listed(v2)).not.toContain('drawMap');
	});

	it('a short action, the name of a node added from the panel; its Tool Description says free and what it returns', () => {
		const action = actionOf(v3, 'plot', 'drawMap');
		expect(action).toBe('Draw a map of plots');
		expect(NodeHelpers.makeNodeName(drawMap, v3)).toBe(action);
		const tool = toolVariant(v3);
		const said = String(property(tool, 'toolDescription', 'plot', 'drawMap')?.default);
		expect(said).toMatch(/\bfree\b.*\breturns\b/);
		expect(shown(tool, 3, drawMap).filter((n) => n === 'Tool Description')).toHaveLength(1);
		expect(shown(v3, 3, drawMap)).not.toContain('Tool Description');
	});

	it('at its defaults: no issue, no credential, no Authentication, no Request Timeout; Geometry Source found in the item, Color By Validity', () => {
		const parameters = withDefaults(v3, 3, drawMap);
		expect(parameters.geometrySource).toBe('item');
		expect(parameters.colorBy).toBe('validity');
		const issues = NodeHelpers.getNodeParametersIssues(
			v3.properties,
			{ id: '1', name: 'Node', type: 'test.node', typeVersion: 3, position: [0, 0], parameters },
			v3,
		);
		expect(issues).toBeNull();
		const credentials = (v3.credentials ?? []).filter((c) =>
			NodeHelpers.displayParameter(parameters, c, null, v3),
		);
		expect(credentials).toEqual([]);
		const fields = shown(v3, 3, drawMap);
		expect(fields).not.toContain('Authentication');
		expect(fields.filter((f) => !f.startsWith('Draws the plots'))).toEqual([
			'Resource',
			'Operation',
			'Geometry Source',
			'Color By',
			'Options',
		]);
		const options = (property(v3, 'options', 'plot', 'drawMap')?.options ??
			[]) as INodeProperties[];
		expect(options.map((o) => o.name)).not.toContain('requestTimeout');
	});
});

describe('version 3: the geometry found in the item', () => {
	const GEOMETRY_OPERATIONS: Array<[string, string, INodeParameters]> = [
		['plot', 'register', {}],
		['plot', 'validate', {}],
		['plot', 'exportEu', {}],
		['protectedArea', 'check', { checkBy: 'geometry' }],
	];

	it.each(GEOMETRY_OPERATIONS)(
		'%s → %s: Geometry Source "Found in the Item" by default, no field to map (versions 1 and 2: Latitude/Longitude)',
		(resource, operation, values) => {
			// versions 1 and 2 show Export's geometry fields with Input "Geometry Fields" only
			const old = operation === 'exportEu' ? { ...values, exportInput: 'geometry' } : values;
			const at = (d: INodeTypeDescription, version: number, set: INodeParameters) =>
				withDefaults(d, version, { resource, operation, ...set });
			expect(at(v3, 3, values).geometrySource).toBe('item');
			expect(at(v1, 1, old).geometrySource).toBe('latLon');
			expect(at(v2, 2, old).geometrySource).toBe('latLon');
			const fields = shown(v3, 3, { resource, operation, ...values });
			expect(fields).toContain('Geometry Source');
			for (const mapped of ['GeoJSON', 'Latitude', 'Longitude', 'WKT'])
				expect(fields).not.toContain(mapped);
			expect(shown(v2, 2, { resource, operation, ...old })).toEqual(
				expect.arrayContaining(['Latitude', 'Longitude']),
			);
			// its description says what it looks for
			const source = property(v3, 'geometrySource', resource, operation);
			const options = source?.options as INodePropertyOptions[];
			expect(options.map((o) => o.value)).toEqual(['item', 'geoJson', 'latLon', 'wkt']);
			expect(options[0].name).toBe('Found in the Item');
			expect(options[0].description).toMatch(
				/"geometry" \(as Read File outputs it\), "geojson" .*"geojson_features" .*"wkt" .*"latitude" and "longitude"/,
			);
		},
	);

	it('Export for EU reads the geometry fields by default (versions 1 and 2: plots)', () => {
		const input = (d: INodeTypeDescription, version: number) =>
			withDefaults(d, version, { resource: 'plot', operation: 'exportEu' }).exportInput;
		expect(input(v3, 3)).toBe('geometry');
		expect(input(v2, 2)).toBe('plots');
		expect(input(v1, 1)).toBe('plots');
	});

	it('otherwise version 2: the same fields, names, places and defaults', () => {
		const changed = new Set(['geometrySource', 'exportInput']);
		const rest = (d: INodeTypeDescription) => d.properties.filter((p) => !changed.has(p.name));
		const v3Old = withoutAddedInV3(v3);
		expect(rest(v3Old)).toEqual(rest(v2));
		expect(v3Old.properties.map((p) => p.name)).toEqual(v2.properties.map((p) => p.name));
		const other = (d: INodeTypeDescription) => ({ ...d, properties: [], version: 0 });
		expect(other(v3Old)).toEqual(other(v2));
	});

	it('the tool variant of version 3 tells the model what version 2 does', () => {
		const tool = toolVariant(v3);
		for (const { resource, operation } of operations)
			expect(property(tool, 'toolDescription', resource, operation)?.default).toBe(
				property(v2Tool, 'toolDescription', resource, operation)?.default,
			);
	});
});

describe('wording of the panels (both versions and the trigger)', () => {
	const trigger = new GeospatialAnalysisTrigger().description;
	const texts = JSON.stringify([v1.properties, v2.properties, trigger]);

	it('one word for free, US English, plain plurals', () => {
		expect(texts).not.toMatch(/costs nothing|costs no tokens/i);
		expect(texts).not.toMatch(/visualis|recognis|\banalyse\b|analysed|centre|metres/i);
		expect(texts).not.toMatch(/token\(s\)/);
	});

	it('every Options collection says "Add option" (n8n\'s style)', () => {
		const collections = [v1, v2, { properties: trigger.properties }].flatMap((d) =>
			d.properties.filter((p) => p.name === 'options' && p.type === 'collection'),
		);
		expect(collections.length).toBeGreaterThan(10);
		for (const c of collections) expect(c.placeholder).toBe('Add option');
	});

	it("the trigger's notice is one short line; the rules are in the fields' descriptions", () => {
		const notices = trigger.properties.filter((p) => p.type === 'notice');
		expect(notices).toHaveLength(1);
		expect(notices[0].displayName.length).toBeLessThanOrEqual(80);
		expect(notices[0].displayName).toMatch(/free/);
		const statuses = trigger.properties.find((p) => p.name === 'statuses');
		expect(statuses?.description).toMatch(/before the workflow was activated/);
	});

	it('the nodes panel text describes both nodes (the action node and the trigger)', () => {
		for (const text of [v2.description, trigger.description]) {
			expect(text).toMatch(/[Rr]egister plots/);
			expect(text).toMatch(/EUDR/);
		}
		expect(trigger.description).toMatch(/start workflows when they finish/);
	});

	it('Export, like Validate, says that it sends nothing', () => {
		for (const operation of ['validate', 'exportEu']) {
			const notice = v2.properties.find(
				(p) => p.type === 'notice' && p.displayOptions?.show?.operation?.includes(operation),
			);
			expect(notice?.displayName).toMatch(/without sending anything: no request, no credential/);
		}
	});

	it('no "(For Validation)" field name', () => {
		expect(texts).not.toMatch(/For Validation/);
		expect(texts).toMatch(/"displayName":"Expected Country"/);
	});
});
