/**
 * Additional Info keys are sent exactly as typed, `__proto__`, `constructor` and `prototype`
 * included (Plot → Register's key/value pairs, Job → Create's JSON), through n8n's engine
 * against a loopback server that records the request body as it arrived on the wire.
 */
import { CredentialStore, runNode } from '../../helpers/engine';
import type { Loopback } from '../../helpers/loopback';
import { json, startLoopback } from '../../helpers/loopback';

// Made-up values (not secrets).
const KEY = 'service_live_' + 'additional_info_key_01';

describe('Additional Info keys (engine → loopback server)', () => {
	let service: Loopback;
	beforeAll(async () => {
		service = await startLoopback();
	});
	afterAll(async () => await service.close());
	beforeEach(() => {
		service.requests.length = 0;
		// Refuses everything: only the request body matters here.
		service.handle((_req, res) => json(res, 400, { code: 400, message: 'Refused by the test' }));
	});
	const store = () =>
		new CredentialStore({ geospatialAnalysisApi: { baseUrl: service.url, apiKey: KEY } });
	const sentInfo = (path: string) => {
		const request = service.requests.find((r) => r.path === path);
		expect(request).toBeDefined();
		// The raw text as sent, and as JSON.parse reads it (own keys, `__proto__` included).
		const info = (JSON.parse(request!.body) as { additional_info: Record<string, unknown> })
			.additional_info;
		return { text: request!.body, info };
	};

	it('Plot → Register sends the pair keys __proto__, constructor and prototype as typed', async () => {
		const { error } = await runNode({
			parameters: {
				resource: 'plot',
				operation: 'register',
				geometrySource: 'latLon',
				plotFields: {
					additionalInfo: {
						pairs: [
							{ key: '__proto__', value: 'supplier batch' },
							{ key: 'constructor', value: 'c' },
							{ key: 'prototype', value: 'p' },
							{ key: 'lot', value: '7' },
						],
					},
				},
			},
			input: [{ latitude: '-10.5', longitude: '-50.5' }],
			store: store(),
		});
		expect(error?.message).toBe('Refused by the test');
		const { text, info } = sentInfo('/plots/make_plot');
		expect(text).toContain('"additional_info":{"__proto__":"supplier batch"');
		expect(Object.keys(info)).toEqual(['__proto__', 'constructor', 'prototype', 'lot']);
		expect(Object.getOwnPropertyDescriptor(info, '__proto__')?.value).toBe('supplier batch');
	});

	it('Job → Create sends the JSON keys __proto__ and constructor as typed', async () => {
		const { error } = await runNode({
			parameters: {
				resource: 'job',
				operation: 'create',
				plotIds: '100001',
				additionalFields: {
					additionalInfo: '{"__proto__": {"batch": "Q1"}, "constructor": 1, "b": true}',
				},
			},
			store: store(),
		});
		expect(error?.message).toBe('Refused by the test');
		const { text, info } = sentInfo('/jobs/make_job');
		expect(text).toContain(
			'"additional_info":{"__proto__":{"batch":"Q1"},"constructor":1,"b":true}',
		);
		expect(Object.keys(info)).toEqual(['__proto__', 'constructor', 'b']);
	});
});
