// Lint for what is not published: tests, the fake service, test helpers (and, through
// bench/eslint.config.mjs, the benchmarks). The root eslint.config.mjs must stay n8n's
// template (strict mode, n8n Cloud rules), and the template lints every **/*.ts; with
// ESLint's per-directory config lookup (`npm run lint` turns it on) the files below this
// folder use this config instead: n8n's rules without the n8n Cloud restrictions (tests
// run in Node and use its globals and packages on purpose), plus what tools may do.
import { configWithoutCloudSupport } from '@n8n/node-cli/eslint';

export default [
	...configWithoutCloudSupport,
	{
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
