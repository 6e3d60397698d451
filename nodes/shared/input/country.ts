/**
 * Countries typed by people (Expected Country of Register and Validate, Producer Country of
 * the EU export): one reader, one wording; and the one check of a producer country as the EU
 * Information System takes it, whatever the geolocation source. Pure: no n8n imports.
 */
import { all as allCountries } from 'iso-3166-1';

import { MISSING, invalid, kindOf, quoted, value } from './internal';
import type { Reading } from './reading';

/**
 * Names in common use beside the ISO 3166-1 names (the `iso-3166-1` package's English names),
 * by alpha-2 code: the producing countries' own spellings and short names. Looked up before
 * the ISO names, so that "Congo" (the ISO name of both CG and CD) is the Republic of the Congo.
 */
const OTHER_NAMES: Record<string, readonly string[]> = {
	BR: ['Brasil'],
	BO: ['Plurinational State of Bolivia'],
	VE: ['Venezuela'],
	CI: ['Ivory Coast'],
	CM: ['Cameroun'],
	GN: ['Guinée'],
	CG: ['Congo', 'Republic of the Congo', 'Congo-Brazzaville'],
	CD: [
		'Democratic Republic of the Congo',
		'DR Congo',
		'DRC',
		'Congo-Kinshasa',
		'Congo, Democratic Republic of the',
	],
	TZ: ['Tanzania', 'Tanzania, United Republic of'],
	VN: ['Vietnam'],
	LA: ['Laos', 'Lao PDR'],
	MM: ['Burma'],
	DE: ['Deutschland'],
	PL: ['Polska'],
	ES: ['España'],
};

/** A country name reduced to letters and digits ("Côte d'Ivoire", "Cote d Ivoire" → "cotedivoire"). */
function normalise(text: string): string {
	return text
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '');
}

interface Tables {
	codes: Set<string>;
	byAlpha3: Map<string, string>;
	byOtherName: Map<string, string>;
	byName: Map<string, string[]>;
}

let tables: Tables | undefined;

function countryTables(): Tables {
	if (tables) return tables;
	const built: Tables = {
		codes: new Set(),
		byAlpha3: new Map(),
		byOtherName: new Map(),
		byName: new Map(),
	};
	for (const c of allCountries()) {
		built.codes.add(c.alpha2);
		built.byAlpha3.set(c.alpha3, c.alpha2);
		const key = normalise(c.country);
		built.byName.set(key, [...(built.byName.get(key) ?? []), c.alpha2]);
	}
	for (const [code, names] of Object.entries(OTHER_NAMES))
		for (const name of names) built.byOtherName.set(normalise(name), code);
	tables = built;
	return built;
}

const GIVE = 'Give the alpha-2 code (e.g. CI, BR), the alpha-3 code or the English name.';

/**
 * A country as its ISO 3166-1 alpha-2 code: from an alpha-2 or alpha-3 code (any letter case)
 * or a name (the English ISO names and the names in common use, e.g. "Ivory Coast", "Brasil",
 * "DRC"), case-, accent- and punctuation-insensitively. Empty is missing; anything else is
 * refused with one wording in every field.
 */
export function readCountry(v: unknown): Reading<string> {
	if (v === undefined || v === null) return MISSING;
	if (typeof v !== 'string' && typeof v !== 'number')
		return invalid(`it is ${kindOf(v)}, not a country name or code. ${GIVE}`);
	const text = String(v).trim();
	if (text === '') return MISSING;
	const { codes, byAlpha3, byOtherName, byName } = countryTables();
	const upper = text.toUpperCase();
	if (/^[A-Z]{2}$/.test(upper) && codes.has(upper)) return value(upper);
	if (/^[A-Z]{3}$/.test(upper) && byAlpha3.has(upper)) return value(byAlpha3.get(upper)!);
	const key = normalise(text);
	const other = byOtherName.get(key);
	if (other !== undefined) return value(other);
	const named = byName.get(key) ?? [];
	if (named.length === 1) return value(named[0]);
	if (named.length > 1)
		return invalid(
			`${quoted(text)} names more than one country (${named.join(', ')}). Give the ISO 3166-1 alpha-2 code.`,
		);
	return invalid(`${quoted(text)} is not a country name or an ISO 3166-1 code. ${GIVE}`);
}

/**
 * Why a producer country is not as the EU Information System takes it — an assigned ISO
 * 3166-1 alpha-2 code in capital letters (the XSD's CountryType only checks two letters; the
 * EU refuses an invalid code, pack §7 EUDR_COMMODITITY_PRODUCER_COUNTRY_CODE_INVALID) — naming
 * the code to write when the text names a country ("Brazil", "bra" → BR); undefined when it
 * is one. Every geolocation source meets it: Plot Rows (read by readCountry) and the
 * ProducerCountry of an EU GeoJSON file (written as it is, so not corrected but refused).
 */
export function countryCodeProblem(text: string): string | undefined {
	if (/^[A-Z]{2}$/.test(text) && countryTables().codes.has(text)) return undefined;
	const read = readCountry(text);
	if (read.kind === 'value')
		return `${quoted(text)} is not written as an ISO 3166-1 alpha-2 code: write ${read.value}.`;
	return `${quoted(text)} is not an ISO 3166-1 alpha-2 country code (two capital letters, e.g. CI or BR).`;
}
