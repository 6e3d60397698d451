import type { IDataObject, IHttpRequestOptions, ILoadOptionsFunctions } from 'n8n-workflow';

import type { FakeService } from '../../fake-service';
import { loadOptions } from '../../../nodes/GeospatialAnalysis/v1/methods';
import { fake, useFakeService } from '../../helpers/fakeService';

/**
 * loadOptions runs in n8n's editor, outside an execution; here a minimal load-options
 * context sends the node's request over loopback HTTP to the fake.
 */
function loadOptionsContext(fake: FakeService): ILoadOptionsFunctions {
	return {
		getNode: () => ({
			id: 'n',
			name: 'Geospatial Analysis',
			type: 'x',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		}),
		getNodeParameter: (name: string, fallback?: unknown) =>
			name === 'authentication' ? 'apiKey' : fallback,
		getCredentials: async () => ({ baseUrl: fake.url, apiKey: fake.users.alice.apiKey }),
		helpers: {
			httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) => {
				const url = new URL(options.url);
				for (const [k, v] of Object.entries((options.qs ?? {}) as IDataObject))
					url.searchParams.set(k, String(v));
				const response = await fetch(url, {
					method: options.method,
					headers: {
						...(options.headers as Record<string, string>),
						Authorization: `Bearer ${fake.users.alice.apiKey}`,
					},
				});
				return {
					statusCode: response.status,
					headers: Object.fromEntries(response.headers),
					body: await response.json(),
				};
			},
		},
	} as unknown as ILoadOptionsFunctions;
}

describe('Job → Create: checks loaded from the live catalog', () => {
	useFakeService();

	it('lists the catalog, and a capability added to the service appears without a release', async () => {
		// n8n builds a new context for every load-options request.
		const before = await loadOptions.getChecks.call(loadOptionsContext(fake));
		expect(before.length).toBe(28);
		expect(before).toContainEqual(expect.objectContaining({ name: 'EUDR', value: 'eudr' }));
		// the EUDR bundle first (what a job runs when no check is chosen), then by name
		expect(before[0]).toMatchObject({
			value: 'eudr',
			description: expect.stringMatching(/^Runs when no check is chosen\. About 1 token per /),
		});
		const rest = before.slice(1).map((o) => o.name);
		expect(rest).toEqual([...rest].sort((a, b) => a.localeCompare(b)));
		// the cost first, in plain words, and one sentence of description (the list cuts long texts)
		for (const o of before) {
			expect(o.description).not.toMatch(/token\(s\)/);
			expect(String(o.description).split(/[.!?] /).length).toBeLessThanOrEqual(3);
		}
		expect(before.every((o) => typeof o.description === 'string' && o.description.length > 0)).toBe(
			true,
		);
		fake.addCapability({
			name: 'peat_depth',
			label: 'Peat Depth',
			description: 'Estimated peat depth',
			cost_hint: { model: 'per_plot', tokens_per_plot: 2, currency: 'tokens' },
		} as never);
		const after = await loadOptions.getChecks.call(loadOptionsContext(fake));
		expect(after.length).toBe(29);
		expect(after).toContainEqual(
			expect.objectContaining({
				name: 'Peat Depth',
				value: 'peat_depth',
				description: expect.stringContaining('2 tokens per plot'),
			}),
		);
		expect(fake.log.count({ method: 'GET', path: '/v3/discovery/capabilities' })).toBe(2);
	});
});
