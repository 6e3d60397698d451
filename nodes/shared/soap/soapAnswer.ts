/**
 * What a SOAP 1.1 answer of the EU Information System says (pack §7): the Body's first
 * element, or a Fault (faultcode, faultstring, the detail's element by local name and every
 * error/v01 Error in it, read leniently), and the WS_REQUEST_ID of the message/v1 Message
 * header, which the support desk asks for. Read by namespace URI, never by prefix.
 * Pure: no n8n imports.
 */
import { parseXml, XmlParseError } from './xml';
import type { XmlElement } from './xmlElement';
import { child } from './xmlElement';
import { SOAP_ENV_NS } from './envelope';

const MESSAGE_NS = 'http://ec.europa.eu/sanco/tracesnt/message/v1';
const ERROR_V01_NS = 'http://ec.europa.eu/sanco/tracesnt/error/v01';

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
			requestId: string | null;
	  };

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
 * service's documented fault carries one `errorMessage` (operator API reference §3.8).
 */
function errorsIn(el: XmlElement, out: SoapError[], depth = 0): SoapError[] {
	for (const c of el.children) {
		const isError =
			(c.ns === ERROR_V01_NS && c.name === 'Error') || c.name === 'error' || c.name === 'Error';
		if (isError && (textOf(c, 'ID') !== null || textOf(c, 'code') !== null))
			out.push({
				id: textOf(c, 'ID') ?? textOf(c, 'code') ?? '',
				message: textOf(c, 'Message') ?? textOf(c, 'message') ?? '',
				field: textOf(c, 'Field'),
			});
		else if (c.name === 'errorMessage' && c.children.length === 0 && c.text.trim() !== '')
			out.push({ id: '', message: c.text.trim(), field: null });
		else if (depth < 4) errorsIn(c, out, depth + 1);
	}
	return out;
}

/** Reads a SOAP 1.1 answer; throws XmlParseError when it is not SOAP XML. */
export function readSoapAnswer(text: string): SoapAnswer {
	const envelope = parseXml(text);
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
	return {
		kind: 'fault',
		faultCode: textOf(first, 'faultcode') ?? '',
		faultString: textOf(first, 'faultstring') ?? '',
		faultName: detailElement ? detailElement.name : null,
		errors: detail ? errorsIn(detail, []) : [],
		requestId,
	};
}
