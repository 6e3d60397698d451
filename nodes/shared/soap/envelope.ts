/**
 * The SOAP 1.1 envelope every EU Information System call is sent in (pack §3.2), and the two
 * headers besides WS-Security: WebServiceClientId (base/v4) and the optional BodyIdentity
 * (body/v3, its child element unqualified: pack §3.1). Pure: no n8n imports.
 */
import { escapeXml } from './escape';

export const SOAP_ENV_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
const BASE_V4_NS = 'http://ec.europa.eu/sanco/tracesnt/base/v4';
const BODY_V3_NS = 'http://ec.europa.eu/tracesnt/body/v3';

/** The envelope: the header elements in order, then the one body element. */
export function soapEnvelope(o: { headers: string[]; body: string }): string {
	return (
		`<?xml version="1.0" encoding="UTF-8"?>` +
		`<soapenv:Envelope xmlns:soapenv="${SOAP_ENV_NS}">` +
		`<soapenv:Header>${o.headers.join('')}</soapenv:Header>` +
		`<soapenv:Body>${o.body}</soapenv:Body></soapenv:Envelope>`
	);
}

/** The WebServiceClientId header (the value of the profile's "Web Services Access"). */
export function clientIdHeader(clientId: string): string {
	return `<v4:WebServiceClientId xmlns:v4="${BASE_V4_NS}">${escapeXml(clientId)}</v4:WebServiceClientId>`;
}

/** The BodyIdentity header with an Operator Access Identifier (child element unqualified). */
export function bodyIdentityHeader(operatorAccessIdentifier: string): string {
	return (
		`<body:BodyIdentity xmlns:body="${BODY_V3_NS}">` +
		`<OperatorAccessIdentifier>${escapeXml(operatorAccessIdentifier)}</OperatorAccessIdentifier>` +
		`</body:BodyIdentity>`
	);
}
