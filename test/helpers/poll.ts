/**
 * Runs a polling trigger's poll() the way n8n does: in n8n-core's real PollContext, with
 * the workflow's static data handed in and handed back. The caller decides what n8n would
 * persist: a new Workflow is built from `staticData` on every call, so a thrown poll (or
 * a restart) loses exactly what it would lose in n8n.
 */
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	IPollFunctions,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { GeospatialAnalysisTrigger } from '../../nodes/GeospatialAnalysisTrigger/GeospatialAnalysisTrigger.node';
import {
	CredentialStore,
	PollContext,
	prepareContainer,
	registerNodeType,
	TRIGGER_NODE_TYPE,
	Workflow,
	additionalData,
} from './engine';

export { CredentialStore };

const trigger = new GeospatialAnalysisTrigger();
registerNodeType(TRIGGER_NODE_TYPE, trigger);

export interface LogEntry {
	level: 'warn' | 'error' | 'info' | 'debug';
	message: string;
	meta?: unknown;
}

export interface RunPollOptions {
	parameters: INodeParameters;
	store: CredentialStore;
	/** The workflow's static data as n8n stored it (whole workflow), or undefined on first activation. */
	staticData?: IDataObject;
	/** 'trigger' (active workflow, default) or 'manual' (testing the trigger in the editor). */
	mode?: WorkflowExecuteMode;
	activation?: WorkflowActivateMode;
	nodeName?: string;
}

export interface RunPollResult {
	/** poll()'s return value: the items of its first output, or null when it emitted nothing. */
	items: INodeExecutionData[] | null;
	error?: Error & { description?: string; httpCode?: string };
	/** The workflow's static data after the poll (a JSON copy). */
	staticData: IDataObject;
	/** The node's static data after the poll (a JSON copy). */
	nodeStaticData: IDataObject;
	/** What the node logged through this.logger. */
	logs: LogEntry[];
}

export async function runPoll(options: RunPollOptions): Promise<RunPollResult> {
	prepareContainer();
	const nodeName = options.nodeName ?? 'Geospatial Analysis Trigger';
	const parameters = { authentication: 'apiKey', ...options.parameters };
	const credentialType =
		parameters.authentication === 'login' ? 'geospatialAnalysisLoginApi' : 'geospatialAnalysisApi';
	const node: INode = {
		id: 'trigger',
		name: nodeName,
		type: TRIGGER_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [credentialType]: { id: '1', name: 'Test credential' } },
	};
	// Defaults resolved as n8n does when it loads a workflow.
	node.parameters =
		NodeHelpers.getNodeParameters(
			trigger.description.properties,
			parameters,
			true,
			false,
			node,
			trigger.description,
		) ?? parameters;
	const workflow = new Workflow({
		id: 'poll-test',
		name: 'poll test',
		nodes: [node],
		connections: {},
		active: true,
		nodeTypes: {
			getByName: () => trigger,
			getByNameAndVersion: () => trigger,
			getKnownTypes: () => ({}),
		},
		staticData: options.staticData
			? (JSON.parse(JSON.stringify(options.staticData)) as IDataObject)
			: undefined,
		settings: { executionOrder: 'v1' },
	});
	const ctx = new PollContext(
		workflow,
		workflow.getNode(nodeName)!,
		additionalData(options.store),
		options.mode ?? 'trigger',
		options.activation ?? 'activate',
	);
	const logs: LogEntry[] = [];
	const capture = (level: LogEntry['level']) => (message: string, meta?: unknown) =>
		logs.push({ level, message, meta });
	Object.defineProperty(ctx, 'logger', {
		value: {
			warn: capture('warn'),
			error: capture('error'),
			info: capture('info'),
			debug: capture('debug'),
		},
	});
	let items: INodeExecutionData[] | null = null;
	let error: RunPollResult['error'];
	try {
		const out = await trigger.poll.call(ctx as unknown as IPollFunctions);
		items = out ? (out[0] ?? []) : null;
	} catch (e) {
		error = e as RunPollResult['error'];
	}
	const staticData = JSON.parse(JSON.stringify(workflow.staticData ?? {})) as IDataObject;
	delete staticData.__dataChanged;
	const nodeStaticData = (staticData[`node:${nodeName}`] ?? {}) as IDataObject;
	return { items, error, staticData, nodeStaticData, logs };
}

/** Creates a job on the fake over HTTP, as a user would (for trigger tests). */
export async function makeJob(
	baseUrl: string,
	apiKey: string,
	body: { plot_ids: string[]; job_name?: string; checks?: unknown[] },
): Promise<IDataObject> {
	const res = await fetch(`${baseUrl}/jobs/make_job`, {
		method: 'POST',
		headers: {
			'X-API-Version': '3',
			Authorization: `Bearer ${apiKey}`,
			'Content-Type': 'application/json',
			Accept: 'application/json',
		},
		body: JSON.stringify(body),
	});
	const json = (await res.json()) as IDataObject;
	if (res.status !== 200 && res.status !== 201)
		throw new Error(`make_job failed: ${res.status} ${JSON.stringify(json)}`);
	return json;
}
