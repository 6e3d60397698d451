/**
 * The account value a trigger stores in the workflow's static data to notice an edited
 * credential (another key, user or password on the same service).
 *
 * Static data can be read by whoever can read or export the workflow. So the value is a keyed,
 * slow hash whose key is the credential's secret, which n8n keeps encrypted in its credential
 * store and never exports with the workflow: scrypt of the secret with a label of the trigger,
 * the base URL and the user name as salt. Neither the secret nor the user name can be read back
 * from it; testing a guess costs a memory-hard scrypt (N = 2^14, r = 8: ~16 MB and tens of
 * milliseconds) rather than a fast hash; a changed secret, user name or base URL changes it.
 */
import { createHmac, randomBytes, scrypt } from 'node:crypto';

/** The prefix of account values (`a2:` + 32 hex digits). */
export const ACCOUNT_PREFIX = 'a2:';

/** The Geospatial Analysis Trigger's label (what its stored values were made with). */
export const GEOSPATIAL_ACCOUNT_LABEL = 'n8n-nodes-geospatial-analysis/trigger-account/v2';

const SCRYPT = { N: 1 << 14, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/**
 * Derived values of this process, so that a poll pays for scrypt only when the credential
 * changed. Keyed by an HMAC under a key drawn when the process starts: the secrets are not
 * kept here, and nothing of this leaves the process.
 */
const processKey = randomBytes(32);
const derived = new Map<string, Promise<string>>();
const MAX_DERIVED = 32;

function scryptHex(secret: string, salt: string): Promise<string> {
	return new Promise((resolve, reject) => {
		scrypt(secret, salt, 16, SCRYPT, (error, key) =>
			error ? reject(error) : resolve(key.toString('hex')),
		);
	});
}

/**
 * The account value stored for a secret on a service (and a user name): `a2:` and 32 hex digits
 * of scrypt(secret, label + base URL + user name).
 */
export async function accountKey(
	secret: string,
	baseUrl: string,
	username = '',
	label = GEOSPATIAL_ACCOUNT_LABEL,
): Promise<string> {
	const salt = JSON.stringify([label, baseUrl, username]);
	const cacheKey = createHmac('sha256', processKey)
		.update(salt)
		.update('\0')
		.update(secret)
		.digest('hex');
	let value = derived.get(cacheKey);
	if (!value) {
		value = scryptHex(secret, salt);
		derived.set(cacheKey, value);
		value.catch(() => derived.get(cacheKey) === value && derived.delete(cacheKey));
		if (derived.size > MAX_DERIVED) derived.delete(derived.keys().next().value!);
	}
	return `${ACCOUNT_PREFIX}${await value}`;
}
