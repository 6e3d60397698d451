/**
 * The HTTP side of the fake EU Information System: routes, the served WSDL/XSD, the order of
 * the checks (throttling, size, XML, WS-Security, SOAPAction, XSD, business rules), fault
 * injection and the request log. Behaviour and sources: README.md of this folder.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { EU_WSDL_DIR, validateEuXml } from '../helpers/euXsd';
import { CONTROL_PREFIX, handleControl } from './control';
import type { CodeStyle } from './faults';
import {
	EuFault,
	echoFaultEnvelope,
	faultEnvelope,
	newRequestId,
	okEnvelope,
	styled,
} from './faults';
import type { OperationOptions } from './operations';
import { runOperation } from './operations';
import type { FakeEuUser } from './security';
import { NonceBook, checkSecurity } from './security';
import type { FakeService } from './services';
import { DDS_PATH, SERVICES } from './services';
import type { Store } from './store';
import type { El } from './xml';
import {
	BODY_NS,
	DDS_NS,
	ECHO_NS,
	SOAP_ENV_NS,
	elementChildren,
	kid,
	readDocument,
	standalone,
} from './xml';

/** 25 MB submission limit [OPREF §2.4], [VR] (whole request, README §6). */
export const MAX_MESSAGE_BYTES = 25_000_000;

export { DDS_PATH, SD_PATH, VERIFY_PATH } from './services';
export type { FakeService } from './services';
export const ECHO_PATHS = ['ws/eudr/echo', 'ws/EudrEchoService'];
export const ECHO_ACTION = 'http://ec.europa.eu/tracesnt/eudr/echo';

export interface FakeRequestLog {
	/** submitDds … getDdsByIdentifiers, testEcho, 'wsdl', or null when it could not be told. */
	operation: string | null;
	path: string;
	/** The service the path names: 'dds', 'sd', 'verify', 'echo', or null (a file, an unknown path). */
	service: FakeService | null;
	/** Lifecycle clock when the request arrived (ms since the epoch). */
	at: number;
	/** 'accepted', the first fault code (EUDR_…, SCHEMA, UNAUTHENTICATED, SOAP_ACTION, …), or `http-<status>`. */
	outcome: string;
	status: number;
	/** Request body bytes. */
	bytes: number;
	username: string | null;
	/** Why authentication failed (the answer itself says only "Authentication failed"). */
	detail?: string;
	/** The answer was processed, then the connection destroyed. */
	lost?: boolean;
}

export interface Hold {
	/** Resolves when a held answer is waiting. */
	arrived: Promise<void>;
	release(): void;
}

type Injected =
	| { kind: 'lose'; operation: string; remaining: number }
	| {
			kind: 'status';
			operation: string;
			remaining: number;
			status: number;
			html: boolean;
			retryAfter?: string;
	  }
	| {
			kind: 'hold';
			operation: string;
			remaining: number;
			arrive: () => void;
			released: Promise<void>;
	  };

export interface FakeEuFaults {
	/** The next `count` calls of `operation` ('*' = any) are processed, then their connection destroyed (no answer). */
	loseAnswers(operation: string, count?: number): void;
	/**
	 * The next `count` calls of `operation` get this HTTP status (500, 502, 503, 429 …)
	 * unprocessed, as plain text or an HTML page, with a Retry-After header when given.
	 */
	failNext(
		operation: string,
		o?: { count?: number; status?: number; html?: boolean; retryAfter?: string },
	): void;
	/** The next call of `operation` is processed and its answer held until `release()`. */
	hold(operation: string): Hold;
	/** Removes every injected fault. */
	clear(): void;
}

export interface ServerConfig {
	users: FakeEuUser[];
	store: Store;
	lifecycleNow: () => number;
	securityNow: () => number;
	rateNow: () => number;
	/** Length of the throttling window (default 900 ms: tolerates 100 ms of network jitter against a client that keeps 5 starts per 1000 ms). */
	rateWindowMs: number;
	/** Calls started per second per client address; 0 = no limit. */
	ratePerSecond: number;
	rateLimitAs: 'http429' | 'fault';
	codeStyle: CodeStyle;
	/** Check the SOAPAction header against the WSDL. */
	checkSoapAction: boolean;
	operations: OperationOptions;
	/** Moves the lifecycle clock (control API). */
	advance: (ms: number) => void;
	/** Sets the lagging lookups (control API). */
	setLookupLag: (lag: { lookups?: number; ms?: number }) => void;
}

