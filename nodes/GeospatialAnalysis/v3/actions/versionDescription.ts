import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { withItemGeometrySource } from '../../../shared/descriptions/geometrySourceFields';
import type { VersionDescription } from '../../v1/actions/versionDescription';
import { versionDescription as v2 } from '../../v2/actions/versionDescription';
import { addDrawMap, withoutCredentialForDrawMap } from './drawMapFields';

/**
 * Version 3 of the action node: version 2's description (and, through it, version 1's
 * operations: the same router and execute code) with two changed defaults:
 * - Geometry Source (Plot → Register, Validate, Export for EU with Input "Geometry Fields",
 *   Protected Area → Check) gains "Found in the Item", its default: the item's `geometry`
 *   field (what Read File outputs), else `geojson`, `geojson_features`, `wkt`, or `latitude`
 *   and `longitude` (plots/geometrySource.ts, findItemGeometry). So Read File → Validate /
 *   Register and a sheet of latitude/longitude rows work without a field edited;
 * - Export for EU: Input "Geometry Fields" by default, which with "Found in the Item" reads
 *   Read File's `geometry` as well as a registered plot's `geojson_features` (what Input
 *   "Plots" reads), so that Read File → Export and Register / Get → Export both connect.
 *
 * The reading of Geometry Source asks the node's version only for a bare call's fallback
 * (descriptions/geometrySourceFields.ts): n8n fills in each version's own default. Versions 1
 * and 2 keep "Latitude/Longitude" (saved workflows store only non-default values).
 *
 * Other changes made for version 3 read `getNode().typeVersion >= 3` where they run.
 *
 * Version 3 also has Plot → Draw Map (drawMapFields.ts), an operation versions 1 and 2 do not
 * show.
 */

/** Export for EU's Input "Geometry Fields", as version 3 reads it by default. */
const GEOMETRY_INPUT_V3 =
	'The geometry of each item, as in Register: by default found in the item (Read File\'s "geometry", a registered plot\'s "geojson_features", "geojson", "wkt" or "latitude" and "longitude"), or a field you map';

function exportInputV3(p: INodeProperties): INodeProperties {
	return {
		...p,
		default: 'geometry',
		options: ((p.options ?? []) as INodePropertyOptions[]).map((o) =>
			o.value === 'geometry' ? { ...o, description: GEOMETRY_INPUT_V3 } : o,
		),
	};
}

const drawMap = withoutCredentialForDrawMap(v2);

function buildProperties(): INodeProperties[] {
	return addDrawMap(v2.properties).map((p) => {
		if (p.name === 'geometrySource' && p.type === 'options') return withItemGeometrySource(p);
		if (p.name === 'exportInput' && p.type === 'options') return exportInputV3(p);
		return drawMap.authentication(p);
	});
}

export const versionDescription: VersionDescription = {
	...v2,
	version: 3,
	credentials: drawMap.credentials,
	properties: buildProperties(),
};
