/**
 * `npm run fake-service` — starts the fake on PORT / --port (default 5680) and HOST / --host (default 127.0.0.1).
 * Other flags: --per-plot-ms <ms>, --jwt-lifetime <s>, --start-time <iso>, --failing <name,name>, --tokens <n>,
 * --variant <flat,silent,uuid…> (default: the FAKE_VARIANT environment variable; see variant.ts).
 */
import { isDefaultVariant, startFakeService, variantName } from './index';

function arg(name: string): string | undefined {
	const i = process.argv.indexOf(`--${name}`);
	if (i >= 0 && i + 1 < process.argv.length) return process.argv[i + 1];
	const eq = process.argv.find((a) => a.startsWith(`--${name}=`));
	return eq ? eq.slice(name.length + 3) : undefined;
}

/** What `--help` (or `-h`) prints; nothing is started then. */
export const HELP = [
	'Usage: npm run fake-service -- [options]',
	'',
	'Starts the fake Geospatial Analysis Service (for tests and demos) and prints its URL and users.',
	'',
	'Options:',
	'  --port <n>              port to listen on (default: PORT or 5680)',
	'  --host <address>        address to listen on (default: HOST or 127.0.0.1; 0.0.0.0 for Docker)',
	'  --per-plot-ms <ms>      how long the analysis of one plot takes on the fake clock',
	'  --jwt-lifetime <s>      lifetime of the JWTs it issues, in seconds',
	'  --start-time <iso>      the fake clock at start',
	'  --failing <a,b>         plot names whose analysis fails',
	'  --tokens <n>            token balance of each seeded user',
	'  --variant <flat,...>    answer shape variant (default: FAKE_VARIANT; see test/fake-service/variant.ts)',
	'  -h, --help              print this help and exit',
].join('\n');

/** Whether the command line asks for help. */
export function wantsHelp(argv: readonly string[]): boolean {
	return argv.slice(2).some((a) => a === '--help' || a === '-h');
}

async function main(): Promise<void> {
	if (wantsHelp(process.argv)) {
		console.log(HELP);
		return;
	}
	const port = Number(arg('port') ?? process.env.PORT ?? 5680);
	const host = arg('host') ?? process.env.HOST ?? '127.0.0.1';
	const start = arg('start-time');
	const fake = await startFakeService({
		port,
		host,
		perPlotDurationMs: arg('per-plot-ms') ? Number(arg('per-plot-ms')) : undefined,
		jwtLifetimeSeconds: arg('jwt-lifetime') ? Number(arg('jwt-lifetime')) : undefined,
		startTime: start ? new Date(start) : undefined,
		failingPlotNames: arg('failing') ? String(arg('failing')).split(',') : undefined,
		initialTokens: arg('tokens') ? Number(arg('tokens')) : undefined,
		variant: arg('variant'),
	});
	const lines = [
		`Geospatial Analysis Service fake listening on ${fake.url}`,
		'',
		'Seeded users (username / password / API key):',
		...Object.entries(fake.users).map(
			([k, u]) =>
				`  ${k.padEnd(7)} ${u.username} / ${u.password} / ${u.apiKey}${k === 'viewer' ? '   (no analyst role: read-only)' : ''}`,
		),
		'',
		'Point an n8n credential at it:',
		`  Geospatial Analysis API (API key):  Base URL = ${fake.url}   API Key = ${fake.users.alice.apiKey}`,
		`  Geospatial Analysis Login API:      Base URL = ${fake.url}   Username = ${fake.users.alice.username}   Password = ${fake.users.alice.password}`,
		'  (n8n running in Docker: use the host address reachable from the container and start with --host 0.0.0.0)',
		'',
		`Every request needs the header X-API-Version: 3. Test controls: ${fake.url}/__fake/ (see test/fake-service/README.md).`,
		`Fake clock now: ${fake.clock.now().toISOString()}. Stop with Ctrl+C.`,
		`Shape variant: ${variantName(fake.variant)}${isDefaultVariant(fake.variant) ? ' (the default)' : ''}.`,
	];
	console.log(lines.join('\n'));
	const stop = async () => {
		await fake.close();
		process.exit(0);
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

if (require.main === module)
	main().catch((e) => {
		console.error(e);
		process.exit(1);
	});
