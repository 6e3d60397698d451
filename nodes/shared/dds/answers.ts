/**
 * The answers of the Due Diligence Statement and the Simplified Declaration services V3, read from the namespace-aware tree
 * of soap/xml.ts by namespace URI and local name (answers use any prefixes). Tolerant where
 * the contract is silent (children matched by local name in any namespace): unknown child
 * elements are passed through as extra fields, unknown
 * status values unchanged, absent optional elements are `null`. Pure: no n8n imports.
 */
import type { XmlElement } from '../soap/xmlElement';
import type { StatementOverview } from './statement';

/** An answer that lacks what its type makes mandatory (the caller names the operation). */
export class AnswerShapeError extends Error {}

/** The trimmed text of the first child of this local name (any namespace), null when absent. */
function textOf(el: XmlElement, name: string): string | null {
	const c = el.children.find((x) => x.name === name);
	return c ? c.text.trim() : null;
}

function required(el: XmlElement, name: string, what: string): string {
	const value = textOf(el, name);
	if (value === null || value === '')
		throw new AnswerShapeError(`the answer (${el.name}) has no ${what} (${name})`);
	return value;
}

/** SubmitDdsResponse (`uuid`) / SubmitSdResponse (`sdIdentifier`): the new statement's UUID. */
export function readSubmitAnswer(el: XmlElement): { uuid: string } {
	const name = el.children.some((c) => c.name === 'sdIdentifier') ? 'sdIdentifier' : 'uuid';
	return { uuid: required(el, name, 'statement UUID') };
}

/** AmendDdsResponse / WithdrawDdsResponse (DdsModificationResponseType). */
export function readStatusAnswer(el: XmlElement): { uuid: string; status: string } {
	return {
		uuid: required(el, 'uuid', 'statement UUID'),
		status: required(el, 'status', 'status'),
	};
}

/** UpdateSdResponse / WithdrawSdResponse (SdModificationResponseType): also the version, null when absent. */
export function readSdStatusAnswer(el: XmlElement): {
	uuid: string;
	status: string;
	version: string | null;
} {
	return { ...readStatusAnswer(el), version: textOf(el, 'version') || null };
}

/** Sets a key as an own property (a name such as `__proto__` stays data). */
function put(out: Record<string, unknown>, key: string, value: unknown): void {
	Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}

/** An element as JSON: text when it has no children, else an object (repeated names → arrays). */
export function elementValue(el: XmlElement): unknown {
	if (el.children.length === 0) return el.text.trim();
	const groups = new Map<string, unknown[]>();
	for (const c of el.children) {
		const list = groups.get(c.name) ?? [];
		list.push(elementValue(c));
		groups.set(c.name, list);
	}
	const out: Record<string, unknown> = {};
	for (const [name, values] of groups) put(out, name, values.length === 1 ? values[0] : values);
	return out;
}

const OVERVIEW_FIELDS = [
	'uuid',
	'internalReferenceNumber',
	'referenceNumber',
	'verificationNumber',
	'status',
	'rejectionReason',
	'communicationToOperator',
	'date',
	'updatedBy',
	'version',
];

/** One OverviewType entry; its children are in the common namespace (any namespace accepted). */
function readOverview(entry: XmlElement): StatementOverview {
	const text = (name: string): string | null => textOf(entry, name) || null;
	const communication = entry.children.find((x) => x.name === 'communicationToOperator');
	const overview: StatementOverview = {
		uuid: text('uuid') ?? '',
		internalReferenceNumber: text('internalReferenceNumber'),
		referenceNumber: text('referenceNumber'),
		verificationNumber: text('verificationNumber'),
		status: text('status') ?? '',
		rejectionReason: text('rejectionReason'),
		communicationToOperator: communication
			? {
					date: communication.children.find((x) => x.name === 'date')?.text.trim() || null,
					content: communication.children.find((x) => x.name === 'content')?.text.trim() || null,
				}
			: null,
		date: text('date'),
		updatedBy: text('updatedBy'),
		version: text('version'),
	};
	if (!overview.uuid) throw new AnswerShapeError('a statement in the answer has no UUID (uuid)');
	for (const c of entry.children) {
		if (OVERVIEW_FIELDS.includes(c.name) || Object.prototype.hasOwnProperty.call(overview, c.name))
			continue;
		put(overview, c.name, elementValue(c));
	}
	return overview;
}

