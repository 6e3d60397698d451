// n8n's official community-node lint configuration, as shipped by @n8n/node-cli, in its
// variant without the n8n Cloud import allow-list (our nodes bundle Turf, so they are
// not eligible for n8n Cloud's "no dependencies" rule).
import { configWithoutCloudSupport } from '@n8n/node-cli/eslint';

export default [
	...configWithoutCloudSupport,
	{
		// Outside the published package: tests, the fake service, benchmarks and tooling
		// scripts run in Node under jest or from the command line.
		ignores: ['dist/**', 'node_modules/**', '.cache/**', 'coverage/**'],
	},
	{
		files: ['test/**/*.ts', 'bench/**/*.ts'],
		rules: {
			// Tests and benchmarks report to the console on purpose (fake-service CLI, bench tables).
			'no-console': 'off',
			// The engine harness must load n8n-core's own copy of @n8n/di with require().
			'@typescript-eslint/no-require-imports': 'off',
			// Bench tooling and the fake service start processes on purpose (build, npm pack,
			// cold require, the fake in its own process); none of it is shipped.
			'@n8n/community-nodes/no-dangerous-functions': 'off',
		},
	},
];
