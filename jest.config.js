/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: [
		'**/test/unit/**/*.test.ts',
		'**/test/integration/**/*.test.ts',
		'**/test/fake-service/**/*.test.ts',
		'**/test/fake-eu/**/*.test.ts',
	],
	transform: {
		'^.+\\.ts$': ['ts-jest', { diagnostics: false, tsconfig: { isolatedModules: true } }],
		// n8n-core pulls in a few ESM-only packages (through langchain), and Plot → Validate's spatial
		// index (flatbush) is ESM-only, and so is shpjs (Plot → Read File's Shapefile reader is
		// cross-checked against it): compile them to CommonJS.
		'^.+\\.m?js$': [
			'ts-jest',
			{ diagnostics: false, tsconfig: { allowJs: true, isolatedModules: true } },
		],
	},
	transformIgnorePatterns: [
		'/node_modules/(?!(p-retry|is-network-error|flatbush|flatqueue|shpjs|parsedbf|robust-predicates)/)',
	],
	setupFilesAfterEnv: ['<rootDir>/test/helpers/jest-teardown.ts'],
	reporters: ['default', '<rootDir>/test/helpers/summary-reporter.js'],
	testTimeout: 60000,
	maxWorkers: 2,
};
