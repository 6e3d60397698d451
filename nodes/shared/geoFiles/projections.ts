/**
 * proj4 as Read File uses it: its core (WKT parsing, datums, transforms) with the map
 * projections supplier and GIS data uses, not its whole catalogue (nor MGRS), to keep the
 * bundle small (BENCHMARKS.md "Read File"). Built in: longlat and merc. Added: Transverse
 * Mercator (UTM, Gauss-Krüger; tmerc, etmerc, utm), Lambert Conformal Conic, Albers Equal
 * Area (IBGE's Brazil Albers), Polyconic (Brazil's older national mapping), Sinusoidal
 * (MODIS), Lambert Azimuthal Equal Area (the EU's ETRS89-LAEA), Cylindrical Equal Area,
 * Equidistant Cylindrical, Hotine Oblique Mercator (Malaysia's RSO, Madagascar), Cassini,
 * polar and oblique Stereographic, Swiss Oblique Mercator, Krovak. A `.prj` in any other
 * projection is refused naming it (prj.ts), never read as degrees.
 */
import proj4 from 'proj4/lib/core';
import Proj from 'proj4/lib/Proj';
import aea from 'proj4/lib/projections/aea';
import cass from 'proj4/lib/projections/cass';
import cea from 'proj4/lib/projections/cea';
import eqc from 'proj4/lib/projections/eqc';
import etmerc from 'proj4/lib/projections/etmerc';
import krovak from 'proj4/lib/projections/krovak';
import laea from 'proj4/lib/projections/laea';
import lcc from 'proj4/lib/projections/lcc';
import omerc from 'proj4/lib/projections/omerc';
import poly from 'proj4/lib/projections/poly';
import sinu from 'proj4/lib/projections/sinu';
import somerc from 'proj4/lib/projections/somerc';
import stere from 'proj4/lib/projections/stere';
import sterea from 'proj4/lib/projections/sterea';
import tmerc from 'proj4/lib/projections/tmerc';
import utm from 'proj4/lib/projections/utm';

for (const projection of [
	tmerc,
	etmerc,
	utm,
	lcc,
	aea,
	poly,
	sinu,
	laea,
	cea,
	eqc,
	omerc,
	cass,
	stere,
	sterea,
	somerc,
	krovak,
])
	Proj.projections.add(projection);

export { proj4, Proj };
