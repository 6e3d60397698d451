/**
 * The EU Information System credential as the transport uses it: the environment's Base URL
 * (Acceptance, Production, or a custom URL for a fake or a proxy: https only, http for
 * loopback hosts), its origin (the only one the key is sent to), and the secrets to redact.
 */
import { NodeOperationError } from 'n8n-workflow';

import { readNumber } from '../input/numbers';
import { CredentialSetupError, normaliseBaseUrl } from './credentialChecks';
import { EU_CALLS_PER_SECOND } from './euRateLimit';
import type { ServiceContext } from './serviceContext';

export const EU_CREDENTIAL_TYPE = 'euInformationSystemApi';

export const EU_BASE_URLS = {
	acceptance: 'https://acceptance.eudr.webcloud.ec.europa.eu/tracesnt/',
	production: 'https://eudr.webcloud.ec.europa.eu/tracesnt/',
} as const;

export const DEFAULT_ECHO_PATH = 'ws/eudr/echo';

/**
 * The shortest Authentication Key accepted: 8 characters. The key is not chosen by its user:
 * the EU Information System generates it and shows it in the profile under "Web Services
 * Access" (pack §1; the pack gives no length, the EU's keys are long random texts), so a
 * shorter value is a cut-off copy or a placeholder. And the key is redacted from every
 * answer (euRedaction.ts): with a key of 4 characters, a statement's UUID "a1b2c3d4-…" came out
 * as "***c3d4-…" and its reference as "PO-***"; a random text of 8 or more characters does not
 * occur in an identifier by chance, so redaction never damages an output (where an answer does
 * carry the key, it is the answer that is hostile, and the value is replaced).
 */
export const MIN_EU_KEY_CHARS = 8;

export interface EuCredential {
	environment: 'acceptance' | 'production' | 'custom';
	/** Ends with /tracesnt/, or the custom URL with one trailing slash. */
	baseUrl: string;
	origin: string;
	username: string;
	key: string;
	clientId: string;
	operatorAccessIdentifier: string;
	echoPath: string;
	/** Calls a second this process may start to the origin (euRateLimit.ts; 5 when not set). */
	callsPerSecond: number;
	secrets: string[];
}

/** The smallest Calls per Second accepted (one call every ten seconds). */
export const MIN_CALLS_PER_SECOND = 0.1;

/** The credential's Calls per Second: empty → the EU's 5; otherwise 0.1 to 5. */
function readCallsPerSecond(raw: unknown): number {
	const read = readNumber(raw, {
		min: MIN_CALLS_PER_SECOND,
		max: EU_CALLS_PER_SECOND,
		label: 'Calls per Second',
	});
	if (read.kind === 'missing') return EU_CALLS_PER_SECOND;
	if (read.kind === 'value') return read.value;
	throw new CredentialSetupError(
		`The credential's Calls per Second is not usable: ${read.reason} The EU Information System accepts 5 calls a second from one address: leave 5 when one n8n process calls it, or divide 5 by the number of processes (queue-mode workers) that call it from the same address.`,
	);
}

/** The Custom URL checked like the other credentials' Base URL (https; http for loopback). */
function customBaseUrl(raw: string): string {
	let problem: string | undefined;
	let url = '';
	try {
		url = normaliseBaseUrl(raw);
	} catch (error) {
		problem = (error as Error).message;
	}
	if (problem === undefined) return url;
	throw new CredentialSetupError(
		problem
			.replace(/Base URL/g, 'Custom URL')
			.replace(/https:\/\/api\.example\.com/g, 'https://proxy.example.com/tracesnt/'),
	);
}

/** The client id used when the credential gives none (the Acceptance value, pack §1). */
export const DEFAULT_CLIENT_ID = 'eudr-test';

/**
 * The credential's Web Service Client ID: the field `webServiceClientId`, else the value of a
 * credential saved before the field was renamed (`clientId`, which n8n's editor labelled with
 * its OAuth wording "Client ID"), else eudr-test.
 */
export function webServiceClientIdOf(data: Record<string, unknown>): string {
	const text = (value: unknown) => String(value ?? '').trim();
	return text(data.webServiceClientId) || text(data.clientId) || DEFAULT_CLIENT_ID;
}

/** The credential's values, checked; throws a CredentialSetupError that says what to change. */
export function readEuCredential(data: Record<string, unknown>): EuCredential {
	const env = String(data.environment ?? 'acceptance');
	const environment = env === 'production' || env === 'custom' ? env : 'acceptance';
	let baseUrl: string;
	if (environment === 'custom') {
		const raw = String(data.customUrl ?? '').trim();
		if (raw === '')
			throw new CredentialSetupError(
				'The credential has Environment "Custom URL" but no Custom URL. Enter the address of the service (for example https://proxy.example.com/tracesnt/), or choose Acceptance or Production.',
			);
		baseUrl = `${customBaseUrl(raw)}/`;
	} else baseUrl = EU_BASE_URLS[environment];
	const username = String(data.username ?? '').trim();
	const key = String(data.authKey ?? '');
	if (username === '' || key === '')
		throw new CredentialSetupError(
			'The credential needs the EU Login Username and the Authentication Key shown in your EU Information System profile under "Web Services Access".',
		);
	const keyChars = [...key].length;
	if (keyChars < MIN_EU_KEY_CHARS)
		throw new CredentialSetupError(
			`The Authentication Key of the credential has ${keyChars} character${keyChars === 1 ? '' : 's'}; the key the EU Information System gives is longer (at least ${MIN_EU_KEY_CHARS}). Copy the whole key from your EU Information System profile, under "Web Services Access" (click the eye next to Authentication Key), into the credential.`,
		);
	const echoPath =
		String(data.echoPath ?? '')
			.trim()
			.replace(/^\/+/, '') || DEFAULT_ECHO_PATH;
	return {
		environment,
		baseUrl,
		origin: new URL(baseUrl).origin,
		username,
		key,
		clientId: webServiceClientIdOf(data),
		operatorAccessIdentifier: String(data.operatorAccessIdentifier ?? '').trim(),
		echoPath,
		callsPerSecond: readCallsPerSecond(data.callsPerSecond),
		secrets: [key],
	};
}

/** The node's EU Information System credential, checked. */
export async function euCredential(this: ServiceContext): Promise<EuCredential> {
	const data = (await this.getCredentials(EU_CREDENTIAL_TYPE)) as Record<string, unknown>;
	let problem: string | undefined;
	try {
		return readEuCredential(data);
	} catch (error) {
		problem = error instanceof CredentialSetupError ? error.message : String(error);
	}
	throw new NodeOperationError(this.getNode(), problem, {
		description: 'Open the EU Information System API credential of this node and correct it.',
	});
}
