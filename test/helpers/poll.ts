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
	INodeType,
	INodeParameters,
	IPollFunctions,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { GeospatialAnalysisTrigger } from '../../nodes/GeospatialAnalysisTrigger/GeospatialAnalysisTrigger.node';
import type { FakeService } from '../fake-service';
import {
	CredentialStore,
	PollContext,
	prepareContainer,
	registerNodeType,
	TRIGGER_NODE_TYPE,
	Workflow,
	additionalData,
} from './engine';
import type { SharedClock } from './fakeService';
import { followFakeClock, useFakeService } from './fakeService';

export { CredentialStore };

// n8n's loader puts "Poll Times" first among a polling node's properties (DirectoryLoader).
const { commonPollingParameters } =
	require('n8n-core/dist/nodes-loader/constants') as typeof import('n8n-core/dist/nodes-loader/constants');

/** A polling trigger as the harness runs it: the node, its type name, its credential. */
export interface PollTrigger {
	node: INodeType & { poll: NonNullable<INodeType['poll']> };
	type: string;
	/** The node's default name. */
	name: string;
	/** The credential type the node uses with these parameters. */
	credentialType(parameters: INodeParameters): string;
	/** Parameters every run starts from (the test's parameters override them). */
	baseParameters?: INodeParameters;
}

/** Registers a polling trigger with the harness, "Poll Times" first as n8n's loader does. */
export function pollTrigger(setup: PollTrigger): PollTrigger {
	setup.node.description.properties.unshift(...commonPollingParameters);
	registerNodeType(setup.type, setup.node);
	return setup;
}

const geospatialTrigger = pollTrigger({
	node: new GeospatialAnalysisTrigger(),
	type: TRIGGER_NODE_TYPE,
	name: 'Geospatial Analysis Trigger',
	credentialType: (parameters) =>
		parameters.authentication === 'login' ? 'geospatialAnalysisLoginApi' : 'geospatialAnalysisApi',
	baseParameters: { authentication: 'apiKey' },
});

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
	/** The trigger polled (default: the Geospatial Analysis Trigger). */
	trigger?: PollTrigger;
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

interface PollSetup {
	parameters: INodeParameters;
	store: CredentialStore;
	nodeName?: string;
	mode?: WorkflowExecuteMode;
	activation?: WorkflowActivateMode;
	trigger?: PollTrigger;
}

/**
 * A Workflow holding the trigger node (with `staticData`, as n8n loads it from its database)
 * and the PollContext n8n makes for it, with its logger captured into `logs`.
 */
function buildContext(
	options: PollSetup,
	staticData: IDataObject | undefined,
	logs: LogEntry[],
): { workflow: Workflow; ctx: IPollFunctions; nodeName: string } {
	prepareContainer();
	const polled = options.trigger ?? geospatialTrigger;
	const trigger = polled.node;
	const nodeName = options.nodeName ?? polled.name;
	const parameters: INodeParameters = { ...polled.baseParameters, ...options.parameters };
	const credentialType = polled.credentialType(parameters);
	const node: INode = {
		id: 'trigger',
		name: nodeName,
		type: polled.type,
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
		staticData: staticData ? (JSON.parse(JSON.stringify(staticData)) as IDataObject) : undefined,
		settings: { executionOrder: 'v1' },
	});
	const ctx = new PollContext(
		workflow,
		workflow.getNode(nodeName)!,
		additionalData(options.store),
		options.mode ?? 'trigger',
		options.activation ?? 'activate',
	);
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
	return { workflow, ctx: ctx as unknown as IPollFunctions, nodeName };
}

/** Runs poll() once on `ctx`; its items, or the error it threw. */
async function pollOnce(
	ctx: IPollFunctions,
	polled: PollTrigger = geospatialTrigger,
): Promise<{ items: INodeExecutionData[] | null; error?: RunPollResult['error'] }> {
	try {
		const out = await polled.node.poll.call(ctx);
		return { items: out ? (out[0] ?? []) : null };
	} catch (e) {
		return { items: null, error: e as RunPollResult['error'] };
	}
}

function copyStaticData(workflow: Workflow, nodeName: string) {
	const staticData = JSON.parse(JSON.stringify(workflow.staticData ?? {})) as IDataObject;
	delete staticData.__dataChanged;
	const nodeStaticData = (staticData[`node:${nodeName}`] ?? {}) as IDataObject;
	return { staticData, nodeStaticData };
}

