/**
 * The jest configuration of `node test/variants.js` (not meant to be run by hand): one jest
 * project per fake shape variant, each the suites of test/variants.js's FOLDERS with
 * jest.config.js's settings, named by its variant (shown beside each result) and with its
 * variant as FAKE_VARIANT for its test files (test/helpers/variant-env.js). The variants come
 * from test/variants.js (the environment variable it sets; every variant without it).
 */
const path = require('path');
const base = require('../jest.config.js');
const { SUITES, VARIANTS, VARIANTS_ENV } = require('./variants.js');

const ROOT = path.resolve(__dirname, '..');
const variants = process.env[VARIANTS_ENV] ? JSON.parse(process.env[VARIANTS_ENV]) : VARIANTS;

/** @type {import('jest').Config} */
module.exports = {
	rootDir: ROOT,
	reporters: [...base.reporters, '<rootDir>/test/helpers/variants-reporter.js'],
	testTimeout: base.testTimeout,
	maxWorkers: base.maxWorkers,
	projects: variants.map((variant) => ({
		rootDir: ROOT,
		displayName: variant,
		testEnvironment: base.testEnvironment,
		roots: base.roots,
		testRegex: SUITES,
		transform: base.transform,
		transformIgnorePatterns: base.transformIgnorePatterns,
		setupFiles: ['<rootDir>/test/helpers/variant-env.js'],
		setupFilesAfterEnv: base.setupFilesAfterEnv,
		globals: { __FAKE_VARIANT__: variant },
	})),
};
