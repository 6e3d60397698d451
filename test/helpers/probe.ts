/**
 * A test-only node that sends one request through the package's transport (apiRequest),
 * so transport behaviour (headers, retries, errors, re-login) is tested through n8n's
 * engine independently of any operation.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { apiRequest } from '../../nodes/shared/transport/request';
import { registerNodeType } from './engine';

export const PROBE_NODE_TYPE = 'test.transportProbe';

class TransportProbe implements INodeType {
	description = {
		displayName: 'Transport Probe',
		name: PROBE_NODE_TYPE,
		group: ['transform'],
		version: 1,
		description: 'Sends one request per item through apiRequest',
		defaults: { name: 'Probe' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [
			{
				name: 'geospatialAnalysisApi',
				required: true,
				displayOptions: { show: { authentication: ['apiKey'] } },
			},
			{
				name: 'geospatialAnalysisLoginApi',
				required: true,
				displayOptions: { show: { authentication: ['login'] } },
			},
		],
		properties: [
			{
				displayName: 'Authentication',
				name: 'authentication',
				type: 'options',
				options: [
					{ name: 'API Key', value: 'apiKey' },
					{ name: 'Login', value: 'login' },
				],
				default: 'apiKey',
			},
			{ displayName: 'Method', name: 'method', type: 'string', default: 'GET' },
			{ displayName: 'Path', name: 'path', type: 'string', default: '/users/check_tokens' },
			{ displayName: 'Body', name: 'body', type: 'json', default: '' },
			{ displayName: 'Idempotent', name: 'idempotent', type: 'string', default: '' },
		],
	} as unknown as INodeTypeDescription;

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const out: INodeExecutionData[] = [];
		const items = this.getInputData();
		for (let i = 0; i < items.length; i++) {
			const method = this.getNodeParameter('method', i) as IHttpRequestMethods;
			const path = this.getNodeParameter('path', i) as string;
			const rawBody = this.getNodeParameter('body', i) as string | IDataObject;
			const idempotent = this.getNodeParameter('idempotent', i) as string;
			const body =
				rawBody === '' ? undefined : typeof rawBody === 'string' ? JSON.parse(rawBody) : rawBody;
			const json = await apiRequest.call(this, method, path, {
				body,
				itemIndex: i,
				idempotent: idempotent === '' ? undefined : idempotent === 'true',
			});
			out.push({
				json: (json && typeof json === 'object' ? json : { value: json }) as IDataObject,
				pairedItem: { item: i },
			});
		}
		return [out];
	}
}

registerNodeType(PROBE_NODE_TYPE, new TransportProbe());