/** `?wsdl`, `?wsdl=N`, `?xsd=N` of each service, from the pack's catalog.xml. */
function servedFiles(): Map<string, string> {
	const out = new Map<string, string>();
	const catalog = readFileSync(join(EU_WSDL_DIR, 'catalog.xml'), 'utf8');
	for (const m of catalog.matchAll(
		/<system\s+systemId="[^"]*\/tracesnt\/([^"]+)"\s+uri="([^"]+)"\s*\/>/g,
	))
		out.set(m[1].replace(/&amp;/g, '&'), m[2]);
	out.set(
		`${DDS_PATH}?wsdl`,
		'EUDRDueDiligenceStatementServiceV3/EUDRDueDiligenceStatementServiceV3.wsdl',
	);
	out.set(
		'ws/EUDRSimplifiedDeclarationServiceV3?wsdl',
		'EUDRSimplifiedDeclarationServiceV3/EUDRSimplifiedDeclarationServiceV3.wsdl',
	);
	out.set(
		'ws/EUDRVerifyDeclarationServiceV3?wsdl',
		'EUDRVerifyDeclarationServiceV3/EUDRVerifyDeclarationServiceV3.wsdl',
	);
	for (const p of ECHO_PATHS) out.set(`${p}?wsdl`, 'EudrEchoService/EudrEchoService.wsdl');
	return out;
}

const HTML_PAGE = (status: number) =>
	`<!DOCTYPE html><html><head><title>${status} Error</title></head><body><h1>Service unavailable</h1><p>The server encountered a temporary error (fake EU Information System, status ${status}).</p></body></html>`;

export class FakeEuServer {
	readonly log: FakeRequestLog[] = [];
	private injected: Injected[] = [];
	private readonly nonces = new NonceBook();
	private readonly calls = new Map<string, number[]>();
	private readonly files = servedFiles();

	constructor(private readonly c: ServerConfig) {}

	readonly faults: FakeEuFaults = {
		loseAnswers: (operation, count = 1) => {
			this.injected.push({ kind: 'lose', operation, remaining: count });
		},
		failNext: (operation, o = {}) => {
			this.injected.push({
				kind: 'status',
				operation,
				remaining: o.count ?? 1,
				status: o.status ?? 503,
				html: o.html ?? false,
				retryAfter: o.retryAfter,
			});
		},
		hold: (operation) => {
			let arrive = () => undefined as void;
			let release = () => undefined as void;
			const arrived = new Promise<void>((r) => (arrive = r));
			const released = new Promise<void>((r) => (release = r));
			this.injected.push({ kind: 'hold', operation, remaining: 1, arrive, released });
			return { arrived, release };
		},
		clear: () => {
			this.injected = [];
		},
	};

	private take(kind: Injected['kind'], operation: string | null): Injected | undefined {
		const found = this.injected.find(
			(f) =>
				f.kind === kind && f.remaining > 0 && (f.operation === '*' || f.operation === operation),
		);
		if (!found) return undefined;
		found.remaining -= 1;
		if (found.remaining <= 0) this.injected = this.injected.filter((f) => f !== found);
		return found;
	}

	async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', 'http://fake');
		if (url.pathname.startsWith(CONTROL_PREFIX))
			return handleControl(req, res, url, {
				store: this.c.store,
				lifecycleNow: this.c.lifecycleNow,
				advance: this.c.advance,
				setLookupLag: this.c.setLookupLag,
				log: () => this.log,
			});
		const prefix = '/tracesnt/';
		const path = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : null;
		if (req.method === 'GET' && path !== null) return this.serveFile(path, url.search, res);
		const def = SERVICES.find((d) => d.path === path);
		const isEcho = path !== null && ECHO_PATHS.includes(path);
		if (req.method !== 'POST' || (!def && !isEcho)) {
			res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
			this.log.push({
				operation: null,
				path: url.pathname,
				service: null,
				at: this.c.lifecycleNow(),
				outcome: 'http-404',
				status: 404,
				bytes: 0,
				username: null,
			});
			return;
		}
		const entry: FakeRequestLog = {
			operation: null,
			path: url.pathname,
			service: def ? def.service : 'echo',
			at: this.c.lifecycleNow(),
			outcome: 'accepted',
			status: 200,
			bytes: 0,
			username: null,
		};
		this.log.push(entry);
		const requestId = newRequestId();
		const send = async (status: number, text: string, contentType = 'text/xml; charset=utf-8') => {
			entry.status = status;
			const lose = this.take('lose', entry.operation);
			if (lose) {
				entry.lost = true;
				req.socket.destroy();
				return;
			}
			const hold = this.take('hold', entry.operation);
			if (hold && hold.kind === 'hold') {
				hold.arrive();
				await hold.released;
			}
			res
				.writeHead(status, {
					'content-type': contentType,
					'content-length': Buffer.byteLength(text),
				})
				.end(text);
		};
		const fault = (f: EuFault, outcome = f.code) => {
			entry.outcome = styled(outcome, this.c.codeStyle);
			return send(
				500,
				faultEnvelope(
					f,
					requestId,
					new Date(this.c.lifecycleNow()),
					this.c.codeStyle,
					def?.ns ?? DDS_NS,
				),
			);
		};

