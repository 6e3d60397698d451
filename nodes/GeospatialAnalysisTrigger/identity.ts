/**
 * Where the trigger's jobs come from: the service (the credential's base URL) and the account
 * on it, read from the credential at every poll, so that the trigger notices an edited
 * credential (completionTracker.ts says what it does then). The account is the user name of
 * the login credential, or a short fingerprint of the API key: never the key itself.
 */
import type { IPollFunctions } from 'n8n-workflow';

import { CREDENTIAL_TYPES, credentialInfo } from '../shared/transport/request';
import type { TrackerIdentity } from './completionTracker';

/**
 * A 53-bit fingerprint of a text (cyrb53), as 14 hex digits: tells two API keys apart without
 * keeping anything a key could be read back from.
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
	const account =
		info.type === CREDENTIAL_TYPES.login
			? `user:${String(credentials.username ?? '').trim()}`
			: `key:${fingerprint(String(credentials.apiKey ?? '').trim())}`;
	return { service: info.baseUrl, account };
}
