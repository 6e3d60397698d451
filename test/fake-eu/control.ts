/**
 * The fake's control API over HTTP (JSON), for a test harness in another process (the e2e's
 * n8n drives the fake started by cli.ts): list the statements, change a status, send a
 * communication to the operator, move the lifecycle clock, read the request log. It lives
 * under `/__fake-eu/` on the fake's own server, outside `/tracesnt/` (no EU path looks like
 * it); it is neither throttled nor logged. Described in README.md ("Control API").
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FakeRequestLog } from './server';
import type { FakeStatement, Store } from './store';
import { UnknownStatement } from './store';

export const CONTROL_PREFIX = '/__fake-eu/';
/** A control request body is small JSON: more is refused (413) unread. */
export const MAX_CONTROL_BODY_BYTES = 64 * 1024;

export interface FakeEuEvents {
	/** Status change made by the EU side (REJECTED with reason, ARCHIVED, SUSPENDED, OBSOLETE, any string). */
	setStatus(uuid: string, status: string, o?: { reason?: string }): void;
	/** A communicationToOperator {date: lifecycle now, content}. */
	communicate(uuid: string, content: string): void;
}

export interface ControlDeps {
	store: Store;
	lifecycleNow: () => number;
	advance: (ms: number) => void;
	setLookupLag: (lag: { lookups?: number; ms?: number }) => void;
	log: () => FakeRequestLog[];
}

/** The in-process events, on the lifecycle clock. */
export function eventsOf(d: Pick<ControlDeps, 'store' | 'lifecycleNow'>): FakeEuEvents {
	return {
		setStatus: (uuid, status, o = {}) => {
			d.store.setStatus(uuid, status, d.lifecycleNow(), o.reason);
		},
		communicate: (uuid, content) => {
			d.store.communicate(uuid, content, d.lifecycleNow());
		},
	};
}

/** One statement as the control API shows it. */
export interface ControlStatement {
	uuid: string;
	kind: 'dds' | 'sd';
	internalReferenceNumber: string;
	status: string;
	referenceNumber: string | null;
	verificationNumber: string | null;
	version: number;
	operator: string;
	rejectionReason: string | null;
	communication: { date: string; content: string } | null;
	/** The overview's `date` (last change, lifecycle clock), ISO 8601. */
	updatedAt: string;
}

export function controlStatement(s: FakeStatement): ControlStatement {
	return {
		uuid: s.uuid,
		kind: s.kind,
		internalReferenceNumber: s.internalReferenceNumber,
		status: s.status,
		referenceNumber: s.referenceNumber,
		verificationNumber: s.verificationNumber,
		version: s.version,
		operator: s.operator,
		rejectionReason: s.rejectionReason,
		communication: s.communication
			? { date: new Date(s.communication.date).toISOString(), content: s.communication.content }
			: null,
		updatedAt: new Date(s.updatedAt).toISOString(),
	};
}

/** One request of the log as the control API shows it. */
export interface ControlLogEntry {
	/** Position in the log (0 = first request): `GET log?since=<index>` answers from there on. */
	index: number;
	operation: string | null;
	service: string | null;
	/** Lifecycle clock when the request arrived, ISO 8601. */
	at: string;
	status: number;
	outcome: string;
	username: string | null;
	lost: boolean;
}

class Refusal extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message);
	}
}

function reply(res: ServerResponse, status: number, value: unknown): void {
	const text = JSON.stringify(value);
	res
		.writeHead(status, {
			'content-type': 'application/json; charset=utf-8',
			'content-length': Buffer.byteLength(text),
		})
		.end(text);
}

