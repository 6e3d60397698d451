/** The capability catalog: GET /v3/discovery/capabilities and the checks a job may run. */
import { builtInCapabilities, publicCapability, type Capability } from '../data';

export class Catalog {
	capabilities: Capability[] = builtInCapabilities();

	reset(): void {
		this.capabilities = builtInCapabilities();
	}

	get(name: string): Capability | undefined {
		return this.capabilities.find((c) => c.name === name);
	}

	add(cap: Capability): void {
		if (!cap || typeof cap.name !== 'string' || !cap.name)
			throw new Error('addCapability: name is required');
		const full: Capability = {
			transport: 'sync',
			cost_hint: { model: 'per_plot', tokens_per_plot: 1, currency: 'tokens' },
			input_schema: { type: 'object', properties: {}, additionalProperties: true },
			...cap,
			label: cap.label ?? cap.name,
			description: cap.description ?? '',
		};
		this.capabilities = this.capabilities.filter((c) => c.name !== cap.name).concat(full);
	}

	/** GET /v3/discovery/capabilities?include=doc,hidden */
	list(include: string | undefined): unknown[] {
		const extras = (include ?? '').split(',').map((s) => s.trim().toLowerCase());
		const withDoc = extras.includes('doc');
		const withHidden = extras.includes('hidden');
		return this.capabilities
			.filter((c) => withHidden || !c.hidden)
			.map((c) => publicCapability(c, withDoc));
	}
}
