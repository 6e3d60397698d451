/**
 * Setup file of each project of test/variants.config.js: its variant (the project's
 * `globals.__FAKE_VARIANT__`) becomes FAKE_VARIANT for the test file, as `FAKE_VARIANT=… npx
 * jest` would set it (jest gives each test file its own copy of process.env, so the variants of
 * the projects sharing a worker do not mix).
 */
if (typeof globalThis.__FAKE_VARIANT__ === 'string')
	process.env.FAKE_VARIANT = globalThis.__FAKE_VARIANT__;
