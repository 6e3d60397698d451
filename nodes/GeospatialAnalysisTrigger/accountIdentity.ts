/**
 * Where the trigger's jobs come from: the service (the credential's base URL) and the account
 * on it, read from the credential at every poll, so that the trigger notices an edited
 * credential (completionTracker.ts says what it does then).
 *
 * The account is stored in the workflow's static data, which whoever can read or export the
 * workflow can read. So it is a keyed, slow hash whose key is the credential's secret, which
 * n8n keeps encrypted in its credential store and never exports with the workflow: scrypt of
 * the API key (or the login's password) with the base URL (and, for a login, the user name) as
 * salt. Neither the secret nor the user name can be read back from it; testing a guess costs a
 * memory-hard scrypt (N = 2^14, r = 8: ~16 MB and tens of milliseconds) rather than a fast
 * hash; a changed key, user name or password changes it (nodes/shared/polling/accountKey.ts). (Earlier versions stored `key:` and a
 * fast unsalted 53-bit hash of the key, or `user:` and the user name in clear: such state is
 * recognised in memory through `legacyAccount` and replaced on the next poll.)
 */
import type { IPollFunctions } from 'n8n-workflow';

import { CREDENTIAL_TYPES, credentialInfo } from '../shared/transport/nodeCredential';
import type { TrackerIdentity } from './completionTracker';
import { accountKey } from '../shared/polling/accountKey';

export { ACCOUNT_PREFIX, accountKey } from '../shared/polling/accountKey';

/**
 * A 53-bit fingerprint of a text (cyrb53), as 14 hex digits: what earlier versions stored for
 * an API key. Computed only in memory now, to recognise their state (never stored again).
 */
export function fingerprint(text: string): string {
	let h1 = 0xdeadbeef;
	let h2 = 0x41c6ce57;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		h1 = Math.imul(h1 ^ c, 2654435761);
		h2 = Math.imul(h2 ^ c, 1597334677);
	}
	h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
	h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
	const value = 4294967296 * (2097151 & h2) + (h1 >>> 0);
	return value.toString(16).padStart(14, '0');
}

/** The service and account of the credential in use (checked like every request checks it). */
export async function serviceIdentity(ctx: IPollFunctions): Promise<TrackerIdentity> {
	const info = await credentialInfo.call(ctx);
	const credentials = await ctx.getCredentials(info.type);
	if (info.type === CREDENTIAL_TYPES.login) {
		const username = String(credentials.username ?? '').trim();
		return {
			service: info.baseUrl,
			account: await accountKey(String(credentials.password ?? ''), info.baseUrl, username),
			legacyAccount: `user:${username}`,
		};
	}
	const apiKey = String(credentials.apiKey ?? '').trim();
	return {
		service: info.baseUrl,
		account: await accountKey(apiKey, info.baseUrl),
		legacyAccount: `key:${fingerprint(apiKey)}`,
	};
}
