/**
 * The same value behaves the same in every field that takes it, through the n8n engine
 * against the fake: each value of a table is mapped (`={{ $json.value }}`) into every field of
 * every operation that takes that kind of value, and every field must either send the same
 * reading to the service (read from the fake's request log) or refuse it before any request
 * with the same reason (the text after `field "<Field>": `).
 *
 * The pure readers have their own table (test/unit/input/sameValueEverywhere.test.ts); this
 * one proves that every operation's field really goes through them.
 */
import type {
	IDataObject,
	INodeParameters,
	INodeProperties,
	INodeTypeDescription,
} from 'n8n-workflow';

import type { IdNoun } from '../../../nodes/shared/input';
import {
	COMMODITIES,
	missingIdReason,
	readCommodity,
	readDate,
	readId,
	readIdList,
} from '../../../nodes/shared/input';
import { GeospatialAnalysis } from '../../../nodes/GeospatialAnalysis/GeospatialAnalysis.node';
import type { FakeService, RequestLogEntry } from '../../fake-service';
import { CredentialStore, runNode } from '../../helpers/engine';
import { useFakeService } from '../../helpers/fakeService';

/** What a field did with a value. */
type Outcome =
	| { sent: unknown }
	| { refused: string }
	/** Anything else (an error that is not a pre-flight refusal, a reading not sent…). */
	| { unexpected: string };

interface Field {
	/** `Job → Create`, as the UI names the operation. */
	op: string;
	/** The field as problems name it (`Item 0, field "<field>": …`). */
	field: string;
	/** The node parameters with this field set to `expression`. */
	parameters: (expression: string) => INodeParameters;
	/** What of the value reached the service, from the request log; undefined when nothing. */
	sent: (log: RequestLogEntry[]) => unknown;
}

interface IdField extends Field {
	noun: IdNoun;
	/** Takes exactly one id. */
	single: boolean;
}

const MAPPED = '={{ $json.value }}';
const PLOT_ID = '100001';

const isDryRun = (e: RequestLogEntry) => e.headers['x-dry-run'] === 'true';

function requests(log: RequestLogEntry[], method: string, path: string | RegExp) {
	return log.filter(
		(e) => e.method === method && (typeof path === 'string' ? e.path === path : path.test(e.path)),
	);
}

/** The ids in the last path segment of the matching requests, each once, in order. */
function idsInPaths(method: string, path: RegExp) {
	return (log: RequestLogEntry[]): string[] | undefined => {
		const ids = requests(log, method, path).map((e) => decodeURIComponent(path.exec(e.path)![1]));
		return ids.length > 0 ? [...new Set(ids)] : undefined;
	};
}

/** The body of the first matching POST. */
function bodyOf(log: RequestLogEntry[], path: string, dryRun?: boolean): IDataObject | undefined {
	return requests(log, 'POST', path).find((e) => dryRun === undefined || isDryRun(e) === dryRun)
		?.body as IDataObject | undefined;
}

const makeJob = (dryRun: boolean) => (log: RequestLogEntry[]) =>
	bodyOf(log, '/jobs/make_job', dryRun);
const perPlotOf = (body: IDataObject | undefined) =>
	(body?.per_plot as Record<string, IDataObject> | undefined)?.[PLOT_ID];
const configOf = (body: IDataObject | undefined) => body?.config as IDataObject | undefined;

const jobOps = [
	{ op: 'Job → Create', operation: 'create', dryRun: false },
	{ op: 'Job → Get Quote', operation: 'getQuote', dryRun: true },
];

