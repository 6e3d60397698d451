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
import { echoFaultEnvelope } from '../../fake-eu/faults';
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

/**
 * Faults the node has no words of its own for (not a refused credential, a business rule,
 * permission, not found or schema): the service's words, without the punctuation around
 * them, and what to do; never the key. The fake answers them in place of its own answer.
 */
describe('a fault without words of our own, in plain words (EU fake)', () => {
	const eu = useFakeEu({ ratePerSecond: 0 });
	beforeEach(() => {
		resetEuRateLimit();
		eu.fake.faults.clear();
	});
	const user = () => eu.fake.users[0];

	it('the credential test: the echo service\'s fault, its message quoted without a stray ". :"', async () => {
		eu.fake.faults.answerNext('testEcho', {
			status: 500,
			body: echoFaultEnvelope(' : Service temporarily unavailable : '),
		});
		const { test } = await bothWays(eu.fake.url, user());
		expect(test).toMatch(
			/^The EU Information System answered with a fault \(EudrEchoServiceFault\): Service temporarily unavailable\. It names no field of the request and no part of the credential: run it again later/,
		);
		expect(test).not.toMatch(/\. :|: :|\.\./);
		expect(test).not.toContain(user().key);
	});

	it('a run: an undeclared fault with an error whose ID is empty, and one with no words at all', async () => {
		const requestId = '5f0c2a4e-7d1b-4c3a-9e8f-000000000035';
		const fault = (detail: string, faultString: string) =>
			'<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Header>' +
			'<m:Message xmlns:m="http://ec.europa.eu/sanco/tracesnt/message/v1"><m:ID>WS_REQUEST_ID</m:ID>' +
			`<m:Value>${requestId}</m:Value></m:Message></S:Header><S:Body><S:Fault><faultcode>S:Server</faultcode>` +
			`<faultstring>${faultString}</faultstring>${detail}</S:Fault></S:Body></S:Envelope>`;
		eu.fake.faults.answerNext('getDds', {
			status: 500,
			body: fault(
				'<detail><ns5:SystemException xmlns:ns5="http://ec.europa.eu/tracesnt/certificate/eudr/due-diligence-statement/v3" xmlns:ns4="http://ec.europa.eu/sanco/tracesnt/error/v01">' +
					'<ns4:Error><ns4:ID></ns4:ID><ns4:Message>: Internal processing error</ns4:Message></ns4:Error></ns5:SystemException></detail>',
				'SystemException',
			),
		});
		// bothWays: the credential test (echo, answered by the fake) and then a Get (answered
		// with the injected fault)
		const { run } = await bothWays(eu.fake.url, user());
		expect(run).toBe(
			"The EU Information System answered with a fault (SystemException): Internal processing error. It names no field of the request and no part of the credential: run it again later, and if it comes back, send the Request ID below to the EU's support.",
		);

		resetEuRateLimit();
		eu.fake.faults.answerNext('getDds', { status: 500, body: fault('', '') });
		const silent = await runEu({
			parameters: { operation: 'get', uuids: '00000000-0000-4000-8000-000000000001' },
			store: euStore(eu.fake.url, user()),
		});
		expect(silent.error?.message).toMatch(
			/^The EU Information System answered with a fault, without saying why\. It names no field/,
		);
		expect(silent.error?.description).toContain(`Request ID (WS_REQUEST_ID): ${requestId}`);
	});
});
