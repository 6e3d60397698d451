/** Child process of bench/fake-process.ts: starts the fake on a free loopback port and reports its URL. */
require('ts-node').register({ transpileOnly: true, preferTsExts: true });
const { startFakeService } = require('../test/fake-service');

startFakeService({ host: '127.0.0.1', port: 0 }).then((fake) => {
	process.send({ url: fake.url });
	const stop = () => fake.close().then(() => process.exit(0));
	process.on('SIGTERM', stop);
	process.on('disconnect', stop);
});
