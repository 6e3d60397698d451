/**
 * Runs this package's nodes through n8n's real execution engine (n8n-core's
 * WorkflowExecute), the way n8n does, with a credentials helper that behaves like
 * n8n's own (preAuthentication when the expirable field is empty or expired, generic
 * authentication templates resolved by n8n's expression engine, updated credentials
 * persisted between runs).
 */
import { ExecutionLifecycleHooks, InstanceSettings, PollContext, WorkflowExecute } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypes,
	IRun,
	IRunExecutionData,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { createDeferredPromise, ICredentialsHelper, NodeHelpers, Workflow } from 'n8n-workflow';

import { GeospatialAnalysisApi } from '../../credentials/GeospatialAnalysisApi.credentials';
import { GeospatialAnalysisLoginApi } from '../../credentials/GeospatialAnalysisLoginApi.credentials';
import { GeospatialAnalysis } from '../../nodes/GeospatialAnalysis/GeospatialAnalysis.node';

export const ACTION_NODE_TYPE = 'n8n-nodes-geospatial-analysis.geospatialAnalysis';
export const TRIGGER_NODE_TYPE = 'n8n-nodes-geospatial-analysis.geospatialAnalysisTrigger';
const INPUT_NODE_TYPE = 'test.input';

/** A start node that emits the items given to the run. */
class TestInput implements INodeType {
	description = {
		displayName: 'Test Input',
		name: 'test.input',
		group: ['input'],
		version: 1,
		description: 'Emits the test items',
		defaults: { name: 'Input' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [],
	} as unknown as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

const credentialTypes: Record<string, ICredentialType> = {
	geospatialAnalysisApi: new GeospatialAnalysisApi(),
	geospatialAnalysisLoginApi: new GeospatialAnalysisLoginApi(),
};

const extraNodeTypes: Record<string, INodeType | IVersionedNodeType> = {};

/** Registers another credential type (e.g. the EU Information System's) with the harness. */
export function registerCredentialType(name: string, type: ICredentialType) {
	credentialTypes[name] = type;
}

/** Registers another node type (e.g. the trigger) with the harness. */
export function registerNodeType(name: string, type: INodeType | IVersionedNodeType) {
	extraNodeTypes[name] = type;
}

class NodeTypes implements INodeTypes {
	private readonly types: Record<string, INodeType | IVersionedNodeType> = {
		[ACTION_NODE_TYPE]: new GeospatialAnalysis(),
		[INPUT_NODE_TYPE]: new TestInput(),
	};

	private lookup(name: string) {
		const type = this.types[name] ?? extraNodeTypes[name];
		if (!type) throw new Error(`Unknown node type ${name}`);
		return type;
	}

	getByName(name: string) {
		return this.lookup(name);
	}

	getByNameAndVersion(name: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.lookup(name), version);
	}

	getKnownTypes() {
		return {};
	}
}

/** Credential store shared by runs, like n8n's database: what preAuthentication writes persists. */
export class CredentialStore {
	data: Record<string, ICredentialDataDecryptedObject> = {};

	/** How many times preAuthentication ran (i.e. logins). */
	logins = 0;

	/** How many times a node read (decrypted) a credential. */
	reads = 0;

