/**
 * Why a request may have been carried out although its answer never came, in the user's
 * words (pure). For messages after a failure whose ServiceFailure says `mayHaveArrived`.
 */
import type { ServiceFailure } from './serviceFailure';

export function lostAnswerReason(
	failure: Pick<ServiceFailure, 'status' | 'networkCode'> & { kind?: ServiceFailure['kind'] },
): string {
	if (failure.kind === 'unexpected-answer')
		return 'the service answered, but not with what the endpoint documents, so what it did cannot be read from the answer';
	if (failure.status === 502 || failure.status === 504)
		return `a gateway answered ${failure.status} instead of the service, which may have carried the request out`;
	if (failure.networkCode && /TIMEDOUT|ABORTED/.test(failure.networkCode))
		return `no answer came in time (${failure.networkCode}), although the request was sent`;
	return `the connection broke after the request was sent${failure.networkCode ? ` (${failure.networkCode})` : ''}`;
}
