/**
 * After each test file: stop what n8n-core starts for the lifetime of an n8n process (its
 * SSH client manager's cleanup interval), so that jest can exit like n8n does on shutdown.
 */
afterAll(() => {
	const corePath = require.resolve('n8n-core');
	if (!require.cache[corePath]) return;
	const { Container } = require(
		require.resolve('@n8n/di', { paths: [corePath] }),
	) as typeof import('@n8n/di');
	const { SSHClientsManager } = require('n8n-core/dist/execution-engine/ssh-clients-manager') as {
		SSHClientsManager: new () => { onShutdown(): void };
	};
	if (Container.has(SSHClientsManager)) Container.get(SSHClientsManager).onShutdown();
});
