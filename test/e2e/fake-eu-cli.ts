/**
 * The EU Information System fake as the e2e suite starts it (test/e2e/fake.js): the fake's own
 * server (test/fake-eu, with its control API under /__fake-eu/), started as its cli.ts starts
 * it (lifecycle clock in real time), with two web-service users of the same operator, so that
 * a test can edit a stored credential from one to the other (another user, another
 * authentication key: what an operator's key rotation looks like) while the statements stay
 * visible to both.
 *
 *   npx ts-node --transpile-only test/e2e/fake-eu-cli.ts --port 0 --available-after-ms 3000
 *
 * prints ONE JSON line {url, username, key, clientId, control, users: [{username, key,
 * clientId}, …]} (the first user's fields and the control API's base at the top level, as
 * cli.ts prints them) and serves until killed. Flags as cli.ts: --port, --host,
 * --available-after-ms, --rate, --verify-usable.
 */
import { CONTROL_PREFIX, DEFAULT_USER, startFakeEu } from '../fake-eu';

/** The second web-service user: the same operator (statements are visible per operator). */
export const SECOND_USER = {
	username: 'fake-eu-operator-2',
	key: ['fake', 'eu', 'second', 'authentication', 'key', '9876543210'].join('-'),
	clientId: DEFAULT_USER.clientId,
	operator: DEFAULT_USER.operator,
};

function arg(name: string): string | undefined {
	const i = process.argv.indexOf(`--${name}`);
	if (i >= 0 && i + 1 < process.argv.length) return process.argv[i + 1];
	const eq = process.argv.find((a) => a.startsWith(`--${name}=`));
	return eq ? eq.slice(name.length + 3) : undefined;
}

async function main(): Promise<void> {
	const number = (name: string) => (arg(name) === undefined ? undefined : Number(arg(name)));
	const eu = await startFakeEu({
		port: number('port') ?? 0,
		host: arg('host') ?? '127.0.0.1',
		clock: 'real',
		availableAfterMs: number('available-after-ms'),
		ratePerSecond: number('rate'),
		users: [DEFAULT_USER, SECOND_USER],
		verifyUsableStatuses: arg('verify-usable')
			?.split(',')
			.map((x) => x.trim())
			.filter(Boolean),
	});
	const users = eu.users.map((u) => ({ username: u.username, key: u.key, clientId: u.clientId }));
	const control = `${new URL(eu.url).origin}${CONTROL_PREFIX}`;
	process.stdout.write(`${JSON.stringify({ url: eu.url, ...users[0], control, users })}\n`);
	const stop = () => {
		void eu.stop().then(() => process.exit(0));
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
	process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
	process.exit(1);
});
