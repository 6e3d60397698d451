/**
 * What a SOAP 1.1 answer of the EU Information System says (pack §7): the Body's first
 * element, or a Fault (faultcode, faultstring, the detail's element by local name and every
 * error/v01 Error in it, read leniently), and the WS_REQUEST_ID of the message/v1 Message
 * header, which the support desk asks for. Read by namespace URI, never by prefix.
 * Pure: no n8n imports.
 */
import { parseXml, XmlParseError } from './xml';
import type { XmlElement } from './xmlElement';
import { child, mapXmlStrings } from './xmlElement';
import { SOAP_ENV_NS } from './envelope';

const MESSAGE_NS = 'http://ec.europa.eu/sanco/tracesnt/message/v1';
const ERROR_V01_NS = 'http://ec.europa.eu/sanco/tracesnt/error/v01';

/**
 * A fault keeps its first errors only: 3,000 entries of 1 KB made a 3 MB message and an 18 MB
 * run. The EU reports every problem of a statement in one fault; the first ten codes say what
 * to fix first, and the count of the others is kept (`moreErrors`).
 */
export const MAX_FAULT_ERRORS = 10;
/** Longest error message, code or field kept from a fault (characters). */
export const MAX_FAULT_ERROR_CHARS = 500;
/** Longest faultstring kept (characters). */
export const MAX_FAULT_STRING_CHARS = 2000;

export interface SoapError {
	id: string;
	message: string;
	field: string | null;
}

export type SoapAnswer =
	| { kind: 'body'; element: XmlElement; requestId: string | null }
	| {
			kind: 'fault';
			faultCode: string;
			faultString: string;
			faultName: string | null;
			errors: SoapError[];
			/** Errors of the fault beyond the MAX_FAULT_ERRORS kept. */
			moreErrors: number;
			requestId: string | null;
	  };

/** `text` cut to `max` characters (marked with "…"). */
function clip(text: string, max: number): string {
	return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** The child of `el` with this local name, in any namespace (unqualified fault parts). */
function byName(el: XmlElement | undefined, name: string): XmlElement | undefined {
	return el?.children.find((c) => c.name === name);
}

function textOf(el: XmlElement | undefined, name: string): string | null {
	const c = el?.children.find((x) => x.name.toLowerCase() === name.toLowerCase());
	return c ? c.text.trim() : null;
}

/** The request id of a message/v1 Message header: its ID WS_REQUEST_ID's value. */
function requestIdOf(header: XmlElement | undefined): string | null {
	for (const message of header?.children ?? []) {
		if (message.ns !== MESSAGE_NS) continue;
		const all = [message, ...message.children];
		for (const el of all) {
			const id = el.children.find((c) => c.name === 'ID');
			if (id?.text.trim() === 'WS_REQUEST_ID') {
				const value = el.children.find((c) => c !== id && c.text.trim() !== '');
				if (value) return value.text.trim();
			}
		}
	}
	return null;
}

/**
 * Every Error (error/v01) or error (downstream samples) below `el`, leniently; the echo
 * service's documented fault carries one `errorMessage` (operator API reference §3.8). The
 * first MAX_FAULT_ERRORS are kept (their texts clipped), the others only counted.
 */
function errorsIn(el: XmlElement, out: { kept: SoapError[]; count: number }, depth = 0): void {
	const keep = (e: SoapError) => {
		if (out.count++ < MAX_FAULT_ERRORS)
			out.kept.push({
				id: clip(e.id, MAX_FAULT_ERROR_CHARS),
				message: clip(e.message, MAX_FAULT_ERROR_CHARS),
				field: e.field === null ? null : clip(e.field, MAX_FAULT_ERROR_CHARS),
			});
	};
	for (const c of el.children) {
		const isError =
			(c.ns === ERROR_V01_NS && c.name === 'Error') || c.name === 'error' || c.name === 'Error';
		if (isError && (textOf(c, 'ID') !== null || textOf(c, 'code') !== null))
			keep({
				id: textOf(c, 'ID') ?? textOf(c, 'code') ?? '',
				message: textOf(c, 'Message') ?? textOf(c, 'message') ?? '',
				field: textOf(c, 'Field'),
			});
		else if (c.name === 'errorMessage' && c.children.length === 0 && c.text.trim() !== '')
			keep({ id: '', message: c.text.trim(), field: null });
		else if (depth < 4) errorsIn(c, out, depth + 1);
	}
}

/**
 * Reads a SOAP 1.1 answer; throws XmlParseError when it is not SOAP XML. `clean` (the
 * transport's redaction) is applied to every string of the decoded tree before anything is
 * read from it: a secret the decoding puts together (character references, CDATA sections) is
 * redacted like one written plainly.
 */
export function readSoapAnswer(text: string, clean?: (text: string) => string): SoapAnswer {
	const envelope = parseXml(text);
	if (clean) mapXmlStrings(envelope, clean);
	if (envelope.ns !== SOAP_ENV_NS || envelope.name !== 'Envelope')
		throw new XmlParseError(`the answer is <${envelope.name}>, not a SOAP 1.1 envelope`);
	const requestId = requestIdOf(child(envelope, SOAP_ENV_NS, 'Header'));
	const body = child(envelope, SOAP_ENV_NS, 'Body');
	if (!body) throw new XmlParseError('the SOAP envelope has no Body');
	const first = body.children[0];
	if (!first) throw new XmlParseError('the SOAP Body is empty');
	if (first.ns !== SOAP_ENV_NS || first.name !== 'Fault')
		return { kind: 'body', element: first, requestId };
	const detail = byName(first, 'detail');
	const detailElement = detail?.children[0];
	const errors = { kept: [] as SoapError[], count: 0 };
	if (detail) errorsIn(detail, errors);
	return {
		kind: 'fault',
		faultCode: clip(textOf(first, 'faultcode') ?? '', MAX_FAULT_ERROR_CHARS),
		faultString: clip(textOf(first, 'faultstring') ?? '', MAX_FAULT_STRING_CHARS),
		faultName: detailElement ? clip(detailElement.name, MAX_FAULT_ERROR_CHARS) : null,
		errors: errors.kept,
		moreErrors: errors.count - errors.kept.length,
		requestId: requestId === null ? null : clip(requestId, MAX_FAULT_ERROR_CHARS),
	};
}
