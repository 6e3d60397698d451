/** Shared pieces of the fake's contract tests: fixtures of the pack's samples, calls, answer reading. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EnvelopeOptions } from '../client';
import { ddsAction, post, securityHeader } from '../client';
import type { FakeEu } from '../index';
import {
	DDS_NS,
	ERROR_NS,
	SOAP_ENV_NS,
	elementChildren,
	kid,
	kidText,
	kids,
	parseDocument,
} from '../xml';
import type { El } from '../xml';

export const REQUESTS_DIR = join(
	__dirname,
	'..',
	'..',
	'fixtures',
	'eu-information-system',
	'requests',
);

/** A fixture (EU sample of OPREF §5, see its first line) with our header and the given values. */
export function fixture(
	name: string,
	values: Record<string, string>,
	security: EnvelopeOptions,
): string {
	const text = readFileSync(join(REQUESTS_DIR, `${name}.xml`), 'utf8').replace(
		/^<!--[\s\S]*?-->\n/,
		'',
	);
	return text
		.replace('{{wsse_security}}', securityHeader(security))
		.replace('{{client_id}}', security.clientId)
		.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => values[key] ?? whole);
}

export function userOf(eu: FakeEu, extra: Partial<EnvelopeOptions> = {}): EnvelopeOptions {
	const { username, key, clientId } = eu.users[0];
	return { username, key, clientId, ...extra };
}

export interface Read {
	status: number;
	body: El | undefined;
	fault?: {
		code: string;
		string: string;
		name: string | null;
		errors: Array<{ id: string; message: string; field: string }>;
	};
	requestId: string | null;
}

export function readAnswer(status: number, text: string): Read {
	const env = parseDocument(text);
	const body = kid(env, SOAP_ENV_NS, 'Body');
	const first = body ? elementChildren(body)[0] : undefined;
	const header = kid(env, SOAP_ENV_NS, 'Header');
	const message = header
		? elementChildren(header).find((e) => e.localName === 'Message')
		: undefined;
	const requestId = message
		? (elementChildren(message).find((e) => e.localName === 'Value')?.textContent ?? null)
		: null;
	if (first && first.localName === 'Fault' && first.namespaceURI === SOAP_ENV_NS) {
		const detail = kid(first, null, 'detail');
		const named = detail ? elementChildren(detail)[0] : undefined;
		return {
			status,
			body: undefined,
			requestId,
			fault: {
				code: kidText(first, null, 'faultcode') ?? '',
				string: kidText(first, null, 'faultstring') ?? '',
				name: named?.localName ?? null,
				errors: named
					? kids(named, ERROR_NS, 'Error').map((e) => ({
							id: kidText(e, ERROR_NS, 'ID') ?? '',
							message: kidText(e, ERROR_NS, 'Message') ?? '',
							field: kidText(e, ERROR_NS, 'Field') ?? '',
						}))
					: [],
			},
		};
	}
	return { status, body: first, requestId };
}

/** Posts a whole envelope to the DDS service with the operation's SOAPAction. */
export async function callDds(
	eu: FakeEu,
	operation: string,
	text: string,
	action: string | null = ddsAction(operation),
): Promise<Read> {
	const answer = await post(`${eu.url}ws/EUDRDueDiligenceStatementServiceV3`, text, action);
	return readAnswer(answer.status, answer.text);
}

export const textIn = (el: El | undefined, name: string, ns = DDS_NS) =>
	el ? kidText(el, ns, name) : undefined;

/** Submits the §5.1.1 sample and returns its uuid. */
export async function submitSample(eu: FakeEu, comment?: string): Promise<string> {
	let text = fixture('submitDds', {}, userOf(eu));
	if (comment !== undefined)
		text = text.replace(
			'<dds:commodities>',
			`<dds:comment>${comment}</dds:comment> <dds:commodities>`,
		);
	const read = await callDds(eu, 'submitDds', text);
	if (!read.body) throw new Error(`submit refused: ${JSON.stringify(read.fault)}`);
	return textIn(read.body, 'uuid') as string;
}
