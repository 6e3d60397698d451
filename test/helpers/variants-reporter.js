/**
 * Reporter of `node test/variants.js` (one jest run, a project per fake shape variant): after
 * jest's summary, the closing line `variants: all N passed` or `variants: M of N failed: <each
 * failed variant and its failed files>`.
 */
class VariantsReporter {
	constructor() {
		this.variants = new Map();
	}

	onTestResult(test, result) {
		const name = displayName(test.context.config);
		const entry = this.variants.get(name) || { files: 0, failed: [] };
		entry.files += 1;
		if (result.numFailingTests > 0 || result.testExecError)
			entry.failed.push(test.path.replace(test.context.config.rootDir + '/', ''));
		this.variants.set(name, entry);
	}

	onRunComplete(contexts) {
		// a variant none of whose files ran is a failure too (e.g. a folder emptied)
		for (const context of contexts) {
			const name = displayName(context.config);
			if (!this.variants.has(name))
				this.variants.set(name, { files: 0, failed: ['no test file ran'] });
		}
		const all = [...this.variants.entries()];
		const failed = all.filter(([, e]) => e.failed.length > 0 || e.files === 0);
		process.stdout.write(
			failed.length === 0
				? `\nvariants: all ${all.length} passed\n`
				: `\nvariants: ${failed.length} of ${all.length} failed: ${failed
						.map(([name, e]) => `${name} (${e.failed.join(', ')})`)
						.join('; ')}\n`,
		);
	}
}

function displayName(config) {
	const d = config.displayName;
	return typeof d === 'string' ? d : d && d.name ? d.name : '(default shapes)';
}

module.exports = VariantsReporter;
