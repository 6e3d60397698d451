/**
 * WS-Security checks of the fake (pack README §3): UsernameToken with PasswordDigest =
 * Base64(SHA-1(raw nonce bytes ‖ Created ‖ Authentication Key)), a wsu:Timestamp whose Created
 * is the same string as the token's, Created within 5 minutes of the fake's security clock
 * [OPREF §3.9], Expires not passed, no nonce replayed within its validity, and the
 * WebServiceClientId header equal to the user's client id [SPEC §3.2.2], [OPREF §1.2.3].
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { El } from './xml';
import {
	BASE_NS,
	BODY_NS,
	PASSWORD_DIGEST_TYPE,
	WSSE_NS,
	WSU_NS,
	elementChildren,
	kid,
	kidText,
	kids,
} from './xml';

export interface FakeEuUser {
	username: string;
	key: string;
	clientId: string;
	/** The operator the user belongs to (business rules of README §6 "Operators and identifiers"). */
	operator: {
		name: string;
		hasEori: boolean;
		euEstablished: boolean;
		/** Activity types the profile allows (default all three; pack §9, [VR]). */
		activities?: string[];
		/** An SME: getDdsByIdentifiers / getSdByIdentifiers are refused (non-SME operators only, pack §9 [W-DDS], [W-SD]). */
		sme?: boolean;
		/** The SD roles the profile allows (default all three of SdOperatorRoleType; pack §9). */
		sdRoles?: string[];
		/** false: verifyDeclaration is refused with a PermissionDeniedException (default allowed, pack §9). */
		mayVerify?: boolean;
	};
	/** BodyIdentity identifiers this user may present; undefined = any (pack §3.1). */
	accessIdentifiers?: string[];
}

/** The pack's formula, written here from README §3 (not imported from the node). */
export function digestOf(nonce: Buffer, created: string, key: string): string {
	return createHash('sha1')
		.update(Buffer.concat([nonce, Buffer.from(created, 'utf8'), Buffer.from(key, 'utf8')]))
		.digest('base64');
}

/** Allowed distance between wsu:Created and the fake's security clock [OPREF §3.9]. */
export const CLOCK_SKEW_MS = 5 * 60_000;

export type SecurityResult = { ok: true; user: FakeEuUser } | { ok: false; reason: string };

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export class NonceBook {
	private readonly seen = new Map<string, number>();
	/** True when the nonce was already seen and is still remembered. */
	replayed(nonce: string, now: number, keepUntil: number): boolean {
		for (const [n, until] of this.seen) if (until < now) this.seen.delete(n);
		if (this.seen.has(nonce)) return true;
		this.seen.set(nonce, keepUntil);
		return false;
	}
}

export function checkSecurity(
	header: El | undefined,
	users: readonly FakeEuUser[],
	now: number,
	nonces: NonceBook,
): SecurityResult {
	const fail = (reason: string): SecurityResult => ({ ok: false, reason });
	const security = kid(header, WSSE_NS, 'Security');
	if (!security) return fail('no wsse:Security header');
	const timestamp = kid(security, WSU_NS, 'Timestamp');
	const token = kid(security, WSSE_NS, 'UsernameToken');
	if (!timestamp) return fail('no wsu:Timestamp');
	if (!token) return fail('no wsse:UsernameToken');
	const tsCreated = kidText(timestamp, WSU_NS, 'Created')?.trim();
	const tsExpires = kidText(timestamp, WSU_NS, 'Expires')?.trim();
	const username = kidText(token, WSSE_NS, 'Username')?.trim();
	const passwordEl = kid(token, WSSE_NS, 'Password');
	const nonceText = kidText(token, WSSE_NS, 'Nonce')?.trim();
	const created = kidText(token, WSU_NS, 'Created')?.trim();
	if (!tsCreated || !ISO.test(tsCreated))
		return fail('wsu:Timestamp/wsu:Created missing or not a dateTime');
	if (tsExpires !== undefined && !ISO.test(tsExpires)) return fail('wsu:Expires is not a dateTime');
	if (!username || !passwordEl || !nonceText || !created)
		return fail('UsernameToken lacks Username, Password, Nonce or Created');
	if (passwordEl.getAttribute('Type') !== PASSWORD_DIGEST_TYPE)
		return fail('the password is not a PasswordDigest');
	if (created !== tsCreated)
		return fail('Created differs between the Timestamp and the UsernameToken');
	const createdMs = Date.parse(created);
	if (Math.abs(createdMs - now) > CLOCK_SKEW_MS)
		return fail('Created is more than 5 minutes from the server time');
	const expiresMs = tsExpires ? Date.parse(tsExpires) : createdMs + CLOCK_SKEW_MS;
	if (expiresMs <= now) return fail('the Timestamp has expired');
	if (expiresMs < createdMs) return fail('Expires is before Created');
	const user = users.find((u) => u.username === username);
	if (!user) return fail('unknown user');
	if (!/^[A-Za-z0-9+/]+={0,2}$/.test(nonceText)) return fail('the nonce is not Base64');
	const nonce = Buffer.from(nonceText, 'base64');
	const expected = Buffer.from(digestOf(nonce, created, user.key));
	const given = Buffer.from((passwordEl.textContent ?? '').trim());
	if (expected.length !== given.length || !timingSafeEqual(expected, given))
		return fail('wrong password digest');
	if (
		nonces.replayed(nonceText, now, Math.max(expiresMs, createdMs + CLOCK_SKEW_MS) + CLOCK_SKEW_MS)
	)
		return fail('nonce replayed');
	const clientIds = kids(header as El, BASE_NS, 'WebServiceClientId');
	if (clientIds.length !== 1 || (clientIds[0].textContent ?? '').trim() !== user.clientId)
		return fail('WebServiceClientId does not match the user');
	// a bogus BodyIdentity is rejected with an UnauthenticatedException [3P] (pack §3.1)
	const identity = kid(header, BODY_NS, 'BodyIdentity');
	const presented = identity
		? elementChildren(identity).map((c) => (c.textContent ?? '').trim())
		: [];
	if (
		identity &&
		user.accessIdentifiers &&
		!presented.some((id) => user.accessIdentifiers?.includes(id))
	)
		return fail('BodyIdentity names an identifier the user does not have');
	return { ok: true, user };
}
