/**
 * Every refusal of the credential is said the same way by the credential test (the
 * credential's preAuthentication, as n8n runs it when the credential is saved, on n8n's own
 * request helper) and during a run (the node through n8n's engine): a wrong key, a wrong Web
 * Service Client ID, a clock more than 5 minutes off — whether the EU fake answers with its
 * generic "Authentication failed" or names what failed ("Invalid WebServiceClientId",
 * "Timestamp expired"). The words the review of issue 36 saw quoted raw during a run
 * ("…answered with a fault (EudrEchoServiceFault). : Invalid WebServiceClientId") never come
 * back.
 */
import type { IDataObject, IHttpRequestHelper } from 'n8n-workflow';
// n8n's own request helper (the one n8n hands preAuthentication in a credential test)
import { httpRequest } from 'n8n-core/dist/execution-engine/node-execution-context/utils/request-helper-functions';

import { EuInformationSystemApi } from '../../../credentials/EuInformationSystemApi.credentials';
import { resetEuRateLimit } from '../../../nodes/shared/transport/euRateLimit';
import { useFakeEu } from '../../helpers/fakeEu';
import type { FakeEuUser } from './helpers';
import { EU_CREDENTIAL, euStore, runEu } from './helpers';

const credentialType = new EuInformationSystemApi();
const helper = { helpers: { httpRequest } } as unknown as IHttpRequestHelper;

/** The message of a refusal without what differs from call to call (times, request ids). */
const steady = (text: string) =>
	text
		.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g, '<time>')
		.replace(/[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT/g, '<time>');

async function bothWays(url: string, user: FakeEuUser) {
	const data = euStore(url, user).data[EU_CREDENTIAL] as IDataObject;
	const test = await credentialType.preAuthentication.call(helper, { ...data, checkedAt: '' }).then(
		() => undefined,
		(e: Error) => e,
	);
	resetEuRateLimit();
	const run = await runEu({
		parameters: { operation: 'get', uuids: '00000000-0000-4000-8000-000000000001' },
		store: euStore(url, user),
	});
	return { test: test?.message ?? '', run: run.error?.message ?? '' };
}

describe.each(['generic', 'named'] as const)('the fake answering %s security faults', (style) => {
	const eu = useFakeEu({ ratePerSecond: 0, securityFaults: style });
	beforeEach(() => {
		resetEuRateLimit();
		eu.fake.securityClock.setOffset(0);
	});
	afterAll(() => eu.fake?.securityClock.setOffset(0));

	const user = () => eu.fake.users[0];

	it('a wrong key: the same words in the credential test and the run', async () => {
		const { test, run } = await bothWays(eu.fake.url, {
			...user(),
			key: ['another', 'authentication', 'key', '42'].join('-'),
		});
		expect(run).toMatch(
			/^The EU Information System did not accept the username and authentication key/,
		);
		expect(steady(test)).toContain(steady(run));
	});

	it('a wrong Web Service Client ID: the same words, naming the client id', async () => {
		const { test, run } = await bothWays(eu.fake.url, { ...user(), clientId: 'eudr-tset' });
		expect(steady(test)).toContain(steady(run));
		expect(run).not.toMatch(/\. :|answered with a fault/);
		if (style === 'named') {
			expect(run).toMatch(
				/^The EU Information System did not accept the Web Service Client ID of the credential \("eudr-tset"\): enter the client id shown in your EU Information System profile under "Web Services Access"/,
			);
			expect(run).toContain('The service said: "Invalid WebServiceClientId"');
		} else
			expect(run).toMatch(
				/did not accept the username and authentication key: check the EU Login Username, the Authentication Key, the Web Service Client ID/,
			);
	});

	it('a clock 10 minutes off: the same words, with both clocks', async () => {
		eu.fake.securityClock.setOffset(10 * 60_000);
		const { test, run } = await bothWays(eu.fake.url, user());
		expect(run).toMatch(/^The EU Information System did not accept the call's timestamp/);
		expect(run).toMatch(/This machine's clock says .* and the EU Information System's says/);
		expect(steady(test)).toContain(steady(run));
	});
});