const ID_FIELDS: IdField[] = [
	{
		op: 'Plot → Get',
		field: 'Plot ID',
		noun: 'plot',
		single: true,
		parameters: (v) => ({ resource: 'plot', operation: 'get', plotId: v }),
		sent: idsInPaths('GET', /^\/plots\/plot\/([^/]+)$/),
	},
	...jobOps.map(
		({ op, operation, dryRun }): IdField => ({
			op,
			field: 'Plot IDs',
			noun: 'plot',
			single: false,
			parameters: (v) => ({ resource: 'job', operation, plotIds: v }),
			sent: (log) => makeJob(dryRun)(log)?.plot_ids,
		}),
	),
	{
		op: 'Protected Area → Check',
		field: 'Plot IDs',
		noun: 'plot',
		single: false,
		parameters: (v) => ({
			resource: 'protectedArea',
			operation: 'check',
			checkBy: 'plotIds',
			plotIds: v,
		}),
		sent: (log) => bodyOf(log, '/protected-areas/checks')?.plot_ids,
	},
	{
		op: 'Analysis Run → Get Many',
		field: 'Plot ID',
		noun: 'plot',
		single: true,
		parameters: (v) => ({ resource: 'analysisRun', operation: 'getMany', plotId: v }),
		sent: (log) => {
			const ids = requests(log, 'GET', '/analysis-runs').map((e) => e.query.plot_id);
			return ids.length > 0 ? [...new Set(ids)] : undefined;
		},
	},
	{
		op: 'Job → Get',
		field: 'Job IDs',
		noun: 'job',
		single: false,
		parameters: (v) => ({ resource: 'job', operation: 'get', jobId: v }),
		sent: idsInPaths('GET', /^\/jobs\/job\/([^/]+)$/),
	},
	{
		op: 'Job → Get Results',
		field: 'Job IDs',
		noun: 'job',
		single: false,
		parameters: (v) => ({ resource: 'job', operation: 'getResults', jobId: v }),
		sent: idsInPaths('GET', /^\/jobs\/job\/([^/]+)$/),
	},
	{
		op: 'Job → Wait for Completion',
		field: 'Job IDs',
		noun: 'job',
		single: false,
		// the jobs are finished: the first check (after its shortest delay) ends the wait
		parameters: (v) => ({
			resource: 'job',
			operation: 'waitForCompletion',
			jobIds: v,
			options: { firstCheckAfter: 0.1 },
		}),
		sent: idsInPaths('GET', /^\/jobs\/job\/([^/]+)$/),
	},
	{
		op: 'Analysis Run → Get',
		field: 'Run ID',
		noun: 'run',
		single: true,
		parameters: (v) => ({ resource: 'analysisRun', operation: 'get', runId: v }),
		sent: idsInPaths('GET', /^\/analysis-runs\/([^/]+)$/),
	},
	{
		op: 'Protected Area → Get',
		field: 'Area ID',
		noun: 'area',
		single: true,
		parameters: (v) => ({ resource: 'protectedArea', operation: 'get', areaId: v }),
		sent: idsInPaths('GET', /^\/protected-areas\/(?:areas\/)?([^/]+)$/),
	},
];

const COMMODITY_FIELDS: Field[] = [
	{
		op: 'Plot → Register',
		field: 'Commodity',
		parameters: (v) => ({ resource: 'plot', operation: 'register', plotFields: { commodity: v } }),
		sent: (log) => bodyOf(log, '/plots/make_plot')?.commodity,
	},
	...jobOps.flatMap(({ op, operation, dryRun }): Field[] => [
		{
			op,
			field: 'Commodity',
			parameters: (v) => ({ resource: 'job', operation, commodity: v }),
			sent: (log) => configOf(makeJob(dryRun)(log))?.commodity,
		},
		{
			op,
			field: 'Per-Plot Values → Commodity',
			parameters: (v) => ({ resource: 'job', operation, perPlot: { commodity: v } }),
			sent: (log) => perPlotOf(makeJob(dryRun)(log))?.commodity,
		},
	]),
];

