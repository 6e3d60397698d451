// The benchmarks are linted like the tests: see test/eslint.config.mjs.
export { default } from '../test/eslint.config.mjs';