	constructor(initial: Record<string, ICredentialDataDecryptedObject> = {}) {
		for (const [type, value] of Object.entries(initial)) this.data[type] = { ...value };
	}
}

class TestCredentialsHelper extends ICredentialsHelper {
	constructor(private readonly store: CredentialStore) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
		workflow: Workflow,
		node: INode,
	): Promise<IHttpRequestOptions> {
		const type = credentialTypes[typeName];
		const { authenticate } = type;
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		if (authenticate && authenticate.type === 'generic') {
			requestOptions.headers ??= {};
			for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
				for (const [key, value] of Object.entries(outerValue as Record<string, string>)) {
					const resolved =
						typeof value === 'string' && value.startsWith('=')
							? workflow.expression.getSimpleParameterValue(
									node,
									value,
									'internal',
									{ $credentials: credentials },
									undefined,
									'',
								)
							: value;
					const target = ((requestOptions as unknown as IDataObject)[outerKey] ??=
						{}) as IDataObject;
					target[key] = resolved as string;
				}
			}
		}
		return requestOptions;
	}

	/** Mirrors n8n's CredentialsHelper.preAuthentication. */
	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		_node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = credentialTypes[typeName];
		const expirable = type.properties.find(
			(p) => p.type === 'hidden' && p.typeOptions?.expirable === true,
		);
		if (!expirable || typeof type.preAuthentication !== 'function') return undefined;
		if (
			credentials[expirable.name] === '' ||
			credentials[expirable.name] === undefined ||
			credentialsExpired
		) {
			const output = await type.preAuthentication.call(helpers, credentials);
			this.store.logins++;
			if (output[expirable.name] === undefined) return undefined;
			Object.assign(credentials, output);
			this.store.data[typeName] = {
				...this.store.data[typeName],
				...output,
			} as ICredentialDataDecryptedObject;
			return credentials;
		}
		return undefined;
	}

	async getCredentials(): Promise<never> {
		throw new Error('not used');
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.store.data[type];
		if (!data) throw new Error(`No test credentials of type ${type}`);
		this.store.reads++;
		return { ...data };
	}

	async updateCredentials(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.store.data[type] = { ...data };
	}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string) {
		return credentialTypes[type].properties;
	}
}

// n8n-core must be given the DI container of its own @n8n/di copy (the lint tooling brings another).
const { Container } = require(
	require.resolve('@n8n/di', { paths: [require.resolve('n8n-core')] }),
) as typeof import('@n8n/di');

let containerReady = false;
/** Prepares the services n8n-core resolves from its DI container (once per process). */
export function prepareContainer() {
	if (containerReady) return;
	// Give n8n-core an isolated user folder unless the caller chose one.
	if (!process.env.N8N_USER_FOLDER) {
		const folder = require('node:fs').mkdtempSync(
			require('node:path').join(require('node:os').tmpdir(), 'n8n-test-'),
		);
		process.env.N8N_USER_FOLDER = folder;
	}
	process.env.N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS = 'false';
	Container.get(InstanceSettings);
	containerReady = true;
}

export function additionalData(
	store: CredentialStore,
	hooks?: ExecutionLifecycleHooks,
): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper: new TestCredentialsHelper(store),
		hooks,
		executeWorkflow: async () => {
			throw new Error('not supported in tests');
		},
		getRunExecutionData: async () => undefined,
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://127.0.0.1/rest',
		instanceBaseUrl: 'http://127.0.0.1/',
		formWaitingBaseUrl: 'http://127.0.0.1/form-waiting',
		webhookBaseUrl: 'http://127.0.0.1/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1/webhook-test',
		variables: {},
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new Error('not supported in tests');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
}

export interface RunNodeOptions {
	/** Parameters of our node (resource, operation, …). `authentication` defaults to apiKey. */
	parameters: INodeParameters;
	/** Input items' json. Default: one empty item. */
	input?: IDataObject[];
	/** Whole input items (e.g. with binary data), instead of `input`. */
	inputItems?: INodeExecutionData[];
	store: CredentialStore;
	continueOnFail?: boolean;
	/** n8n's "On Error" setting instead of continueOnFail's continueRegularOutput (e.g. continueErrorOutput). */
	onError?: 'continueRegularOutput' | 'continueErrorOutput';
	nodeType?: string;
	typeVersion?: number;
	mode?: WorkflowExecuteMode;
	/**
	 * Cancel the execution, as the editor's Stop button does, once this promise settles (an
	 * event of the run, e.g. the node's first wait: never a number of milliseconds).
	 */
	cancelWhen?: Promise<unknown>;
	/** false: the node has no credential selected (default: the one `authentication` names). */
	withCredential?: boolean;
	/** The credential type the node is given (default: the one `authentication` names). */
	credentialType?: string;
}

