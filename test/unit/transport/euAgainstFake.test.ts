/**
 * Our client (request bodies, envelope, WS-Security, transport, answer readers) against the
 * fake of the EU Information System, which is written from the EU's documents and not from
 * our code: what one builds, the other accepts, and what the fake answers, we read.
 */
import {
	getDdsBody,
	getDdsByIdentifiersBody,
	getDdsByInternalReferenceBody,
	submitDdsBody,
	withdrawDdsBody,
} from '../../../nodes/shared/dds/requests';
import {
	readOverviews,
	readStatementContent,
	readStatusAnswer,
	readSubmitAnswer,
} from '../../../nodes/shared/dds/answers';
import type { Statement } from '../../../nodes/shared/dds/statement';
import { euFailureOf } from '../../../nodes/shared/transport/euFailure';
import { resetEuRateLimit } from '../../../nodes/shared/transport/euRateLimit';
import type { ServiceContext } from '../../../nodes/shared/transport/serviceContext';
import { soapRequest } from '../../../nodes/shared/transport/soapRequest';
import { useFakeEu } from '../../helpers/fakeEu';
import { plainHttp } from '../../helpers/plainHttp';

const eu = useFakeEu();
const { httpRequest } = plainHttp();

function context(data: Record<string, unknown> = {}): ServiceContext {
	const user = eu.fake.users[0];
	return {
		helpers: { httpRequest },
		getNode: () => ({ name: 'EU', type: 'eu', typeVersion: 1, position: [0, 0], parameters: {} }),
		getCredentials: async () => ({
			environment: 'custom',
			customUrl: eu.fake.url,
			username: user.username,
			authKey: user.key,
			clientId: user.clientId,
			...data,
		}),
	} as unknown as ServiceContext;
}

const GEO = JSON.stringify({
	type: 'FeatureCollection',
	features: [
		{
			type: 'Feature',
			properties: { ProducerName: 'Coop', ProducerCountry: 'CI' },
			geometry: { type: 'Point', coordinates: [-5.123456, 6.654321] },
		},
	],
});

const statement = (reference: string): Statement => ({
	internalReferenceNumber: reference,
	activityType: 'IMPORT',
	countryOfActivity: 'FR',
	commodities: [
		{
			descriptors: { descriptionOfGoods: 'Cocoa beans', goodsMeasure: { netWeight: '1000' } },
			hsHeading: '1801',
			producers: [{ country: 'CI', name: 'Coop', geometryGeojson: GEO }],
		},
	],
	geoLocationConfidential: false,
});

beforeEach(() => resetEuRateLimit());

describe('our client against the independent fake', () => {
	it('submits, reads the overview, the content, and withdraws', async () => {
		const ctx = context();
		const submitted = await soapRequest.call(ctx, {
			service: 'dds',
			operation: 'submitDds',
			body: submitDdsBody('OPERATOR', statement('CROSS-CHECK-1')),
			idempotent: false,
		});
		const { uuid } = readSubmitAnswer(submitted.element);
		eu.fake.clock.advance(24 * 3600_000);
		const got = await soapRequest.call(ctx, {
			service: 'dds',
			operation: 'getDds',
			body: getDdsBody([uuid]),
			idempotent: true,
		});
		const [overview] = readOverviews(got.element);
		expect(overview).toMatchObject({ uuid, internalReferenceNumber: 'CROSS-CHECK-1' });
		expect(overview.status).toBe('AVAILABLE');
		expect(overview.referenceNumber).toEqual(expect.any(String));
		expect(overview.verificationNumber).toEqual(expect.any(String));

		const byReference = await soapRequest.call(ctx, {
			service: 'dds',
			operation: 'getDdsByInternalReference',
			body: getDdsByInternalReferenceBody('CROSS-CHECK-1'),
			idempotent: true,
		});
		expect(readOverviews(byReference.element).map((o) => o.uuid)).toContain(uuid);

		const content = await soapRequest.call(ctx, {
			service: 'dds',
			operation: 'getDdsByIdentifiers',
			body: getDdsByIdentifiersBody(overview.referenceNumber!, overview.verificationNumber!),
			idempotent: true,
		});
		const json = readStatementContent(content.element);
		const [commodity] = json.commodities as Array<Record<string, unknown>>;
		const [producer] = commodity.producers as Array<Record<string, unknown>>;
		expect(producer.geometryGeojson).toEqual(JSON.parse(GEO));

		const withdrawn = await soapRequest.call(ctx, {
			service: 'dds',
			operation: 'withdrawDds',
			body: withdrawDdsBody(uuid),
			idempotent: false,
		});
		expect(readStatusAnswer(withdrawn.element)).toEqual({ uuid, status: 'WITHDRAWN' });
	});

	it('a wrong key is refused by the fake and said in plain words, without the key', async () => {
		const wrong = ['not', 'the', 'right', 'authentication', 'key'].join('-');
		const error = (await soapRequest
			.call(context({ authKey: wrong }), {
				service: 'dds',
				operation: 'getDds',
				body: getDdsBody(['071874bd-8c62-4cac-8eb6-b2fbe003410c']),
				idempotent: true,
			})
			.then(
				() => undefined,
				(e: unknown) => e,
			)) as Error & { description?: string };
		expect(euFailureOf(error)?.kind).toBe('authentication');
		expect(`${error.message} ${error.description}`).not.toContain(wrong);
	});
});