export async function runPoll(options: RunPollOptions): Promise<RunPollResult> {
	const logs: LogEntry[] = [];
	const { workflow, ctx, nodeName } = buildContext(options, options.staticData, logs);
	const { items, error } = await pollOnce(ctx, options.trigger);
	return { items, error, ...copyStaticData(workflow, nodeName), logs };
}

/**
 * What n8n keeps of the trigger's static data between polls (n8n's source: packages/core
 * ActiveWorkflowTriggers / PollTriggerExecutor, packages/cli TriggerExecutionContextFactory /
 * PollTriggerTaskHandler / PollCursorService, 2.40.7):
 *
 * - `default`: n8n's default poller. One Workflow and one PollContext for the whole
 *   activation, reused by every poll; the static data stays in memory from poll to poll. It is
 *   written to the database when a poll emits (n8n also writes it after the activation poll;
 *   left out here, which is harsher). A restart re-activates from the database.
 * - `durable`: the durable scheduler with durable cursors (N8N_SCHEDULER_ENABLED,
 *   N8N_SCHEDULER_POLL_TRIGGERS_ENABLED, N8N_POLLER_DURABLE_CURSORS_ENABLED). Every poll gets a
 *   new Workflow and PollContext, its node static data a copy of the stored cursor; the copy is
 *   stored when the poll emits, and when a scheduled poll emits nothing, but not when the
 *   activation poll emits nothing. A restart changes nothing (the cursor is in the database).
 * - `emitted`: harsher than any n8n: a new context per poll, and only the state of a poll that
 *   emitted is kept (the state of every poll that emitted nothing is discarded).
 *
 * A poll that throws keeps nothing, in every mode.
 */
export type StateKeeping = 'default' | 'durable' | 'emitted';

export interface PollerOptions extends PollSetup {
	keeping: StateKeeping;
	/** The workflow's static data in n8n's database at activation (default: none). */
	staticData?: IDataObject;
}

export interface PollerResult extends RunPollResult {
	/** Whether this poll was an activation poll (the first of an activation). */
	activation: boolean;
	/** Whether n8n keeps the state this poll left (see StateKeeping). */
	kept: boolean;
}

/** One activated trigger polled as n8n polls it, keeping its state as `keeping` says. */
export class Poller {
	/** What n8n has in its database (the workflow's static data, or the durable cursor). */
	saved: IDataObject | undefined;

	/** How many activation polls succeeded. */
	activations = 0;

	private live?: { workflow: Workflow; ctx: IPollFunctions; nodeName: string; logs: LogEntry[] };

	private activating = true;

	constructor(private readonly options: PollerOptions) {
		this.saved = options.staticData
			? (JSON.parse(JSON.stringify(options.staticData)) as IDataObject)
			: undefined;
	}

	/** n8n restarts: what is only in memory is lost; the default poller activates again. */
	restart(): void {
		if (this.options.keeping === 'default') {
			this.live = undefined;
			this.activating = true;
		}
	}

	async poll(): Promise<PollerResult> {
		const activation = this.activating;
		const reuse = this.options.keeping === 'default' && this.live !== undefined;
		const logs: LogEntry[] = [];
		let live = this.live;
		if (reuse) {
			live!.logs.length = 0;
		} else {
			live = { ...buildContext(this.options, this.saved, logs), logs };
		}
		const { items, error } = await pollOnce(live!.ctx, this.options.trigger);
		const after = copyStaticData(live!.workflow, live!.nodeName);
		const result = { items, error, ...after, logs: [...live!.logs], activation, kept: false };
		if (error) {
			// A thrown activation poll fails the activation: the next poll activates again.
			if (activation) this.live = undefined;
			return result;
		}
		if (activation) {
			this.activating = false;
			this.activations++;
		}
		const emitted = items !== null;
		switch (this.options.keeping) {
			case 'default':
				this.live = live;
				result.kept = true;
				if (emitted) this.saved = after.staticData;
				break;
			case 'durable':
				result.kept = emitted || !activation;
				break;
			case 'emitted':
				result.kept = emitted;
				break;
		}
		if (this.options.keeping !== 'default' && result.kept) this.saved = after.staticData;
		return result;
	}
}

export type { SharedClock };
export { followFakeClock };

/**
 * For a describe block of trigger tests: one fake service (plots taking a minute each) with
 * the trigger's clock following it (followFakeClock); before each test the fake is reset and
 * stopped at scale 0 and the clock synced. `use` receives both once they exist.
 */
export function useFakeWithTriggerClock(
	use: (fake: FakeService, clock: SharedClock) => void,
): void {
	useFakeService(
		{ perPlotDurationMs: 60_000, followClock: true, resetBeforeEach: true },
		(fake, { clock }) => use(fake, clock!),
	);
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
