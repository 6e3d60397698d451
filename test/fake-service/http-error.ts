/** Errors that carry their exact HTTP response. */
export type BodyKind = 'json' | 'plain-string' | 'text';

export class HttpError extends Error {
	constructor(
		public readonly status: number,
		public readonly body: unknown,
		/** json: serialise body; plain-string: a bare string message with a JSON content type; text: text/plain */
		public readonly kind: BodyKind = 'json',
		public readonly headers: Record<string, string> = {},
	) {
		super(typeof body === 'string' ? body : JSON.stringify(body));
	}
}

/** Default body: {code: <int>, message}. */
export const apiError = (status: number, message: string, headers?: Record<string, string>) =>
	new HttpError(status, { code: status, message }, 'json', headers);

/** Pagination errors: code is a string. */
export const cursorError = (message: string) => new HttpError(400, { code: '400', message });

export const plainStringError = (status: number, message: string) =>
	new HttpError(status, message, 'plain-string');

export const STATUS_TEXT: Record<number, string> = {
	400: 'Bad Request',
	401: 'Unauthorized',
	403: 'Forbidden',
	404: 'Not Found',
	405: 'Method Not Allowed',
	406: 'Not Acceptable',
	415: 'Unsupported Media Type',
	429: 'Too Many Requests',
	500: 'Internal Server Error',
	502: 'Bad Gateway',
	503: 'Service Unavailable',
	504: 'Gateway Timeout',
};

export const httpStatusError = (status: number) =>
	apiError(status, `HTTP ${status} ${STATUS_TEXT[status] ?? 'Error'}`);

export const badRequest = (message: string) => apiError(400, message);
export const unknownProperty = (name: string) =>
	badRequest(`Unable to process JSON: Unknown property: ${name}`);
export const notFound = () => httpStatusError(404);
export const forbiddenRole = () => httpStatusError(403);
export const forbiddenEntity = () => apiError(403, 'Unauthorized access to entity retrieved');
