/**
 * The map projections Read File converts from (one name of each proj4 projection module);
 * a `.prj` in any other projection is refused naming it (prj.ts). The published bundle
 * registers exactly these with proj4's core (proj4Bundled.ts; a unit test keeps both lists
 * the same), so tests on proj4's full build accept and refuse the same files.
 */
export const SUPPORTED_PROJECTIONS = [
	'longlat',
	'merc',
	'Fast_Transverse_Mercator', // tmerc
	'etmerc',
	'utm',
	'lcc',
	'aea',
	'poly',
	'sinu',
	'laea',
	'cea',
	'eqc',
	'omerc',
	'cass',
	'stere',
	'sterea',
	'somerc',
	'krovak',
] as const;