const DATE_FIELDS: Field[] = [
	{
		op: 'Plot → Register',
		field: 'Harvest Date',
		parameters: (v) => ({
			resource: 'plot',
			operation: 'register',
			plotFields: { harvestDate: v },
		}),
		sent: (log) => bodyOf(log, '/plots/make_plot')?.harvest_date,
	},
	...jobOps.flatMap(({ op, operation, dryRun }): Field[] => [
		{
			op,
			field: 'Harvest Date',
			parameters: (v) => ({ resource: 'job', operation, harvestDate: v }),
			sent: (log) => configOf(makeJob(dryRun)(log))?.harvest_date,
		},
		{
			op,
			field: 'Per-Plot Values → Harvest Date',
			parameters: (v) => ({ resource: 'job', operation, perPlot: { harvestDate: v } }),
			sent: (log) => perPlotOf(makeJob(dryRun)(log))?.harvest_date,
		},
	]),
	...[
		{ op: 'Plot → Get Many', resource: 'plot', path: '/plots' },
		{ op: 'Job → Get Many', resource: 'job', path: '/jobs' },
	].flatMap(({ op, resource, path }): Field[] =>
		(
			[
				['Created After', 'createdAtFrom', 'created_at_from'],
				['Created Before', 'createdAtUntil', 'created_at_until'],
			] as const
		).map(([field, name, key]) => ({
			op,
			field,
			parameters: (v) => ({ resource, operation: 'getMany', filters: { [name]: v } }),
			sent: (log) => requests(log, 'GET', path)[0]?.query[key],
		})),
	),
];

