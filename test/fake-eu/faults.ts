/**
 * The answers of the fake, in the EU's shape (pack README §7 and the samples of OPREF §5):
 * SOAP 1.1, prefix `S`, a response header with a wsu:Timestamp and the message/v1 `Message`
 * header carrying `WS_REQUEST_ID`; faults with `faultcode` S:Client, a `faultstring`, and a
 * detail element of the service namespace holding error/v01 `Error` {ID, Message, Field}.
 */
import { randomUUID } from 'node:crypto';
import {
	DDS_NS,
	ECHO_NS,
	ERROR_NS,
	MESSAGE_NS,
	SOAP_ENV_NS,
	WSSE_NS,
	WSU_NS,
	escapeText,
} from './xml';

export interface FaultError {
	id: string;
	message: string;
	/** null: no Field element (as in the EU's observed permission fault, pack §7 [ERRX]). */
	field: string | null;
}

export type FaultName =
	| 'BusinessRulesValidationException'
	| 'PermissionDeniedException'
	| 'NotFoundException'
	| 'UnauthenticatedException';

/** A fault the handlers throw; the server writes it (HTTP 500, SOAP 1.1 Fault). */
export class EuFault extends Error {
	constructor(
		readonly faultName: FaultName | null,
		readonly faultString: string,
		readonly errors: FaultError[] = [],
		readonly faultCode = 'S:Client',
	) {
		super(faultString);
	}
	/** The first code (for the request log). */
	get code(): string {
		return this.errors[0]?.id ?? this.faultName ?? this.faultCode;
	}
}

export function businessFault(errors: FaultError[]): EuFault {
	return new EuFault('BusinessRulesValidationException', 'Some business rules are not met', errors);
}

export function notFoundFault(errors: FaultError[]): EuFault {
	return new EuFault('NotFoundException', 'Not found', errors);
}

export type CodeStyle = 'underscore' | 'hyphen';

export function styled(id: string, style: CodeStyle): string {
	return style === 'hyphen' && id.startsWith('EUDR') ? id.replace(/_/g, '-') : id;
}

export function newRequestId(): string {
	return randomUUID();
}

function responseHeader(requestId: string, now: Date): string {
	const created = now.toISOString();
	const expires = new Date(now.getTime() + 5000).toISOString();
	return (
		`<S:Header><ns2:Security xmlns:ns1="${WSU_NS}" xmlns:ns2="${WSSE_NS}"><ns1:Timestamp>` +
		`<ns1:Created>${created}</ns1:Created><ns1:Expires>${expires}</ns1:Expires></ns1:Timestamp></ns2:Security>` +
		`<m:Message xmlns:m="${MESSAGE_NS}"><m:ID>WS_REQUEST_ID</m:ID><m:Value>${requestId}</m:Value></m:Message>` +
		`</S:Header>`
	);
}

export function okEnvelope(body: string, requestId: string, now: Date): string {
	return `<S:Envelope xmlns:S="${SOAP_ENV_NS}">${responseHeader(requestId, now)}<S:Body>${body}</S:Body></S:Envelope>`;
}

/** `serviceNs`: the namespace of the service's exception elements (pack §7). */
export function faultEnvelope(
	fault: EuFault,
	requestId: string,
	now: Date,
	style: CodeStyle,
	serviceNs = DDS_NS,
): string {
	let detail = '';
	if (fault.faultName) {
		const errors = fault.errors
			.map(
				(e) =>
					`<ns4:Error><ns4:ID>${escapeText(styled(e.id, style))}</ns4:ID><ns4:Message>${escapeText(e.message)}</ns4:Message>` +
					(e.field === null ? '' : `<ns4:Field>${escapeText(e.field)}</ns4:Field>`) +
					'</ns4:Error>',
			)
			.join('');
		detail = `<detail><ns5:${fault.faultName} xmlns:ns5="${serviceNs}" xmlns:ns4="${ERROR_NS}">${errors}</ns5:${fault.faultName}></detail>`;
	}
	return (
		`<S:Envelope xmlns:S="${SOAP_ENV_NS}">${responseHeader(requestId, now)}<S:Body><S:Fault>` +
		`<faultcode>${fault.faultCode}</faultcode><faultstring>${escapeText(fault.faultString)}</faultstring>${detail}` +
		`</S:Fault></S:Body></S:Envelope>`
	);
}

/** The echo service's documented fault [OPREF §3.8]. */
export function echoFaultEnvelope(message: string): string {
	return (
		`<soapenv:Envelope xmlns:soapenv="${SOAP_ENV_NS}" xmlns:echo="${ECHO_NS}"><soapenv:Body><soapenv:Fault>` +
		`<faultcode>soapenv:Server</faultcode><faultstring>EudrEchoServiceFault</faultstring><detail>` +
		`<echo:EudrEchoServiceFault><echo:errorMessage>${escapeText(message)}</echo:errorMessage></echo:EudrEchoServiceFault>` +
		`</detail></soapenv:Fault></soapenv:Body></soapenv:Envelope>`
	);
}
