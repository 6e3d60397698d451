import { simplifyCapability } from '../../../../nodes/GeospatialAnalysis/v1/actions/capability/simplifyCapability';
import {
	catalogEntries as capabilitiesFromResponse,
	includeValue,
} from '../../../../nodes/shared/capabilities/catalog';

describe('capabilities: includeValue', () => {
	it('builds the comma-separated include query value', () => {
		expect(includeValue({})).toBeUndefined();
		expect(includeValue({ methodology: false, hidden: false })).toBeUndefined();
		expect(includeValue({ methodology: true })).toBe('doc');
		expect(includeValue({ hidden: true })).toBe('hidden');
		expect(includeValue({ methodology: true, hidden: true })).toBe('doc,hidden');
	});
});

describe('capabilities: capabilitiesFromResponse', () => {
	it('reads a bare array (the contract) and common wrappers, dropping non-objects', () => {
		const cap = { name: 'eudr' };
		expect(capabilitiesFromResponse([cap, 'x', null])).toEqual([cap]);
		expect(capabilitiesFromResponse({ capabilities: [cap] })).toEqual([cap]);
		expect(capabilitiesFromResponse({ items: [cap] })).toEqual([cap]);
		expect(capabilitiesFromResponse({})).toEqual([]);
		expect(capabilitiesFromResponse(undefined)).toEqual([]);
	});
});

describe('capabilities: simplifyCapability', () => {
	it('flattens the cost hint and lists the configuration fields', () => {
		expect(
			simplifyCapability({
				name: 'data_center_site_suitability',
				label: 'Data Center Site Suitability',
				description: 'Scores a site',
				transport: 'sync',
				input_schema: {
					type: 'object',
					properties: { power_mw: { type: 'number' }, buffer_m: { type: 'integer' } },
					required: ['power_mw'],
				},
				cost_hint: { model: 'per_ha', tokens_per_ha: 2, minimum_per_plot: 5, currency: 'tokens' },
			}),
		).toEqual({
			name: 'data_center_site_suitability',
			label: 'Data Center Site Suitability',
			description: 'Scores a site',
			transport: 'sync',
			result_key: 'data_center_site_suitability',
			cost_model: 'per_ha',
			tokens_per_ha: 2,
			tokens_per_plot: null,
			minimum_tokens_per_plot: 5,
			config_fields: ['power_mw', 'buffer_m'],
			required_config_fields: ['power_mw'],
		});
	});

	it('uses result_key when the entry has one, and keeps the methodology when present', () => {
		const out = simplifyCapability({
			name: 'protected_area',
			result_key: 'protected_areas',
			methodology: 'How',
		});
		expect(out.result_key).toBe('protected_areas');
		expect(out.methodology).toBe('How');
		expect(out.label).toBe('protected_area');
	});

	it('tolerates missing or malformed schema and cost hint', () => {
		expect(simplifyCapability({ name: 'x', input_schema: 'nope', cost_hint: null })).toMatchObject({
			cost_model: null,
			tokens_per_ha: null,
			tokens_per_plot: null,
			config_fields: [],
			required_config_fields: [],
			transport: null,
		});
		expect('methodology' in simplifyCapability({ name: 'x' })).toBe(false);
	});
});
