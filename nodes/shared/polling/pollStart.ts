/**
 * How a poll of a trigger starts, from its stored state and where the credential points now
 * (pure, shared by both triggers): afresh without state or on another service (base URL), the
 * account's items found anew on another account of the same service, else continuing. Each
 * trigger's tracker (completionTracker.ts, statementTracker.ts) says what each start means.
 */

/** What a stored state says about where its ids come from. */
export interface StateIdentity {
	service?: string;
	account?: string;
}

/** Where the jobs come from: the service (base URL) and the account on it. */
export interface TrackerIdentity {
	service: string;
	account: string;
	/**
	 * What earlier versions stored as `account` for the same credential (`key:` + fingerprint,
	 * `user:` + name), computed in memory and never stored: a state written by them continues
	 * (and takes `account`) when it matches, rather than looking like another account.
	 */
	legacyAccount?: string;
}

/** Whether a stored account value was written by an earlier version (see TrackerIdentity). */
export function isLegacyAccount(account: string | undefined): boolean {
	return account !== undefined && /^(key|user):/.test(account);
}

/**
 * How a poll starts: `first` without state; `newService` when the credential points to another
 * base URL than the state's; `newAccount` on the same service with another account; else
 * `continue`.
 */
export type PollStart = 'first' | 'newService' | 'newAccount' | 'continue';

export function pollStart(
	state: StateIdentity | undefined,
	identity: TrackerIdentity | undefined,
): PollStart {
	if (!state) return 'first';
	if (!identity) return 'continue';
	if (state.service !== undefined && state.service !== identity.service) return 'newService';
	if (state.account !== undefined && state.account !== identity.account) {
		const migrated =
			isLegacyAccount(state.account) &&
			identity.legacyAccount !== undefined &&
			state.account === identity.legacyAccount;
		if (!migrated) return 'newAccount';
	}
	return 'continue';
}