		// throttling, per client address, before anything else [OPREF §2.3.2]
		if (this.throttled(req.socket.remoteAddress ?? '?')) {
			await drain(req);
			if (this.c.rateLimitAs === 'fault')
				return fault(
					new EuFault(
						'BusinessRulesValidationException',
						`Too many requests: at most ${this.c.ratePerSecond} calls per second`,
						[
							{
								id: 'EUDR_API_TOO_MANY_REQUESTS',
								message: `At most ${this.c.ratePerSecond} calls per second per client`,
								field: '',
							},
						],
					),
				);
			entry.outcome = 'http-429';
			entry.status = 429;
			res
				.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '1' })
				.end('Too Many Requests');
			return;
		}
		const body = await readBody(req, MAX_MESSAGE_BYTES);
		entry.bytes = body.bytes;
		if (body.text === null)
			return fault(
				new EuFault('BusinessRulesValidationException', 'The message is larger than 25 MB', [
					{
						id: 'EUDR_MAXIMUM_GEO_SIZE_REACHED',
						message: 'The message exceeds the 25 MB limit',
						field: '',
					},
				]),
			);
		const envelope = readDocument(body.text);
		if (typeof envelope === 'string')
			return fault(
				new EuFault(null, `Couldn't create SOAP message due to exception: ${envelope}`),
				'NOT_XML',
			);
		const soapBody =
			envelope.localName === 'Envelope' && envelope.namespaceURI === SOAP_ENV_NS
				? kid(envelope, SOAP_ENV_NS, 'Body')
				: undefined;
		const operationEl = soapBody ? elementChildren(soapBody)[0] : undefined;
		if (!soapBody || !operationEl)
			return fault(new EuFault(null, 'Not a SOAP 1.1 envelope with a Body element'), 'NOT_SOAP');
		const header = kid(envelope, SOAP_ENV_NS, 'Header');

		const found =
			isEcho || !def
				? undefined
				: Object.entries(def.operations).find(
						([, o]) => operationEl.localName === o.request && operationEl.namespaceURI === def.ns,
					);
		const operation = isEcho ? 'testEcho' : found?.[0];
		entry.operation = operation ?? null;
		const injected = this.take('status', entry.operation);
		if (injected && injected.kind === 'status') {
			entry.outcome = `http-${injected.status}`;
			entry.status = injected.status;
			const text = injected.html ? HTML_PAGE(injected.status) : `${injected.status} Service Error`;
			res
				.writeHead(injected.status, {
					'content-type': injected.html ? 'text/html' : 'text/plain',
					...(injected.retryAfter === undefined ? {} : { 'retry-after': injected.retryAfter }),
				})
				.end(text);
			return;
		}
		if (isEcho || !def) return this.echo(entry, header, operationEl, req, send);
		const security = checkSecurity(header, this.c.users, this.c.securityNow(), this.nonces);
		if (!security.ok) {
			entry.detail = security.reason;
			return fault(
				new EuFault('UnauthenticatedException', 'UnauthenticatedException', [
					{ id: 'UNAUTHENTICATED', message: 'Authentication failed', field: '' },
				]),
				'UNAUTHENTICATED',
			);
		}
		entry.username = security.user.username;
		const action = soapAction(req);
		if (!operation || !found)
			return fault(
				new EuFault(
					null,
					`Cannot find dispatch method for {${operationEl.namespaceURI ?? ''}}${operationEl.localName}`,
				),
				'NO_OPERATION',
			);
		const expected = found[1].action;
		if (this.c.checkSoapAction && action !== expected)
			return fault(
				new EuFault(
					null,
					`The SOAPAction ${JSON.stringify(action)} does not match the operation ${operation} (expected ${expected})`,
				),
				'SOAP_ACTION',
			);
		const identity = header ? kid(header, BODY_NS, 'BodyIdentity') : undefined;
		// strict, like the SOAPAction: a header the service's WSDL does not bind is refused, so
		// that a client sending it is noticed (a real server might ignore it, UNCERTAIN)
		if (identity && !def.bodyIdentity)
			return fault(
				new EuFault(
					null,
					`The ${def.path} service has no BodyIdentity header (its WSDL binds none)`,
				),
				'BODY_IDENTITY',
			);
		if (identity) {
			const checked = await validateEuXml(standalone(identity), 'headers');
			if (!checked.valid) {
				entry.detail = checked.errors.join('\n');
				const first = (checked.errors[0] ?? 'invalid').replace(/^[^:]*\.xml:\d+:\s*/, '');
				return fault(new EuFault(null, `Unmarshalling Error: ${first}`), 'SCHEMA');
			}
		}
		const xsd = await validateEuXml(standalone(operationEl), def.schema);
		if (!xsd.valid) {
			const first = (xsd.errors[0] ?? 'invalid').replace(/^[^:]*\.xml:\d+:\s*/, '');
			entry.detail = xsd.errors.join('\n');
			return fault(new EuFault(null, `Unmarshalling Error: ${first}`), 'SCHEMA');
		}
		const answer = runOperation(found[1], operationEl, {
			user: security.user,
			now: this.c.lifecycleNow(),
			store: this.c.store,
			options: this.c.operations,
		});
		if (answer instanceof EuFault) return fault(answer);
		return send(200, okEnvelope(answer, requestId, new Date(this.c.lifecycleNow())));
	}

	private async echo(
		entry: FakeRequestLog,
		header: El | undefined,
		operationEl: El,
		req: IncomingMessage,
		send: (status: number, text: string) => Promise<void>,
	): Promise<void> {
		entry.operation = 'testEcho';
		const security = checkSecurity(header, this.c.users, this.c.securityNow(), this.nonces);
		if (!security.ok) {
			entry.outcome = 'UNAUTHENTICATED';
			entry.detail = security.reason;
			return send(500, echoFaultEnvelope('Authentication failed'));
		}
		entry.username = security.user.username;
		const action = soapAction(req);
		if (this.c.checkSoapAction && action !== ECHO_ACTION) {
			entry.outcome = 'SOAP_ACTION';
			return send(500, echoFaultEnvelope(`The SOAPAction must be ${ECHO_ACTION}`));
		}
		const query = elementChildren(operationEl).filter(
			(c) => c.localName === 'query' && (c.namespaceURI === ECHO_NS || !c.namespaceURI),
		);
		if (
			operationEl.localName !== 'EudrEchoRequest' ||
			operationEl.namespaceURI !== ECHO_NS ||
			query.length !== 1
		) {
			entry.outcome = 'SCHEMA';
			return send(500, echoFaultEnvelope('Expected an EudrEchoRequest with one query'));
		}
		return send(
			200,
			`<S:Envelope xmlns:S="${SOAP_ENV_NS}"><S:Body><ns2:EudrEchoResponse xmlns:ns2="${ECHO_NS}"><ns2:status>OK</ns2:status></ns2:EudrEchoResponse></S:Body></S:Envelope>`,
		);
	}

	private serveFile(path: string, search: string, res: ServerResponse): void {
		const relative = this.files.get(`${path}${search}`);
		if (!relative) {
			res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
			return;
		}
		res
			.writeHead(200, { 'content-type': 'text/xml;charset=utf-8' })
			.end(readFileSync(join(EU_WSDL_DIR, relative)));
		this.log.push({
			operation: 'wsdl',
			path: `/tracesnt/${path}${search}`,
			service: null,
			at: this.c.lifecycleNow(),
			outcome: 'accepted',
			status: 200,
			bytes: 0,
			username: null,
		});
	}

	private throttled(client: string): boolean {
		if (!this.c.ratePerSecond) return false;
		const now = this.c.rateNow();
		const recent = (this.calls.get(client) ?? []).filter((t) => t > now - this.c.rateWindowMs);
		const over = recent.length >= this.c.ratePerSecond;
		if (!over) recent.push(now);
		this.calls.set(client, recent);
		return over;
	}
}

function soapAction(req: IncomingMessage): string | null {
	const raw = req.headers.soapaction;
	const value = Array.isArray(raw) ? raw[0] : raw;
	return value === undefined ? null : value.trim().replace(/^"(.*)"$/, '$1');
}

async function drain(req: IncomingMessage): Promise<void> {
	for await (const chunk of req) void chunk;
}

/** The body as text, or null when it is over `limit` bytes (the rest is read and dropped). */
async function readBody(
	req: IncomingMessage,
	limit: number,
): Promise<{ text: string | null; bytes: number }> {
	const chunks: Buffer[] = [];
	let bytes = 0;
	for await (const chunk of req as AsyncIterable<Buffer>) {
		bytes += chunk.length;
		if (bytes <= limit) chunks.push(chunk);
	}
	return { text: bytes > limit ? null : Buffer.concat(chunks).toString('utf8'), bytes };
}
