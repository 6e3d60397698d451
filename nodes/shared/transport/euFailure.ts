/**
 * What failed in a call to the EU Information System, attached to the error the transport
 * throws so that the node can decide (a submit that may have arrived is looked up first).
 */

export interface EuFailure {
	kind:
		| 'fault'
		| 'authentication'
		| 'throttled'
		| 'http'
		| 'notSoap'
		| 'network'
		| 'timeout'
		| 'redirect'
		| 'tooLarge'
		| 'answerTooLarge'
		| 'cancelled';
	/** The request may have reached the service (sent, then no or a failed answer). */
	mayHaveArrived: boolean;
	status?: number;
	faultName?: string | null;
	errors: Array<{ id: string; message: string; field: string | null }>;
	/** Errors of the fault beyond those kept in `errors` (soapAnswer.ts MAX_FAULT_ERRORS). */
	moreErrors?: number;
	/** The part of the credential an authentication failure blames (euCredentialFault.ts). */
	cause?: CredentialCause;
	requestId: string | null;
	/** The wait the service asked for (its Retry-After, in ms), when it gave one. */
	retryAfterMs?: number;
}

/** Which part of the credential a refusal names: the key or username, the client id, the clock. */
export type CredentialCause = 'key' | 'clientId' | 'clock';

const failures = new WeakMap<object, EuFailure>();

/** Attaches `failure` to `error` and returns the error. */
export function attachEuFailure<E extends object>(error: E, failure: EuFailure): E {
	failures.set(error, failure);
	return error;
}

/** The EuFailure attached to an error by the transport, if any. */
export function euFailureOf(error: unknown): EuFailure | undefined {
	return error !== null && typeof error === 'object' ? failures.get(error) : undefined;
}

/**
 * Whether the EU refused the call because of its rate limit before processing it (HTTP 429,
 * or its throttling fault): nothing was carried out, so even a submission may be sent again
 * (after a wait, and after the check its caller makes first).
 */
export function refusedForRate(failure: EuFailure | undefined): failure is EuFailure {
	return failure?.kind === 'throttled' && !failure.mayHaveArrived;
}
