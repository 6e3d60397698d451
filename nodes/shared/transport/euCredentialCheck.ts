/**
 * The credential test of the EU Information System API credential: a harmless call that needs
 * the key (pack §2): echo on Acceptance and a custom URL, and on Production (where echo is not
 * offered) a lookup of an internal reference no one uses, whose "not found" or empty answer
 * proves the key was accepted. Failures come back in the transport's plain words.
 */
import type { EuCallContext } from './soapRequest';
import { callEu } from './soapRequest';
import { euFailureOf } from './euFailure';
import { readEuCredential } from './euCredential';

const ECHO_NS = 'http://ec.europa.eu/tracesnt/eudr/echo';
const DDS_NS = 'http://ec.europa.eu/tracesnt/certificate/eudr/due-diligence-statement/v3';
/** An internal reference no operator files under (3–50 characters). */
export const CHECK_REFERENCE = 'n8n-credential-check-0000';

/** Throws an Error whose message says what is wrong; resolves when the key was accepted. */
export async function checkEuCredential(
	ctx: EuCallContext,
	data: Record<string, unknown>,
): Promise<void> {
	const credential = readEuCredential(data);
	const makeError = (message: string, description: string) =>
		new Error(description ? `${message} ${description}` : message);
	if (credential.environment !== 'production') {
		await callEu(
			ctx,
			credential,
			{
				service: 'echo',
				operation: 'testEcho',
				body: `<echo:EudrEchoRequest xmlns:echo="${ECHO_NS}"><echo:query>n8n credential test</echo:query></echo:EudrEchoRequest>`,
				idempotent: true,
				timeoutMs: 30_000,
			},
			makeError,
		);
		return;
	}
	const lookup = callEu(
		ctx,
		credential,
		{
			service: 'dds',
			operation: 'getDdsByInternalReference',
			body: `<dds:GetDdsByInternalReferenceRequest xmlns:dds="${DDS_NS}"><dds:internalReference>${CHECK_REFERENCE}</dds:internalReference></dds:GetDdsByInternalReferenceRequest>`,
			idempotent: true,
			timeoutMs: 30_000,
		},
		makeError,
	);
	// "not found" is an answer to an authenticated call: the key works
	const failure = await lookup.then(
		() => undefined,
		(error: unknown) => error,
	);
	if (failure !== undefined && euFailureOf(failure)?.faultName !== 'NotFoundException')
		throw failure as Error;
}
