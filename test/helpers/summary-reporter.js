/**
 * Prints the plain closing line `tests: N passed, M failed[, K skipped]` after jest's own
 * summary, so any tool reading the last line of a run sees the counts.
 */
class SummaryReporter {
	onRunComplete(_contexts, results) {
		const skipped = results.numPendingTests + results.numTodoTests;
		const failed = results.numFailedTests + (results.numRuntimeErrorTestSuites || 0);
		process.stdout.write(
			`\ntests: ${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`,
		);
	}
}
module.exports = SummaryReporter;
