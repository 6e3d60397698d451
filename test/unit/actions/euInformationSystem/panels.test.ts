/**
 * The EU Information System node's panels as n8n's editor computes them (n8n-workflow's own
 * helpers: the fields shown, their issues, the subtitle's expression), issue 35:
 * - version 1 stays as saved workflows have it (Statement Options with the "Represented
 *   Operator …" entries, the SD's Activity Type Import, Net Weight optional);
 * - version 1.1 (nodes added from the nodes panel): a "Represented Operator" group shown only
 *   for the representative role, which the role's help names; Additional Fields beside Options;
 *   Net Weight with an issue at defaults where the Activity Type needs it; the SD Domestic by
 *   default; every Activity Type described;
 * - both: placeholders with real examples, readable subtitles, no help copied from the
 *   analysis service ("a circle of about 4 ha").
 */
import type {
	INode,
	INodeParameters,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { EuInformationSystem } from '../../../../nodes/EuInformationSystem/EuInformationSystem.node';
import { EuInformationSystemTrigger } from '../../../../nodes/EuInformationSystemTrigger/EuInformationSystemTrigger.node';
import { NodeTypesOf } from '../../../helpers/nodeTypes';

const node = new EuInformationSystem();
const trigger = new EuInformationSystemTrigger();
const v1 = node.nodeVersions[1].description as INodeTypeDescription;
const v11 = node.nodeVersions[1.1].description as INodeTypeDescription;

const DDS = { resource: 'dueDiligenceStatement', operation: 'submit' };
const SD = { resource: 'simplifiedDeclaration', operation: 'submit' };
/** Every operation that shows the statement fields. */
const STATEMENT_OPS = [
	DDS,
	{ resource: 'dueDiligenceStatement', operation: 'amend' },
	SD,
	{ resource: 'simplifiedDeclaration', operation: 'update' },
];

const nodeOf = (version: number, parameters: INodeParameters = {}): INode => ({
	id: 'eu',
	name: 'EU',
	type: 'euInformationSystem',
	typeVersion: version,
	position: [0, 0],
	parameters,
});

function withDefaults(d: INodeTypeDescription, values: INodeParameters): INodeParameters {
	const version = Number(d.version);
	return NodeHelpers.getNodeParameters(
		d.properties,
		values,
		true,
		false,
		nodeOf(version),
		d,
	) as INodeParameters;
}

/** The top-level fields the editor shows for these saved values. */
function shown(d: INodeTypeDescription, values: INodeParameters): INodeProperties[] {
	const parameters = withDefaults(d, values);
	return d.properties.filter((p) =>
		NodeHelpers.displayParameter(parameters, p, nodeOf(Number(d.version)), d),
	);
}
const shownNames = (d: INodeTypeDescription, values: INodeParameters) =>
	shown(d, values).map((p) => p.displayName);

/** The fields with an issue (red in the panel, the canvas badge) for these saved values. */
function issues(d: INodeTypeDescription, values: INodeParameters): string[] {
	const version = Number(d.version);
	const parameters = withDefaults(d, values);
	const found = NodeHelpers.getNodeParametersIssues(d.properties, nodeOf(version, parameters), d);
	return Object.keys(found?.parameters ?? {});
}

const field = (d: INodeTypeDescription, values: INodeParameters, name: string) =>
	shown(d, values).find((p) => p.name === name);

describe('version 1.1 is the default, version 1 stays as saved workflows have it', () => {
	it('offers versions 1 and 1.1; new nodes get 1.1', () => {
		expect(Object.keys(node.nodeVersions).map(Number).sort()).toEqual([1, 1.1]);
		expect(node.description.defaultVersion).toBe(1.1);
		expect(v11.version).toBe(1.1);
	});

	it('version 1: Statement Options with the eight "Represented Operator …" entries, no group', () => {
		for (const values of STATEMENT_OPS) {
			const options = field(v1, values, 'statementOptions')!;
			expect(options.displayName).toBe('Statement Options');
			const labels = (options.options as INodeProperties[]).map((o) => o.displayName);
			expect(labels.filter((l) => l.startsWith('Represented Operator'))).toHaveLength(8);
			expect(
				field(v1, { ...values, operatorRole: 'REPRESENTATIVE_OPERATOR' }, 'representedOperator'),
			).toBeUndefined();
		}
		expect(field(v1, SD, 'activityType')!.default).toBe('IMPORT');
		expect(issues(v1, DDS)).not.toContain('netWeight');
	});

	it('version 1.1 keeps every parameter name of version 1 (only the group is new)', () => {
		const names = (d: INodeTypeDescription) => new Set(d.properties.map((p) => p.name));
		const added = [...names(v11)].filter((n) => !names(v1).has(n));
		expect(added).toEqual(['representedOperator']);
		expect([...names(v1)].filter((n) => !names(v11).has(n))).toEqual([]);
	});
});

describe('version 1.1: the Represented Operator group', () => {
	it.each([
		[DDS, 'OPERATOR', 'REPRESENTATIVE_OPERATOR'],
		[
			{ resource: 'dueDiligenceStatement', operation: 'amend' },
			'OPERATOR',
			'REPRESENTATIVE_OPERATOR',
		],
		[SD, 'MICRO_OPERATOR', 'REPRESENTATIVE_MSPO'],
		[
			{ resource: 'simplifiedDeclaration', operation: 'update' },
			'MEMBER_STATE',
			'REPRESENTATIVE_MSPO',
		],
	])('%j: hidden for %s, shown for %s', (values, own, representative) => {
		expect(shownNames(v11, { ...values, operatorRole: own })).not.toContain('Represented Operator');
		expect(shownNames(v11, values)).not.toContain('Represented Operator');
		const names = shownNames(v11, { ...values, operatorRole: representative });
		expect(names).toContain('Represented Operator');
		// right after the role it belongs to
		expect(names.indexOf('Represented Operator')).toBe(names.indexOf('Operator Role') + 1);
	});

	it('holds the eight fields, the name required; no "Represented Operator …" entry is left in Additional Fields', () => {
		const group = field(
			v11,
			{ ...DDS, operatorRole: 'REPRESENTATIVE_OPERATOR' },
			'representedOperator',
		)!;
		expect(group.type).toBe('fixedCollection');
		const values = (group.options as INodePropertyCollection[])[0].values;
		expect(values.map((v) => v.displayName)).toEqual([
			'Name',
			'EORI Number',
			'VAT Number',
			'Street and Number',
			'Postal Code',
			'City',
			'Country',
			'E-Mail',
		]);
		expect(values.find((v) => v.name === 'representedName')?.required).toBe(true);
		for (const v of values) expect(v.placeholder).toBeTruthy();
		for (const values of STATEMENT_OPS) {
			const options = field(v11, values, 'statementOptions')!;
			const labels = (options.options as INodeProperties[]).map((o) => o.displayName);
			expect(labels.filter((l) => /represented/i.test(l))).toEqual([]);
		}
	});

	it("the representative role's help names the group as the panel shows it", () => {
		for (const [values, representative] of [
			[DDS, 'REPRESENTATIVE_OPERATOR'],
			[SD, 'REPRESENTATIVE_MSPO'],
		] as const) {
			const role = field(v11, values, 'operatorRole')!;
			const option = (role.options as INodePropertyOptions[]).find(
				(o) => o.value === representative,
			)!;
			expect(option.description).toMatch(/fill in Represented Operator below$/);
			expect(shownNames(v11, { ...values, operatorRole: representative })).toContain(
				'Represented Operator',
			);
			// version 1 names its fields as version 1 shows them
			const v1Role = field(v1, values, 'operatorRole')!;
			const v1Option = (v1Role.options as INodePropertyOptions[]).find(
				(o) => o.value === representative,
			)!;
			expect(v1Option.description).toMatch(/"Represented Operator …" fields of Statement Options/);
		}
	});
});

describe('version 1.1: options named clearly', () => {
	it.each(STATEMENT_OPS)(
		'%j: Additional Fields (the statement) and, for Submit, Options (the filing)',
		(values) => {
			const names = shownNames(v11, values);
			expect(names).toContain('Additional Fields');
			expect(names).not.toContain('Statement Options');
			expect(names.filter((n) => /Options$/.test(n))).toEqual(
				values.operation === 'submit' ? ['Options'] : [],
			);
			expect(field(v11, values, 'statementOptions')!.placeholder).toBe('Add Field');
		},
	);
});

describe('placeholders with real examples (both versions)', () => {
	it.each([1, 1.1].flatMap((version) => STATEMENT_OPS.map((values) => [version, values] as const)))(
		'v%s %j',
		(version, values) => {
			const d = version === 1 ? v1 : v11;
			for (const name of [
				'hsHeading',
				'descriptionOfGoods',
				'countryOfActivity',
				'netWeight',
				'producerName',
				'pointArea',
			]) {
				const p = field(d, values, name);
				expect([name, p?.placeholder]).toEqual([name, expect.stringMatching(/^e\.g\. \S/)]);
			}
			const options = field(d, values, 'statementOptions')!.options as INodeProperties[];
			for (const o of options.filter((x) => x.type === 'string' && x.name !== 'comment'))
				expect([o.name, o.placeholder]).toEqual([o.name, expect.stringMatching(/\S/)]);
		},
	);
});

describe('issues where the defaults cannot run', () => {
	it('version 1.1, DDS Submit at defaults (Import): Net Weight has an issue, beside HS Heading and Description of Goods', () => {
		expect(issues(v11, DDS)).toEqual(
			expect.arrayContaining(['netWeight', 'hsHeading', 'descriptionOfGoods']),
		);
		expect(issues(v11, { ...DDS, activityType: 'EXPORT' })).toContain('netWeight');
		expect(issues(v11, { ...DDS, netWeight: '12500' })).not.toContain('netWeight');
		// Domestic: the net weight, a supplementary unit or both: no issue, the field still shown
		expect(issues(v11, { ...DDS, activityType: 'DOMESTIC' })).not.toContain('netWeight');
		expect(
			shown(v11, { ...DDS, activityType: 'DOMESTIC' }).filter((p) => p.name === 'netWeight'),
		).toHaveLength(1);
		expect(shown(v11, DDS).filter((p) => p.name === 'netWeight')).toHaveLength(1);
	});

	it('version 1.1, SD Submit at defaults (Domestic): no Net Weight issue; with Import one', () => {
		expect(issues(v11, SD)).not.toContain('netWeight');
		expect(issues(v11, { ...SD, activityType: 'IMPORT' })).toContain('netWeight');
	});

	it('a representative: the group is offered; its Name has an issue once it is added', () => {
		const values = { ...DDS, operatorRole: 'REPRESENTATIVE_OPERATOR', netWeight: '1' };
		const withGroup = { ...values, representedOperator: { operator: { representedName: '' } } };
		const version = 1.1;
		const parameters = withDefaults(v11, withGroup);
		const group = v11.properties.find((p) => p.name === 'representedOperator')!;
		const found = NodeHelpers.getParameterIssues(
			group,
			parameters,
			'',
			nodeOf(version, parameters),
			v11,
		);
		expect(Object.keys(found.parameters ?? {}).join(' ')).toMatch(/representedName/);
	});
});

describe("the SD's Activity Type", () => {
	it('version 1.1: Domestic by default (a micro or small primary operator produces the goods itself)', () => {
		expect(field(v11, SD, 'activityType')!.default).toBe('DOMESTIC');
		expect(field(v11, DDS, 'activityType')!.default).toBe('IMPORT');
	});

	it.each([1, 1.1].flatMap((version) => STATEMENT_OPS.map((values) => [version, values] as const)))(
		'v%s %j: Domestic, Export and Import, each described',
		(version, values) => {
			const d = version === 1 ? v1 : v11;
			const options = field(d, values, 'activityType')!.options as INodePropertyOptions[];
			expect(options.map((o) => o.value)).toEqual(['DOMESTIC', 'EXPORT', 'IMPORT']);
			for (const o of options)
				expect([o.value, o.description]).toEqual([o.value, expect.stringMatching(/\w{3,}.*\w/)]);
		},
	);
});

/** Every text a panel of the node shows (descriptions, option descriptions, notices). */
function texts(properties: INodeProperties[]): string[] {
	return properties.flatMap((p) => [
		p.displayName,
		p.description ?? '',
		p.placeholder ?? '',
		...(
			(p.options ?? []) as Array<INodePropertyOptions | INodeProperties | INodePropertyCollection>
		).flatMap((o) =>
			'values' in o
				? texts(o.values)
				: 'type' in o
					? texts([o as INodeProperties])
					: [String(o.name), String((o as INodePropertyOptions).description ?? '')],
		),
	]);
}

describe('no help copied from the analysis service', () => {
	it.each([1, 1.1])('version %s: no circle of about 4 ha, no registration limit', (version) => {
		const d = version === 1 ? v1 : v11;
		const all = texts(d.properties).join('\n');
		expect(all).not.toMatch(/circle|turns the point/i);
		expect(all).not.toMatch(/for registration/);
		const source = field(d, DDS, 'geometrySource')!;
		const latLon = (source.options as INodePropertyOptions[]).find((o) => o.value === 'latLon')!;
		expect(latLon.description).toMatch(
			/filed as a point with its area \(Area of Points \(Hectares\)\)/,
		);
		expect(latLon.description).toMatch(/up to 4 ha/);
	});
});

const nodeTypes = () =>
	new NodeTypesOf({
		euInformationSystem: node,
		euInformationSystemTrigger: trigger,
	});

/** The subtitle of a node as the canvas shows it (n8n's expression engine, defaults filled in). */
function subtitleOf(type: string, version: number, parameters: INodeParameters): unknown {
	const description = NodeHelpers.getVersionedNodeType(
		nodeTypes().getByName(type),
		version,
	).description;
	const workflow = new Workflow({
		id: 'subtitle',
		name: 'subtitle',
		nodes: [
			{
				...nodeOf(version),
				type,
				parameters: NodeHelpers.getNodeParameters(
					description.properties,
					parameters,
					true,
					false,
					nodeOf(version),
					description,
				) as INodeParameters,
			},
		],
		connections: {},
		active: false,
		nodeTypes: nodeTypes(),
	});
	return workflow.expression.getSimpleParameterValue(
		workflow.getNode('EU')!,
		String(description.subtitle),
		'internal',
		{},
	);
}

describe('canvas subtitles in the panel’s words', () => {
	it.each([
		[{}, 'Submit: Due Diligence Statement'],
		[{ operation: 'getByInternalReference' }, 'Get by Internal Reference: Due Diligence Statement'],
		[{ operation: 'amend' }, 'Amend: Due Diligence Statement'],
		[{ resource: 'simplifiedDeclaration' }, 'Submit: Simplified Declaration'],
		[
			{ resource: 'simplifiedDeclaration', operation: 'getContent' },
			'Get Content: Simplified Declaration',
		],
		[{ resource: 'declaration' }, 'Verify: Declaration'],
	])('%j reads "%s" (both versions)', (parameters, words) => {
		for (const version of [1, 1.1])
			expect(subtitleOf('euInformationSystem', version, parameters)).toBe(words);
	});

	it('every operation of every resource has its words (never a raw value)', () => {
		const selectors = v11.properties.filter(
			(p) => p.name === 'operation' && !(p.displayOptions?.show?.['@tool'] ?? []).includes(true),
		);
		let count = 0;
		for (const s of selectors)
			for (const o of s.options as INodePropertyOptions[]) {
				const resource = String(s.displayOptions!.show!.resource![0]);
				const got = String(
					subtitleOf('euInformationSystem', 1.1, { resource, operation: o.value }),
				);
				expect(got).toMatch(new RegExp(`^${o.name}: `));
				count++;
			}
		// 13 of statements, declarations and Verify, and the due-diligence record's Create
		expect(count).toBe(14);
	});

	it('the trigger: its prefix, or what to set when there is none (never "Statements …")', () => {
		expect(subtitleOf('euInformationSystemTrigger', 1, {})).toBe(
			'Set Internal Reference Starts With',
		);
		expect(
			subtitleOf('euInformationSystemTrigger', 1, { internalReferencePrefix: 'SHIP-2026-' }),
		).toBe('Statements SHIP-2026-…');
	});
});
