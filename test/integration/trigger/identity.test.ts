/**
 * Issue 21, item 4: the trigger's static data holds nothing the secret or the user name can be
 * read back from (through n8n's PollContext, against the fake), a changed account is still
 * noticed (trigger/credential.test.ts), and state written by earlier versions (`key:` + a fast
 * fingerprint of the API key, `user:` + the user name) carries on without firing anything twice
 * or losing a watched job, its account value replaced.
 */
import type { IDataObject } from 'n8n-workflow';

import { accountKey, fingerprint } from '../../../nodes/GeospatialAnalysisTrigger/accountIdentity';
import type { FakeService } from '../../fake-service';
import type { SharedClock } from '../../helpers/poll';
import { CredentialStore, makeJob, Poller, useFakeWithTriggerClock } from '../../helpers/poll';

const MIN = 60_000;
const NODE = 'node:Geospatial Analysis Trigger';

/** Every window of `n` characters of a text. */
const windows = (text: string, n: number) =>
	Array.from({ length: Math.max(0, text.length - n + 1) }, (_, i) => text.slice(i, i + n));

describe('Trigger identity in static data', () => {
	let fake: FakeService;
	let clock: SharedClock;
	useFakeWithTriggerClock((f, c) => {
		fake = f;
		clock = c;
	});

	const apiKeyStore = () =>
		new CredentialStore({
			geospatialAnalysisApi: { baseUrl: fake.url, apiKey: fake.users.alice.apiKey },
		});
	const loginStore = () =>
		new CredentialStore({
			geospatialAnalysisLoginApi: {
				baseUrl: fake.url,
				username: 'alice',
				password: fake.users.alice.password,
			},
		});

	it('keeps no value from which the API key, the password or the user name can be read back', async () => {
		const plots = fake.seedPlots('alice', 1);
		for (const [store, parameters] of [
			[apiKeyStore(), {}],
			[loginStore(), { authentication: 'login' }],
		] as const) {
			const poller = new Poller({ parameters, store, keeping: 'durable' });
			await poller.poll();
			await makeJob(fake.url, fake.users.alice.apiKey, { plot_ids: plots });
			clock.advance(2 * MIN);
			const r = await poller.poll();
			expect(r.items).toHaveLength(1);
			const text = JSON.stringify(poller.saved);
			const tracker = (poller.saved?.[NODE] as IDataObject).tracker as IDataObject;
			expect(tracker.account).toMatch(/^a2:[0-9a-f]{32}$/);
			const key = fake.users.alice.apiKey;
			for (const secret of [key.slice('service_live_'.length), fake.users.alice.password])
				for (const part of windows(secret, 8)) expect(text).not.toContain(part);
			expect(text).not.toContain(fingerprint(key));
			expect(text).not.toMatch(/alice/i);
			expect(text).not.toMatch(/"(key|user):/);
		}
	});

	it.each([
		['API key', 'apiKey' as const],
		['login', 'login' as const],
	])(
		'state of an earlier version (%s) carries on: no "another account", nothing twice, the watched job fires once',
		async (_label, authentication) => {
			const plots = fake.seedPlots('alice', 2);
			const store = authentication === 'login' ? loginStore() : apiKeyStore();
			// an earlier version's poll: one job done and emitted, one running and watched
			const emittedBefore = await makeJob(fake.url, fake.users.alice.apiKey, {
				plot_ids: [plots[0]],
			});
			fake.setPerPlotDuration(10 * MIN);
			const running = await makeJob(fake.url, fake.users.alice.apiKey, { plot_ids: [plots[1]] });
			clock.advance(2 * MIN);
			const now = Date.now();
			const createdOf = (job: IDataObject) => Date.parse(`${String(job.created_at)}Z`);
			const legacy =
				authentication === 'login' ? 'user:alice' : `key:${fingerprint(fake.users.alice.apiKey)}`;
			const staticData = {
				[NODE]: {
					tracker: {
						v: 2,
						from: createdOf(emittedBefore) - 10 * MIN,
						newest: createdOf(running),
						polledAt: now,
						service: fake.url,
						account: legacy,
						pending: { [String(running.job_id)]: createdOf(running) },
						seen: { [String(emittedBefore.job_id)]: createdOf(emittedBefore) },
					},
				},
			};
			const poller = new Poller({
				parameters: authentication === 'login' ? { authentication: 'login' } : {},
				store,
				keeping: 'default',
				staticData,
			});
			clock.advance(MIN);
			const first = await poller.poll();
			expect(first.error).toBeUndefined();
			expect(first.items).toBeNull(); // the job emitted before does not fire again
			expect(first.logs.map((l) => l.message)).not.toContainEqual(
				expect.stringMatching(/another account|starting afresh/),
			);
			expect(first.logs.filter((l) => l.level === 'warn')).toEqual([]);
			const tracker = () =>
				(first.staticData[NODE] as IDataObject).tracker as {
					account: string;
					pending: Record<string, number>;
				};
			expect(tracker().account).toMatch(/^a2:[0-9a-f]{32}$/);
			expect(Object.keys(tracker().pending)).toEqual([String(running.job_id)]);

			clock.advance(10 * MIN);
			const done = await poller.poll();
			expect(done.items?.map((i) => String(i.json.job_id))).toEqual([String(running.job_id)]);
			clock.advance(MIN);
			expect((await poller.poll()).items).toBeNull();
			expect(JSON.stringify(poller.saved)).not.toMatch(/"(key|user):/);
		},
	);

	it('a changed password counts as another account: the watch period is listed once, nothing fires twice, nothing is lost', async () => {
		const plots = fake.seedPlots('alice', 3);
		const store = loginStore();
		const poller = new Poller({
			parameters: { authentication: 'login' },
			store,
			keeping: 'default',
		});
		await poller.poll();
		const early = await makeJob(fake.url, fake.users.alice.apiKey, { plot_ids: [plots[0]] });
		clock.advance(2 * MIN);
		expect((await poller.poll()).items?.map((i) => String(i.json.job_id))).toEqual([
			String(early.job_id),
		]);
		clock.advance(15 * MIN);
		fake.setPerPlotDuration(30 * MIN);
		const running = await makeJob(fake.url, fake.users.alice.apiKey, { plot_ids: [plots[1]] });
		clock.advance(5 * MIN); // `early` is out of the overlap window of `running`: forgotten
		const third = await poller.poll();
		expect(third.items).toBeNull();
		// the state as the previous password left it (the fake's password cannot change)
		const saved = JSON.parse(JSON.stringify(third.staticData)) as IDataObject;
		const tracker = (saved[NODE] as IDataObject | undefined)?.tracker as IDataObject | undefined;
		const state = tracker ?? {};
		expect(Object.keys(state.seen as object)).not.toContain(String(early.job_id));
		state.account = await accountKey('the-previous-password', fake.url, 'alice');
		const after = new Poller({
			parameters: { authentication: 'login' },
			store,
			keeping: 'default',
			staticData: saved,
		});
		fake.setPerPlotDuration(MIN);
		const fresh = await makeJob(fake.url, fake.users.alice.apiKey, { plot_ids: [plots[2]] });
		clock.advance(2 * MIN);
		const r = await after.poll();
		expect(r.error).toBeUndefined();
		expect(r.logs.map((l) => l.message)).toContainEqual(
			expect.stringContaining('the credential now uses another account'),
		);
		expect(r.items?.map((i) => String(i.json.job_id))).toEqual([String(fresh.job_id)]);
		clock.advance(30 * MIN);
		expect((await after.poll()).items?.map((i) => String(i.json.job_id))).toEqual([
			String(running.job_id),
		]);
		clock.advance(MIN);
		expect((await after.poll()).items).toBeNull();
	});

	it('state of an earlier version for another account is noticed as another account', async () => {
		const staticData = {
			[NODE]: {
				tracker: {
					v: 2,
					from: Date.now() - 10 * MIN,
					newest: null,
					polledAt: Date.now(),
					service: fake.url,
					account: `key:${fingerprint(fake.users.bob.apiKey)}`,
					pending: {},
					seen: {},
				},
			},
		};
		const poller = new Poller({
			parameters: {},
			store: apiKeyStore(),
			keeping: 'default',
			staticData,
		});
		const r = await poller.poll();
		expect(r.error).toBeUndefined();
		expect(r.logs.map((l) => l.message)).toContainEqual(
			expect.stringContaining('the credential now uses another account'),
		);
	});
});
