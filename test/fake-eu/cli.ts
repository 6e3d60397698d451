/**
 * Starts the fake EU Information System for demos and e2e runs:
 *
 *   npx ts-node --transpile-only test/fake-eu/cli.ts --port 5690
 *
 * prints ONE JSON line {url, username, key, clientId, control} and serves until killed
 * (`control` is the control API's base, `http://host:port/__fake-eu/`, README "Control API"). The lifecycle
 * clock follows real time here. Options: --port N (default 0 = any free port), --host H,
 * --available-after-ms N (default 60000), --code-style underscore|hyphen, --rate N (calls per
 * second per client, default 5, 0 = none), --verify-usable AVAILABLE,ARCHIVED (the statuses
 * verifyDeclaration answers EXISTING_USABLE, default AVAILABLE).
 */
import { CONTROL_PREFIX, startFakeEu } from './index';

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
		codeStyle: style === 'hyphen' ? 'hyphen' : 'underscore',
		verifyUsableStatuses: arg('verify-usable')
			?.split(',')
			.map((x) => x.trim())
			.filter(Boolean),
	});
	const user = eu.users[0];
	process.stdout.write(
		`${JSON.stringify({
			url: eu.url,
			username: user.username,
			key: user.key,
			clientId: user.clientId,
			control: `${new URL(eu.url).origin}${CONTROL_PREFIX}`,
		})}\n`,
	);
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
