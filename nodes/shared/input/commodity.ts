/** The commodity enum of the contract and its one reader. Pure: no n8n imports. */

import { MISSING, invalid, kindOf, quoted, value } from './internal';
import type { Reading } from './reading';

/** The contract's commodity enum, as the service spells it. */
export const COMMODITIES = [
	'wood',
	'soy',
	'cocoa',
	'coffee',
	'palm_oil',
	'beef',
	'rubber',
] as const;
export type Commodity = (typeof COMMODITIES)[number];

/** "palm_oil" → "Palm Oil". */
export function commodityName(commodity: Commodity): string {
	return commodity
		.split('_')
		.map((word) => word.charAt(0).toUpperCase() + word.slice(1))
		.join(' ');
}

/** UI `options` of a commodity field, sorted by name as n8n's lint rules want them. */
export const COMMODITY_OPTIONS: ReadonlyArray<{ name: string; value: Commodity }> = COMMODITIES.map(
	(c) => ({ name: commodityName(c), value: c }),
).sort((a, b) => a.name.localeCompare(b.name));

const ALLOWED = `Use one of: ${COMMODITIES.join(', ')} (any letter case; "Palm Oil" and "palm-oil" work too).`;

/**
 * A commodity, matched case-insensitively with spaces, hyphens and underscores counting as
 * the same ("Palm Oil", "palm-oil", "palm_oil", "PALM OIL" → palm_oil). Empty is missing;
 * anything else is refused with the allowed values.
 */
export function readCommodity(v: unknown): Reading<Commodity> {
	if (v === undefined || v === null) return MISSING;
	if (typeof v !== 'string') return invalid(`it is ${kindOf(v)}, not a commodity name. ${ALLOWED}`);
	const text = v.trim();
	if (text === '') return MISSING;
	const key = text.toLowerCase().replace(/[\s_-]+/g, '_');
	const found = COMMODITIES.find((c) => c === key);
	if (found) return value(found);
	return invalid(`${quoted(text)} is not a commodity the service knows. ${ALLOWED}`);
}
