import { resourceDescription } from '../../../../shared/descriptions/operationSelector';
import type { OperationsOf } from '../node.type';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as drawMap from './drawMap.operation';
import * as exportEu from './exportEu.operation';
import * as readFile from './readFile.operation';
import * as register from './register.operation';
import * as validate from './validate.operation';

export const operations: OperationsOf<'plot'> = {
	register,
	get,
	getMany,
	validate,
	exportEu,
	readFile,
	drawMap,
};

/**
 * Draw Map, shown from version 3 on (v3/actions/versionDescription.ts adds this option and
 * drawMap's fields): the descriptions of versions 1 and 2 stay as saved workflows know them.
 * The router runs it for every version.
 */
export const drawMapOption = {
	name: 'Draw Map',
	value: 'drawMap',
	description:
		"Draw the plots of all input items (Read File, Validate, Register, Get) as one PNG picture that n8n's binary viewer shows: outlines colored by validity or by risk, overlaps and problems marked, coordinates, a scale bar and a legend. Free: no request is sent.",
	action: 'Draw a map of plots — free — returns one picture of all items',
};

/** The operations versions 1 and 2 show. */
const shown = Object.fromEntries(Object.entries(operations).filter(([name]) => name !== 'drawMap'));

export const description = resourceDescription(
	'plot',
	'register',
	[
		{
			name: 'Export for EU Information System',
			value: 'exportEu',
			description:
				'Write plots (Register, Get or Get Many output, or geometries from the input) as the GeoJSON the EU Information System (TRACES) accepts for a due-diligence statement: ISO country codes, at least six decimals, files under 25 MB. Each geometry passes the Validate checks first. Free: no request is sent.',
			action:
				'Export plots for a due diligence statement — free — returns geojson files with a summary',
		},
		{
			name: 'Get',
			value: 'get',
			description: 'Get one plot by ID, with its analysis results. Free of charge.',
			action: 'Get a plot — free — returns the plot and its analysis',
		},
		{
			name: 'Get Many',
			value: 'getMany',
			description:
				'List the plots of the account, newest first, optionally filtered by creation time. Free of charge.',
			action: 'Get many plots — free — returns one item per plot',
		},
		{
			name: 'Read File',
			value: 'readFile',
			description:
				'Read a geo file (GeoJSON, KML, KMZ, GPX or zipped Shapefile, e.g. an email attachment) into one item per feature: GeoJSON geometry in WGS84, attributes, source and warnings. Free: no request is sent.',
			action: 'Read geo file — free — returns one item per feature',
		},
		{
			name: 'Register',
			value: 'register',
			description:
				'Register plots from GeoJSON, latitude/longitude or WKT (one plot per feature), validated before upload and sent in batches of up to 20. Free of charge (tokens are spent when a job analyses the plots). Returns one item per plot.',
			action: 'Register plots — free — returns one item per plot',
		},
		{
			name: 'Validate',
			value: 'validate',
			description:
				'Check plots as Register would, without sending anything (no request, no credential needed): problems with their location (feature, ring, position), warnings, geodesic area, vertex count, the 4 ha rule, and duplicates and overlaps across all rows. Free.',
			action: 'Validate plots — free — sends nothing and returns each row with its problems',
		},
	],
	shown,
);
