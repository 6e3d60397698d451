/**
 * A capability added to the service's catalog at run time shows up in the job node's
 * check options (loaded through n8n-core's own LoadOptionsContext, as the editor does)
 * and runs in a job created through the engine, with no code change.
 */
import { LoadOptionsContext } from 'n8n-core';
import type {
	INode,
	INodeType,
	INodeTypes,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import type { Capability, FakeService } from '../../fake-service';
import { ACTION_NODE_TYPE, additionalData, CredentialStore, runNode } from '../../helpers/engine';
import { GeospatialAnalysis } from '../../../nodes/GeospatialAnalysis/GeospatialAnalysis.node';
import { loadOptions } from '../../../nodes/GeospatialAnalysis/v1/methods';
import { useFakeService } from '../../helpers/fakeService';
import { makePlots } from '../../helpers/fakeSetup';

const CARBON: Capability = {
	name: 'carbon_stock',
	label: 'Carbon Stock',
	description: 'Above-ground carbon stock of the plot',
	input_schema: {
		type: 'object',
		properties: { depth_cm: { type: 'integer', minimum: 0, maximum: 300 } },
		required: ['depth_cm'],
		additionalProperties: false,
	},
	cost_hint: { model: 'per_plot', tokens_per_plot: 3, currency: 'tokens' },
};

class NodeTypes implements INodeTypes {
	private readonly node = new GeospatialAnalysis();

	getByName(): INodeType | IVersionedNodeType {
		return this.node;
	}

	getByNameAndVersion(_name: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.node, version);
	}

	getKnownTypes() {
		return {};
	}
}

/** The context n8n gives a loadOptions method when the editor opens the Checks list of Job → Create. */
function editorContext(store: CredentialStore): LoadOptionsContext {
	const parameters = {
		authentication: 'apiKey',
		resource: 'job',
		operation: 'create',
		checkSource: 'list',
		checks: [],
	};
	const node: INode = {
		id: 'geo',
		name: 'Geospatial Analysis',
		type: ACTION_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: { geospatialAnalysisApi: { id: '1', name: 'Test credential' } },
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: new NodeTypes(),
	});
	const data = {
		...additionalData(store),
		currentNodeParameters: parameters,
	} as IWorkflowExecuteAdditionalData;
	return new LoadOptionsContext(workflow, node, data, 'parameters.checks');
}

describe('A capability added to the catalog at run time', () => {
	let fake: FakeService;
	let store: CredentialStore;
	let plotId: string;

	useFakeService({ perPlotDurationMs: 1000 }, (started) => (fake = started));
	beforeAll(async () => {
		fake.clock.setScale(0);
		store = new CredentialStore({
			geospatialAnalysisApi: { baseUrl: fake.url, apiKey: fake.users.alice.apiKey },
		});
		[plotId] = await makePlots(fake, fake.users.alice.apiKey, ['Carbon plot']);
		// The first run also prepares n8n-core's container, which LoadOptionsContext needs.
		const { error } = await runNode({
			parameters: { resource: 'capability', operation: 'getMany' },
			store,
		});
		expect(error).toBeUndefined();
	});

	it("appears in the job node's check options, loaded through n8n's LoadOptionsContext", async () => {
		const before = await loadOptions.getChecks.call(editorContext(store));
		expect(before.map((o) => o.value)).toContain('eudr');
		expect(before.map((o) => o.value)).not.toContain(CARBON.name);

		fake.addCapability(CARBON);

		const after = await loadOptions.getChecks.call(editorContext(store));
		expect(after).toHaveLength(before.length + 1);
		expect(after).toContainEqual({
			name: 'Carbon Stock',
			value: 'carbon_stock',
			description: expect.stringContaining('Above-ground carbon stock'),
		});
		// The request went out over HTTP with the credential, like any other.
		const entries = fake.log.entries().filter((e) => e.path === '/v3/discovery/capabilities');
		expect(entries.at(-1)).toMatchObject({ status: 200, auth: 'api_key', user: 'alice' });
	});

	it('is validated against its catalog schema before anything is sent', async () => {
		fake.log.clear();
		const { error } = await runNode({
			parameters: {
				resource: 'job',
				operation: 'create',
				plotIds: plotId,
				checkSource: 'list',
				checks: ['carbon_stock'],
				checkConfigs: { config: [{ check: 'carbon_stock', json: '{"depth_cm": 900}' }] },
			},
			store,
		});
		expect(error?.message).toMatch(/^Invalid config for check "carbon_stock" in item 0: /);
		expect(fake.log.count({ method: 'POST', path: '/jobs/make_job' })).toBe(0);
	});

	it('runs in a job created through the engine, and its analysis run can be read back', async () => {
		const option = (await loadOptions.getChecks.call(editorContext(store))).find(
			(o) => o.value === CARBON.name,
		);
		expect(option).toBeDefined();
		const balanceBefore = fake.getBalance('alice').total;

		const created = await runNode({
			parameters: {
				resource: 'job',
				operation: 'create',
				plotIds: plotId,
				checkSource: 'list',
				checks: [option!.value],
				checkConfigs: { config: [{ check: 'carbon_stock', json: '{"depth_cm": 30}' }] },
			},
			store,
		});
		expect(created.error).toBeUndefined();
		expect(created.items).toHaveLength(1);
		const jobId = String(created.items[0].json.job_id);
		const make = fake.log
			.entries()
			.find((e) => e.method === 'POST' && e.path === '/jobs/make_job' && e.status === 200);
		expect(make?.body).toMatchObject({
			plot_ids: [plotId],
			checks: [{ type: 'carbon_stock', config: { depth_cm: 30 } }],
		});
		expect(fake.getJob(jobId)).toMatchObject({
			checks: [{ type: 'carbon_stock', config: { depth_cm: 30 } }],
		});

		fake.clock.advance(10_000);
		expect(fake.getJob(jobId)).toMatchObject({ status: 'done', tokensCharged: 3 });
		expect(fake.getBalance('alice').total).toBe(balanceBefore - 3);

		const runs = await runNode({
			parameters: {
				resource: 'analysisRun',
				operation: 'getMany',
				plotId,
				returnAll: true,
				simplify: true,
			},
			store,
		});
		expect(runs.error).toBeUndefined();
		expect(runs.items.map((i) => i.json)).toEqual([
			expect.objectContaining({
				check_type: 'carbon_stock',
				job_id: jobId,
				status: 'completed',
				token_cost: 3,
			}),
		]);
		const run = await runNode({
			parameters: {
				resource: 'analysisRun',
				operation: 'get',
				runId: runs.items[0].json.run_id as string,
			},
			store,
		});
		expect(run.items[0].json).toMatchObject({
			check_type: 'carbon_stock',
			config: { depth_cm: 30 },
		});
		expect(run.items[0].json.output).toBeTruthy();
	});
});