const NOT_JSON = Symbol('not JSON');
function parseJson(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return NOT_JSON;
	}
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
	const declared = Number(req.headers['content-length'] ?? 0);
	if (declared > MAX_CONTROL_BODY_BYTES) throw new Refusal(413, 'The body is too large');
	const chunks: Buffer[] = [];
	let bytes = 0;
	for await (const chunk of req as AsyncIterable<Buffer>) {
		bytes += chunk.length;
		if (bytes > MAX_CONTROL_BODY_BYTES) throw new Refusal(413, 'The body is too large');
		chunks.push(chunk);
	}
	const text = Buffer.concat(chunks).toString('utf8').trim();
	if (!text) return {};
	const value = parseJson(text);
	if (value === NOT_JSON) throw new Refusal(400, 'The body is not JSON');
	if (typeof value !== 'object' || value === null || Array.isArray(value))
		throw new Refusal(400, 'The body must be a JSON object');
	return value as Record<string, unknown>;
}

function stringField(body: Record<string, unknown>, name: string, required: boolean) {
	const value = body[name];
	if (value === undefined || value === null) {
		if (required) throw new Refusal(400, `"${name}" is required`);
		return undefined;
	}
	if (typeof value !== 'string') throw new Refusal(400, `"${name}" must be a string`);
	return value;
}

/** Answers a request under CONTROL_PREFIX. */
export async function handleControl(
	req: IncomingMessage,
	res: ServerResponse,
	url: URL,
	d: ControlDeps,
): Promise<void> {
	const path = url.pathname;
	const query = url.searchParams;
	try {
		const parts = path.slice(CONTROL_PREFIX.length).split('/').filter(Boolean);
		const route = `${req.method ?? ''} ${parts.map((p, i) => (parts[0] === 'statements' && i === 1 ? ':uuid' : p)).join('/')}`;
		const now = d.lifecycleNow();
		switch (route) {
			case 'GET statements':
				return reply(res, 200, d.store.list(now).map(controlStatement));
			case 'POST statements/:uuid/status': {
				const body = await readJson(req);
				const status = stringField(body, 'status', true) as string;
				if (!status.trim()) throw new Refusal(400, '"status" must not be empty');
				const reason = stringField(body, 'reason', false);
				const s = d.store.setStatus(decodeURIComponent(parts[1]), status.trim(), now, reason);
				return reply(res, 200, controlStatement(s));
			}
			case 'POST statements/:uuid/communication': {
				const body = await readJson(req);
				const content = stringField(body, 'content', true) as string;
				const s = d.store.communicate(decodeURIComponent(parts[1]), content, now);
				return reply(res, 200, controlStatement(s));
			}
			case 'POST clock/advance': {
				const body = await readJson(req);
				const ms = body.ms;
				if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0)
					throw new Refusal(400, '"ms" must be a number ≥ 0');
				d.advance(ms);
				return reply(res, 200, { now: new Date(d.lifecycleNow()).toISOString() });
			}
			case 'POST lookup-lag': {
				const body = await readJson(req);
				const count = (name: string) => {
					const v = body[name] ?? 0;
					if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
						throw new Refusal(400, `"${name}" must be a whole number ≥ 0`);
					return v;
				};
				const lag = { lookups: count('lookups'), ms: count('ms') };
				d.setLookupLag(lag);
				return reply(res, 200, lag);
			}
			case 'GET clock':
				return reply(res, 200, { now: new Date(now).toISOString() });
			case 'GET log': {
				const since = query.get('since');
				if (since !== null && !/^\d+$/.test(since))
					throw new Refusal(400, '"since" must be a whole number (an index of the log)');
				const from = since === null ? 0 : Number(since);
				return reply(
					res,
					200,
					d
						.log()
						.slice(from)
						.map(
							(e, i): ControlLogEntry => ({
								index: from + i,
								operation: e.operation,
								service: e.service,
								at: new Date(e.at).toISOString(),
								status: e.status,
								outcome: e.outcome,
								username: e.username,
								lost: e.lost ?? false,
							}),
						),
				);
			}
			default:
				throw new Refusal(404, `No control route ${route}`);
		}
	} catch (error) {
		if (!res.headersSent) {
			if (error instanceof Refusal) return reply(res, error.status, { error: error.message });
			if (error instanceof UnknownStatement) return reply(res, 404, { error: error.message });
			return reply(res, 400, { error: error instanceof Error ? error.message : String(error) });
		}
		res.end();
	}
}
