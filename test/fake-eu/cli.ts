/**
 * Starts the fake EU Information System for demos and e2e runs:
 *
 *   npx ts-node --transpile-only test/fake-eu/cli.ts --port 5690
 *
 * prints ONE JSON line {url, username, key, clientId, control, users} and serves until killed
 * (`control` is the control API's base, `http://host:port/__fake-eu/`, README "Control API";
 * the top-level username/key/clientId are the first user's, `users` lists every user's). The
 * lifecycle clock follows real time here. Options: --port N (default 0 = any free port), --host H,
 * --available-after-ms N (default 60000), --code-style underscore|hyphen, --rate N (calls per
 * second per client, default 5, 0 = none), --verify-usable AVAILABLE,ARCHIVED (the statuses
 * verifyDeclaration answers EXISTING_USABLE, default AVAILABLE), --second-user (a second
 * web-service user of the same operator, SECOND_USER in index.ts: another username and authentication key
 * that sees the same statements, as after an operator's key rotation; the e2e suite edits a
 * stored credential from one to the other), --lookup-lag N and --lookup-lag-ms T (lagging lookups:
 * a new statement is left out of the lookups for its first N of them or for T ms after its
 * submission, README "Lagging lookups").
 */
import { CONTROL_PREFIX, DEFAULT_USER, SECOND_USER, startFakeEu } from './index';

function arg(name: string): string | undefined {
	const i = process.argv.indexOf(`--${name}`);
	if (i >= 0 && i + 1 < process.argv.length) return process.argv[i + 1];
	const eq = process.argv.find((a) => a.startsWith(`--${name}=`));
	return eq ? eq.slice(name.length + 3) : undefined;
}

async function main(): Promise<void> {
	const number = (name: string) => (arg(name) === undefined ? undefined : Number(arg(name)));
	const style = arg('code-style');
	const eu = await startFakeEu({
		port: number('port') ?? 0,
		host: arg('host') ?? '127.0.0.1',
		clock: 'real',
		availableAfterMs: number('available-after-ms'),
		ratePerSecond: number('rate'),
		lookupLag: { lookups: number('lookup-lag'), ms: number('lookup-lag-ms') },
		...(process.argv.includes('--second-user') ? { users: [DEFAULT_USER, SECOND_USER] } : {}),
		codeStyle: style === 'hyphen' ? 'hyphen' : 'underscore',
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
