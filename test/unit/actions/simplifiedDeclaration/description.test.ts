/**
 * The Simplified Declaration resource in the EU Information System node's description: the
 * resource, its six operations, its own roles and locations, and that every field it adds is
 * shown only for it (saved DDS workflows keep their parameters: new resource, defaults).
 */
import type { INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

import { EuInformationSystem } from '../../../../nodes/EuInformationSystem/EuInformationSystem.node';

const v1 = new EuInformationSystem().nodeVersions[1].description as INodeTypeDescription;
const sdProperties = v1.properties.filter((p) =>
	(p.displayOptions?.show?.resource ?? []).includes('simplifiedDeclaration'),
);
const sdProperty = (name: string, operation?: string): INodeProperties | undefined =>
	sdProperties.find(
		(p) =>
			p.name === name &&
			(operation === undefined || (p.displayOptions?.show?.operation ?? []).includes(operation)),
	);
const values = (p?: INodeProperties) =>
	((p?.options ?? []) as INodePropertyOptions[]).map((o) => o.value);

describe('Simplified Declaration resource description', () => {
	it('is a second resource; Due Diligence Statement stays the default', () => {
		const resource = v1.properties.find((p) => p.name === 'resource')!;
		expect(values(resource)).toEqual([
			'declaration',
			'dueDiligenceRecord',
			'dueDiligenceStatement',
			'simplifiedDeclaration',
		]);
		expect(resource.default).toBe('dueDiligenceStatement');
	});

	it('offers submit, update, withdraw, get, getByInternalReference and getContent', () => {
		const selector = sdProperty('operation')!;
		expect(values(selector)).toEqual([
			'submit',
			'update',
			'withdraw',
			'get',
			'getByInternalReference',
			'getContent',
		]);
		expect(selector.default).toBe('submit');
		for (const o of selector.options as INodePropertyOptions[])
			expect(o.action).toMatch(/simplified declaration/);
	});

	it('its own roles, the three ways to locate a producer, no species', () => {
		const role = sdProperty('operatorRole', 'submit')!;
		expect(values(role)).toEqual(['MICRO_OPERATOR', 'REPRESENTATIVE_MSPO', 'MEMBER_STATE']);
		expect(role.default).toBe('MICRO_OPERATOR');
		expect(values(sdProperty('geolocationSource', 'update'))).toEqual([
			'plotRows',
			'euGeoJson',
			'postalAddress',
			'cadastralIdentifier',
		]);
		for (const name of ['producerPostalCode', 'producerCity', 'cadastralIdentifiers'])
			expect(sdProperty(name, 'submit')).toBeDefined();
		const options = (sdProperty('statementOptions', 'submit')!.options as INodeProperties[]).map(
			(o) => o.name,
		);
		expect(options).not.toContain('scientificName');
		expect(options).not.toContain('commonName');
		expect(options).toContain('groupedDeclarations');
		expect(sdProperty('internalReference', 'submit')?.description).toMatch(/3 to 14 characters/);
	});

	it('Get takes a version; the write operations simplify by default', () => {
		const options = sdProperty('options', 'get')!.options as INodeProperties[];
		expect(options.map((o) => o.name)).toEqual(['version']);
		for (const op of ['submit', 'update', 'withdraw', 'get', 'getByInternalReference'])
			expect(sdProperty('simplify', op)?.default).toBe(true);
	});

	it('no field of the DDS is shown for the SD, and none of the SD for the DDS', () => {
		for (const p of v1.properties) {
			const resources = p.displayOptions?.show?.resource ?? [];
			expect(resources.length).toBeLessThanOrEqual(1);
		}
	});
});
