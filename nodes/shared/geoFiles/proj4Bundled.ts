/**
 * What `proj4` is in the published bundle (scripts/bundle.js resolves the bare import
 * 'proj4' here): its core (WKT parsing, datums, transforms) with the map projections that
 * supplier and GIS data use, not its whole catalogue (nor MGRS), to keep the package small
 * (BENCHMARKS.md "Read File"). Tests and ts-node load proj4's full build instead; prj.ts
 * accepts only SUPPORTED_PROJECTIONS (projectionNames.ts) either way, and a unit test keeps
 * that list and the modules registered here the same. Built in: longlat and merc. Added: Transverse
 * Mercator (UTM, Gauss-Krüger; tmerc, etmerc, utm), Lambert Conformal Conic, Albers Equal
 * Area (IBGE's Brazil Albers), Polyconic (Brazil's older national mapping), Sinusoidal
 * (MODIS), Lambert Azimuthal Equal Area (the EU's ETRS89-LAEA), Cylindrical Equal Area,
 * Equidistant Cylindrical, Hotine Oblique Mercator (Malaysia's RSO, Madagascar), Cassini,
 * polar and oblique Stereographic, Swiss Oblique Mercator, Krovak.
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

Object.assign(proj4, { Proj });

export default proj4;