/** The overview lists of the DDS and the SD answers (both OverviewType). */
const OVERVIEW_LISTS = ['ddsOverviewList', 'sdOverviewList'];

/**
 * How many overview entries an answer lists, counted as sent (before any entry is read or
 * left out): whether a lookup reached the EU's cap (referenceMatch.ts) is judged on this.
 */
export function overviewEntryCount(el: XmlElement): number {
	return el.children.filter((c) => OVERVIEW_LISTS.includes(c.name)).length;
}

/**
 * GetDdsResponse / GetDdsByInternalReferenceResponse (ddsOverviewList) and GetSdResponse /
 * GetSdByInternalReferenceResponse (sdOverviewList): every overview entry.
 */
export function readOverviews(el: XmlElement): StatementOverview[] {
	return el.children.filter((c) => OVERVIEW_LISTS.includes(c.name)).map(readOverview);
}

/** Elements repeated by the XSD: always arrays in the JSON, even with one entry. */
const REPEATED = new Set([
	'commodities',
	'producers',
	'speciesInfo',
	'groupedDeclarations',
	'operatorReferenceNumber',
	// the SD's producer locations
	'postalAddress',
	'cadastralIdentifier',
]);

/** A producer's geometryGeojson, Base64 of UTF-8 GeoJSON text, decoded to the object. */
function decodeGeometry(base64: string): {
	geometryGeojson: unknown;
	geometryGeojsonProblem?: string;
} {
	const compact = base64.replace(/\s+/g, '');
	if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 !== 0)
		return {
			geometryGeojson: null,
			geometryGeojsonProblem: 'the geolocation the service sent is not Base64',
		};
	const bytes = Buffer.from(compact, 'base64');
	let text: string;
	try {
		text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
	} catch {
		return {
			geometryGeojson: null,
			geometryGeojsonProblem: 'the geolocation the service sent is not UTF-8 text',
		};
	}
	try {
		return { geometryGeojson: JSON.parse(text) as unknown };
	} catch {
		return {
			geometryGeojson: null,
			geometryGeojsonProblem: 'the geolocation the service sent is not JSON',
		};
	}
}

/** A statement element as JSON: XSD names, repeated elements as arrays, geolocation decoded. */
function statementJson(el: XmlElement): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	for (const c of el.children) {
		let value: unknown;
		if (c.name === 'geometryGeojson' && c.children.length === 0) {
			const decoded = decodeGeometry(c.text);
			out.geometryGeojson = decoded.geometryGeojson;
			if (decoded.geometryGeojsonProblem)
				out.geometryGeojsonProblem = decoded.geometryGeojsonProblem;
			continue;
		}
		if (c.name === 'groupedDeclarations') {
			value =
				c.children.find((x) => x.name === 'groupedDeclaration')?.text.trim() ?? elementValue(c);
		} else if (c.name === 'geoLocationConfidential' && /^(true|false|1|0)$/.test(c.text.trim())) {
			value = /^(true|1)$/.test(c.text.trim());
		} else if (c.children.length === 0) {
			value = c.text.trim();
		} else value = statementJson(c);
		if (REPEATED.has(c.name)) {
			const list = (out[c.name] as unknown[] | undefined) ?? [];
			list.push(value);
			value = list;
		} else if (Object.prototype.hasOwnProperty.call(out, c.name)) {
			const prev = out[c.name];
			value = Array.isArray(prev) ? [...prev, value] : [prev, value];
		}
		put(out, c.name, value);
	}
	return out;
}

/**
 * GetDdsByIdentifiersResponse / GetSdByIdentifiersResponse: the full statement as JSON in the XSD's names; decimals as the
 * service sent them (it pads to six decimals, pack §4.1); each producer's geometryGeojson
 * decoded to the GeoJSON object, or null with `geometryGeojsonProblem` saying why.
 */
export function readStatementContent(el: XmlElement): Record<string, unknown> {
	const statement = el.children.find((c) => c.name === 'statement');
	if (!statement) throw new AnswerShapeError('the answer has no statement (statement)');
	return statementJson(statement);
}

/** EudrEchoResponse: its status ("OK"), null when absent. */
export function readEchoAnswer(el: XmlElement): { status: string | null } {
	return { status: textOf(el, 'status') };
}