describe('the same value behaves the same in every field (through the n8n engine, against the fake)', () => {
	let fake: FakeService;
	let store: CredentialStore;

	useFakeService({}, (started) => (fake = started));
	beforeAll(async () => {
		store = new CredentialStore({
			geospatialAnalysisApi: { baseUrl: fake.url, apiKey: fake.users.alice.apiKey },
		});
		// The table's ids must name existing records where a request is expected. Plot ids
		// start at 100001; job ids start at 7001 and keep growing across reset(), so jobs are
		// seeded up to 100000 and dropped, and the next two jobs are 100001 and 100002.
		fake.seedJobs('alice', 100001 - 7001);
		fake.reset();
		expect(fake.seedPlots('alice', 2, { commodity: 'soy' })).toEqual(['100001', '100002']);
		expect(fake.seedJobs('alice', 2, { plotIds: [PLOT_ID] })).toEqual(['100001', '100002']);
		expect(fake.getJob('100001')?.status).toBe('done');
	});

	/** Runs `field` with the value mapped from the input item, and says what it did. */
	async function observe(field: Field, value: unknown): Promise<Outcome> {
		fake.log.clear();
		const { error } = await runNode({
			parameters: field.parameters(MAPPED),
			// what the other fields of these operations read by default
			input: [
				{
					value: value as IDataObject[string],
					plot_id: PLOT_ID,
					latitude: -15.793889,
					longitude: -47.882778,
				},
			],
			store,
		});
		const log = fake.log.entries();
		if (log.length === 0) {
			const prefix = `Item 0, field "${field.field}": `;
			if (error?.message.startsWith(prefix)) return { refused: error.message.slice(prefix.length) };
			return { unexpected: `nothing was sent, and: ${error?.message ?? 'no error'}` };
		}
		const sent = field.sent(log);
		if (sent === undefined) {
			const seen = log.map((e) => `${e.method} ${e.path}`).join(', ');
			return { unexpected: `not sent (requests: ${seen}; error: ${error?.message ?? 'none'})` };
		}
		return { sent };
	}

	/** Every field's outcome for one value, keyed `<operation> › <field>`. */
	async function outcomes<F extends Field>(fields: F[], value: unknown) {
		const got: Record<string, Outcome> = {};
		for (const field of fields) got[`${field.op} › ${field.field}`] = await observe(field, value);
		return got;
	}

	describe('ids', () => {
		type Expected = string[] | 'refused' | 'missing';
		const VALUES: Array<[string, unknown, Expected]> = [
			['a number', 100001, ['100001']],
			['text with spaces around', ' 100001 ', ['100001']],
			['a JSON array typed as text', '[100001, 100002]', ['100001', '100002']],
			['comma-separated text', '100001,100002', ['100001', '100002']],
			['a list of numbers', [100001, 100002], ['100001', '100002']],
			['a dot', '.', 'refused'],
			['two dots', '..', 'refused'],
			['a slash', 'a/b', 'refused'],
			['an unbalanced parenthesis', '1(', ['1(']],
			['empty text', '', 'missing'],
		];

		/** What `field` must do with `value`: the reading, or the input layer's reason. */
		function expected(field: IdField, value: unknown, ids: Expected): Outcome {
			if (ids === 'missing') return { refused: missingIdReason(field.noun) };
			if (ids === 'refused') {
				const read = readIdList(value, field.noun);
				expect(read.kind).toBe('invalid');
				return { refused: read.kind === 'invalid' ? read.reason : '' };
			}
			if (!field.single || ids.length === 1) return { sent: ids };
			// a single-id field refuses a list of two, with the same reason everywhere
			const read = readId(value, field.noun);
			expect(read.kind).toBe('invalid');
			return { refused: read.kind === 'invalid' ? read.reason : '' };
		}

		it.each(VALUES)('%s (%p)', async (_label, value, ids) => {
			const want: Record<string, Outcome> = {};
			for (const field of ID_FIELDS)
				want[`${field.op} › ${field.field}`] = expected(field, value, ids);
			expect(await outcomes(ID_FIELDS, value)).toEqual(want);
		});
	});

	describe('commodities', () => {
		it.each(['Palm Oil', 'palm-oil', 'palm_oil', 'PALM OIL', 'banana'])('%p', async (value) => {
			const read = readCommodity(value);
			const outcome: Outcome =
				value === 'banana'
					? { refused: read.kind === 'invalid' ? read.reason : 'the reader refuses it' }
					: { sent: 'palm_oil' };
			const want = Object.fromEntries(
				COMMODITY_FIELDS.map((f) => [`${f.op} › ${f.field}`, outcome]),
			);
			expect(await outcomes(COMMODITY_FIELDS, value)).toEqual(want);
		});

		const description = new GeospatialAnalysis().nodeVersions[1]
			.description as INodeTypeDescription;
		const property = (name: string, operation: string): INodeProperties => {
			const found = description.properties.find(
				(p) => p.name === name && p.displayOptions?.show?.operation?.includes(operation),
			);
			if (!found) throw new Error(`no property ${name} for ${operation}`);
			return found;
		};

		it('the Commodity options of Create are the values the reader accepts, each sent as itself', async () => {
			const options = (property('commodity', 'create').options ?? []) as Array<{
				name: string;
				value: unknown;
			}>;
			const values = options.map((o) => o.value).filter((v) => v !== '');
			expect([...values].sort()).toEqual([...COMMODITIES].sort());
			for (const value of values) expect(readCommodity(value)).toEqual({ kind: 'value', value });
			const quote = COMMODITY_FIELDS.find(
				(f) => f.op === 'Job → Get Quote' && f.field === 'Commodity',
			)!;
			for (const value of values) {
				fake.log.clear();
				const { error } = await runNode({
					parameters: { ...quote.parameters(MAPPED), commodity: value as string },
					input: [{ plot_id: PLOT_ID }],
					store,
				});
				expect({ value, error: error?.message, sent: quote.sent(fake.log.entries()) }).toEqual({
					value,
					error: undefined,
					sent: value,
				});
			}
		});

		it('the commodity fields of Register and Create name every commodity the reader accepts', () => {
			const texts = [
				property('plotFields', 'register').options?.find((o) => o.name === 'commodity'),
				property('perPlot', 'create').options?.find((o) => o.name === 'commodity'),
			].map((p) => (p as INodeProperties | undefined)?.description ?? '');
			for (const text of texts) for (const c of COMMODITIES) expect(text).toContain(c);
		});
	});

	describe('dates', () => {
		it.each([
			['2024-03-15', true],
			['15.03.2024', true],
			['15 March 2024', true],
			['45366', true],
			[45366, true],
			['2025-02-30', false],
			['31.04.2024', false],
			// ambiguous: Register's Date Order is "reject" by default, and the other fields have none
			['03/04/2024', false],
		])('%p', async (value, readable) => {
			const read = readDate(value);
			const outcome: Outcome = readable
				? { sent: '2024-03-15' }
				: { refused: read.kind === 'invalid' ? read.reason : 'the reader refuses it' };
			const want = Object.fromEntries(DATE_FIELDS.map((f) => [`${f.op} › ${f.field}`, outcome]));
			expect(await outcomes(DATE_FIELDS, value)).toEqual(want);
		});
	});
});
