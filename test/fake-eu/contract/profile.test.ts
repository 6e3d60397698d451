/**
 * The optional BodyIdentity header (pack §3.1), the user's operator profile (pack §9) and the
 * jest helper and command line that start the fake.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { SECOND_USER } from '../index';
import { useFakeEu } from '../../helpers/fakeEu';
import { codes, getDdsBody, request, submitBody, byIdentifiersBody } from './harness';

const BODY_NS = 'http://ec.europa.eu/tracesnt/body/v3';
const identity = (id: string, prefixed = false) =>
	prefixed
		? `<body:BodyIdentity xmlns:body="${BODY_NS}"><body:OperatorAccessIdentifier>${id}</body:OperatorAccessIdentifier></body:BodyIdentity>`
		: `<body:BodyIdentity xmlns:body="${BODY_NS}"><OperatorAccessIdentifier>${id}</OperatorAccessIdentifier></body:BodyIdentity>`;

const used = useFakeEu({
	ratePerSecond: 0,
	users: [
		{ username: 'multi', accessIdentifiers: ['OP-ACCESS-1'] },
		{ username: 'any', key: 'any-key' },
		{
			username: 'sme',
			key: 'sme-key',
			operator: {
				name: 'Small',
				hasEori: true,
				euEstablished: true,
				sme: true,
				activities: ['DOMESTIC'],
			},
		},
	],
});
const unknownUuid = '9b1c0f5e-1111-4222-8333-444455556666';

test('BodyIdentity: absent or known → accepted; unknown → UnauthenticatedException; a prefixed child → schema fault', async () => {
	const eu = used.fake;
	expect((await request(eu, 'getDds', getDdsBody([unknownUuid]))).status).toBe(200);
	expect(
		(await request(eu, 'getDds', getDdsBody([unknownUuid]), { headers: [identity('OP-ACCESS-1')] }))
			.status,
	).toBe(200);
	const bogus = await request(eu, 'getDds', getDdsBody([unknownUuid]), {
		headers: [identity('OP-BOGUS')],
	});
	expect(bogus.fault?.name).toBe('UnauthenticatedException');
	const prefixed = await request(eu, 'getDds', getDdsBody([unknownUuid]), {
		headers: [identity('OP-ACCESS-1', true)],
	});
	expect(prefixed.fault?.string).toMatch(/^Unmarshalling Error/);
	// a user without configured identifiers may present any
	expect(
		(
			await request(eu, 'getDds', getDdsBody([unknownUuid]), {
				username: 'any',
				key: 'any-key',
				headers: [identity('X')],
			})
		).status,
	).toBe(200);
});

test('profile: an activity the profile does not allow; getDdsByIdentifiers refused to an SME (Error without Field)', async () => {
	const eu = used.fake;
	const sme = { username: 'sme', key: 'sme-key' };
	expect(codes(await request(eu, 'submitDds', submitBody({}), sme))).toEqual([
		'EUDR_WEBSERVICE_USER_ACTIVITY_NOT_ALLOWED',
	]);
	expect(
		(
			await request(
				eu,
				'submitDds',
				submitBody({ activity: 'DOMESTIC', measure: { percentage: '0' } }),
				sme,
			)
		).status,
	).toBe(200);
	const denied = await request(
		eu,
		'getDdsByIdentifiers',
		byIdentifiersBody('26FRYUI34JTQKB', 'SFFCB4Y3'),
		sme,
	);
	expect(denied.fault?.name).toBe('PermissionDeniedException');
	expect(denied.fault?.errors[0]).toMatchObject({
		id: 'EUDR_WEBSERVICE_USER_ACTIVITY_NOT_ALLOWED',
		field: null,
	});
});

test('the command line prints one JSON line with url, username, key, clientId, control and users, and serves both', async () => {
	const child = spawn(
		process.execPath,
		[
			require.resolve('ts-node/dist/bin.js'),
			'--transpile-only',
			join(__dirname, '..', 'cli.ts'),
			'--port',
			'0',
			'--second-user',
		],
		{
			stdio: ['ignore', 'pipe', 'inherit'],
		},
	);
	try {
		const line = await new Promise<string>((resolve, reject) => {
			createInterface({ input: child.stdout }).once('line', resolve);
			child.once('exit', (code) => reject(new Error(`cli exited with ${code}`)));
		});
		const printed = JSON.parse(line) as Record<string, string> & {
			users: Array<{ username: string; key: string; clientId: string }>;
		};
		expect(Object.keys(printed).sort()).toEqual([
			'clientId',
			'control',
			'key',
			'url',
			'username',
			'users',
		]);
		// --second-user: two users of one operator, the first one's fields at the top level
		expect(printed.users.map((u) => u.username)).toEqual([printed.username, SECOND_USER.username]);
		expect(printed.users[1].key).toBe(SECOND_USER.key);
		expect(printed.users[1].key).not.toBe(printed.key);
		expect(printed.control).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/__fake-eu\/$/);
		expect(await (await fetch(`${printed.control}statements`)).json()).toEqual([]);
		const before = Date.now();
		const moved = await fetch(`${printed.control}clock/advance`, {
			method: 'POST',
			body: JSON.stringify({ ms: 3_600_000 }),
		});
		// the cli's lifecycle clock follows real time: an hour ahead of it now (same machine clock)
		const now = Date.parse(((await moved.json()) as { now: string }).now);
		expect(now).toBeGreaterThanOrEqual(before + 3_600_000);
		expect(now).toBeLessThanOrEqual(Date.now() + 3_600_000);
		expect(printed.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/tracesnt\/$/);
		expect((await fetch(`${printed.url}ws/EUDRDueDiligenceStatementServiceV3?wsdl`)).status).toBe(
			200,
		);
	} finally {
		const exited = new Promise((r) => child.once('exit', r));
		child.kill('SIGTERM');
		await exited;
	}
});
