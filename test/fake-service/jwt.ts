/**
 * HS256 JWTs signed and verified with jose. jose 6 is ESM-only; jest's CommonJS
 * runtime cannot load it through its own `require`, so we load it through Node's
 * native require (Node >= 20.19 can require ES modules).
 */
import { randomBytes } from 'crypto';

/** The part of jose's SignJWT builder the fake uses (each setter returns the builder). */
interface JwtBuilder {
	setProtectedHeader(h: { alg: string; typ?: string }): JwtBuilder;
	setSubject(sub: string): JwtBuilder;
	setIssuer(iss: string): JwtBuilder;
	setIssuedAt(iat: number): JwtBuilder;
	setExpirationTime(exp: number): JwtBuilder;
	sign(key: Uint8Array): Promise<string>;
}

interface JoseLike {
	SignJWT: new (payload: Record<string, unknown>) => JwtBuilder;
	jwtVerify(
		token: string,
		key: Uint8Array,
		opts: { algorithms: string[]; currentDate: Date; issuer?: string },
	): Promise<{ payload: Record<string, unknown> }>;
}

let cached: JoseLike | undefined;
function loadJose(): JoseLike {
	if (cached) return cached;
	const getBuiltin = (
		process as unknown as { getBuiltinModule?: (id: 'module') => typeof import('module') }
	).getBuiltinModule;
	if (getBuiltin) {
		const nativeRequire = getBuiltin('module').createRequire(__filename);
		cached = nativeRequire('jose') as JoseLike;
	} else {
		cached = require('jose') as JoseLike;
	}
	return cached;
}

export const JWT_ISSUER = 'geospatial-analysis-fake';

export class JwtIssuer {
	private readonly key = new Uint8Array(randomBytes(32));

	constructor(private readonly lifetimeSeconds: number) {}

	async sign(username: string, now: Date): Promise<string> {
		const jose = loadJose();
		const iat = Math.floor(now.getTime() / 1000);
		const builder = new jose.SignJWT({ sub: username, roles: [] as string[] }).setProtectedHeader({
			alg: 'HS256',
			typ: 'JWT',
		});
		return builder
			.setSubject(username)
			.setIssuer(JWT_ISSUER)
			.setIssuedAt(iat)
			.setExpirationTime(iat + this.lifetimeSeconds)
			.sign(this.key);
	}

	/** Returns the username, or undefined when the token is invalid or expired (per the fake clock). */
	async verify(token: string, now: Date): Promise<string | undefined> {
		try {
			const { payload } = await loadJose().jwtVerify(token, this.key, {
				algorithms: ['HS256'],
				currentDate: now,
				issuer: JWT_ISSUER,
			});
			return typeof payload.sub === 'string' ? payload.sub : undefined;
		} catch {
			return undefined;
		}
	}
}