export interface RunNodeResult {
	/** Output items of our node (first output). */
	items: INodeExecutionData[];
	/** The node's error, when the execution failed. */
	error?: Error & { description?: string; httpCode?: string; context?: IDataObject };
	run: IRun;
}

/** n8n's tool variant of a node type (its name ends with "Tool"). */
const isToolType = (nodeType: string | undefined) => nodeType?.endsWith('Tool') === true;

/** Executes Input → our node through WorkflowExecute and returns our node's output. */
export async function runNode(options: RunNodeOptions): Promise<RunNodeResult> {
	prepareContainer();
	const nodeName = 'Geospatial Analysis';
	const parameters = { authentication: 'apiKey', ...options.parameters };
	const credentialType =
		options.credentialType ??
		(parameters.authentication === 'login'
			? 'geospatialAnalysisLoginApi'
			: 'geospatialAnalysisApi');
	const nodes: INode[] = [
		{
			id: 'in',
			name: 'Input',
			type: INPUT_NODE_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: 'geo',
			name: nodeName,
			type: options.nodeType ?? ACTION_NODE_TYPE,
			typeVersion: options.typeVersion ?? 1,
			position: [200, 0],
			parameters,
			...(options.withCredential === false
				? {}
				: { credentials: { [credentialType]: { id: '1', name: 'Test credential' } } }),
			continueOnFail: options.continueOnFail,
			...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
			...(options.onError ? { onError: options.onError } : {}),
		},
	];
	const workflow = new Workflow({
		id: 'test',
		name: 'test',
		nodes,
		connections: { Input: { main: [[{ node: nodeName, type: 'main', index: 0 }]] } },
		active: false,
		nodeTypes: new NodeTypes(),
		settings: { executionOrder: 'v1' },
	});

	const hooks = new ExecutionLifecycleHooks('manual', 'test-execution', {
		id: 'test',
		name: 'test',
		nodes,
		connections: {},
		active: false,
	} as never);
	const done = createDeferredPromise<IRun>();
	hooks.addHandler('workflowExecuteAfter', (run) => done.resolve(run));

	const runExecutionData = {
		version: 1,
		// An AI Agent tool ("…Tool") is no main child in n8n: the agent (or, for a step run, n8n's
		// ToolExecutor) calls it, and n8n's check of parameter issues before a run covers the
		// nodes before it, never the tool. Wired here as Input's child, the tool is named the
		// run's exclusive destination, so the engine checks what it checks in n8n and still runs it.
		...(isToolType(options.nodeType)
			? { startData: { destinationNode: { nodeName, mode: 'exclusive' } } }
			: {}),
		resultData: { runData: {} },
		executionData: {
			contextData: {},
			metadata: {},
			waitingExecution: {},
			waitingExecutionSource: null,
			nodeExecutionStack: [
				{
					node: workflow.getNode('Input')!,
					data: {
						main: [options.inputItems ?? (options.input ?? [{}]).map((json) => ({ json }))],
					},
					source: null,
				},
			],
		},
	} as unknown as IRunExecutionData;
	const execute = new WorkflowExecute(
		additionalData(options.store, hooks),
		options.mode ?? 'manual',
		runExecutionData,
	);
	const running = execute.processRunExecutionData(workflow);
	if (options.cancelWhen !== undefined) {
		// n8n aborts the execution's cancel signal and reports the run at once; the node's own
		// work ends when it notices the signal.
		const cancel = () => running.cancel();
		options.cancelWhen.then(cancel, cancel);
	} else {
		await running;
	}
	const run = await done.promise;
	const task = run.data.resultData.runData[nodeName]?.[0];
	const items = task?.data?.main?.[0] ?? [];
	const error = (task?.error ?? run.data.resultData.error) as RunNodeResult['error'];
	return { items, error, run };
}

export { Workflow, PollContext };
