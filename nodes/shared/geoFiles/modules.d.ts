// Types of modules Read File imports by a path their packages give no types for (proj4's
// core and projections, imported by the bundle's proj4: proj4Bundled.ts).
declare module 'proj4/lib/core' {
	interface Converter {
		forward(point: number[]): number[];
		inverse(point: number[]): number[];
	}
	function proj4(from: string, to: string): Converter;
	export default proj4;
}
declare module 'proj4/lib/Proj' {
	interface ProjectionModule {
		names: string[];
	}
	class Proj {
		constructor(definition: string);
		static projections: { add(projection: ProjectionModule): void };
	}
	export default Proj;
}
declare module 'proj4/lib/projections/*' {
	const projection: { names: string[] };
	export default projection;
}
// fflate's build without Node's worker threads (its Node entry reaches for require('module'),
// which n8n Cloud's scanner refuses); the same functions as its main entry.
declare module 'fflate/browser' {
	export * from 'fflate';
}
