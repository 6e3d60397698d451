const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * Finds the JWT in a login answer. The service documents `{"token": "<JWT>"}`; we also
 * accept another single string field, a bare JSON string, or a string that parses as either.
 */
export function extractJwt(body: unknown): string | undefined {
	if (typeof body === 'string') {
		const trimmed = body.trim();
		if (trimmed.startsWith('{') || trimmed.startsWith('"')) {
			try {
				return extractJwt(JSON.parse(trimmed));
			} catch {
				return undefined;
			}
		}
		return trimmed.length > 0 ? trimmed : undefined;
	}
	if (body && typeof body === 'object' && !Array.isArray(body)) {
		const record = body as Record<string, unknown>;
		for (const key of ['token', 'jwt', 'access_token', 'accessToken', 'id_token']) {
			if (typeof record[key] === 'string' && record[key]) return record[key] as string;
		}
		const strings = Object.values(record).filter((v): v is string => typeof v === 'string');
		const jwt = strings.find((s) => JWT_SHAPE.test(s));
		if (jwt) return jwt;
		if (strings.length === 1) return strings[0];
	}
	return undefined;
}
