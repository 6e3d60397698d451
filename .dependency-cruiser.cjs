'use strict';
/**
 * `npm run check:layers`: the layers of nodes/ and credentials/ (CONTRIBUTING.md, "Layers").
 *
 * An import may only go to the same or a lower layer; no cycles. Lowest first:
 *   1 pure basics   nodes/shared/{input,geometry,geoFiles,time,values,soap}/
 *   2 transport     nodes/shared/transport/ (every HTTP call)
 *   3 the runner    nodes/shared/runner/ (the item runner, its error items and its pool)
 *   4 the domain    nodes/shared/{plots,jobs,protectedAreas,account,results,capabilities,dds}/
 *   5 descriptions  nodes/shared/descriptions/ (the field builders every node shares)
 *   6 the nodes     credentials/, nodes/GeospatialAnalysis* /, nodes/EuInformationSystem* /
 * Besides: nodes/shared/ never imports a node folder or credentials/ (credentials/ may import
 * nodes/shared/transport for the login, never the other way round); no operation file
 * (`*.operation.ts`) imports another operation file; nothing published imports test/; every
 * folder of nodes/shared/ belongs to a layer (a new folder is added to LAYERS below).
 *
 * Type-only imports count too (`tsPreCompilationDeps`): a type is part of what a module
 * depends on, and a layer that needs a higher layer's type has the type in the wrong place.
 */

const LAYERS = {
	basics: ['input', 'geometry', 'geoFiles', 'time', 'values', 'soap', 'polling', 'map'],
	transport: ['transport'],
	runner: ['runner'],
	domain: [
		'plots',
		'jobs',
		'protectedAreas',
		'account',
		'results',
		'capabilities',
		'dds',
		'record',
	],
	descriptions: ['descriptions'],
};

const shared = (folders) => `^nodes/shared/(${folders.join('|')})/`;
const BASICS = shared(LAYERS.basics);
const TRANSPORT = shared(LAYERS.transport);
const DOMAIN = shared(LAYERS.domain);
const RUNNER = shared(LAYERS.runner);
const DESCRIPTIONS = shared(LAYERS.descriptions);
const NODES = '^(credentials/|nodes/GeospatialAnalysis[^/]*/|nodes/EuInformationSystem[^/]*/)';
const ALL_SHARED = shared(Object.values(LAYERS).flat());

/** A rule that `from` files may not import `to` files, with what to do instead. */
const upward = (name, from, to, comment) => ({
	name,
	severity: 'error',
	comment,
	from: { path: from },
	to: { path: to },
});

module.exports = {
	forbidden: [
		{
			name: 'no-circular',
			severity: 'error',
			comment:
				'An import cycle: break it by moving what both sides need into the lower module (or a new one in the lower layer).',
			from: { path: '^(nodes|credentials)/' },
			to: { circular: true },
		},
		upward(
			'layer-1-basics-imports-only-basics',
			BASICS,
			`${TRANSPORT}|${DOMAIN}|${RUNNER}|${DESCRIPTIONS}`,
			'Layer 1 (input, geometry, geoFiles, time, values, soap, polling) is pure: it imports nothing from transport, the runner or the domain. Move the code that needs them up, or what it needs down.',
		),
		upward(
			'layer-2-transport-imports-only-basics',
			TRANSPORT,
			`${DOMAIN}|${RUNNER}|${DESCRIPTIONS}`,
			'Layer 2 (transport) may import layer 1 only: move what it needs out of the runner/domain into transport or layer 1.',
		),
		upward(
			'layer-3-runner-never-imports-the-domain',
			RUNNER,
			`${DOMAIN}|${DESCRIPTIONS}`,
			'Layer 3 (the item runner) may import layers 1-2 and itself, not the domain (layer 4) nor the field builders (layer 5): the runner knows items, problems and failures, not plots or jobs.',
		),
		upward(
			'layer-4-domain-never-imports-descriptions',
			DOMAIN,
			DESCRIPTIONS,
			'Layer 4 (the domain) knows plots, jobs and results, not node fields: the field builders (layer 5, nodes/shared/descriptions) import the domain, never the other way round.',
		),
		upward(
			'shared-never-imports-nodes-or-credentials',
			'^nodes/shared/',
			NODES,
			'nodes/shared/ never imports a node folder or credentials/ (credentials/ import nodes/shared/transport, not the other way round): move what is shared into nodes/shared/.',
		),
		{
			name: 'shared-folder-has-a-layer',
			severity: 'error',
			comment:
				'Every folder of nodes/shared/ belongs to a layer: add the new folder to LAYERS in .dependency-cruiser.cjs (and to CONTRIBUTING.md).',
			from: { path: '^(nodes|credentials)/' },
			to: { path: '^nodes/shared/', pathNot: ALL_SHARED },
		},
		{
			name: 'no-operation-imports-an-operation',
			severity: 'error',
			comment:
				'An operation file does not import another operation file: move what both use into a shared module of the resource folder or nodes/shared/.',
			from: { path: '[.]operation[.]ts$' },
			to: { path: '[.]operation[.]ts$' },
		},
		{
			name: 'published-code-never-imports-test',
			severity: 'error',
			comment: 'nodes/ and credentials/ are published: they never import test/.',
			from: { path: '^(nodes|credentials)/' },
			to: { path: '^test/' },
		},
	],
	options: {
		includeOnly: '^(nodes|credentials|test)/',
		exclude: { path: '(^|/)node_modules/' },
		doNotFollow: { path: 'node_modules' },
		tsPreCompilationDeps: true,
		tsConfig: { fileName: 'tsconfig.json' },
		enhancedResolveOptions: {
			extensions: ['.ts', '.js', '.json', '.d.ts'],
		},
	},
};
