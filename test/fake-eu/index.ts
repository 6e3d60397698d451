/**
 * A stateful fake of the EU Information System's V3 SOAP services (DDS, SD, Verify, echo;
 * dev/test only), written from the reference pack (/work/shared/spec/eu-information-system/,
 * the WSDL/XSD in test/fixtures/eu-information-system/wsdl/), not from the node. See README.md
 * here.
 *
 *   const eu = await startFakeEu();
 *   // credential: base URL eu.url, eu.users[0].username / key / clientId
 *   eu.clock.advance(60_000); // SUBMITTED → AVAILABLE
 *   eu.events.setStatus(uuid, 'REJECTED', { reason: '…' }); // what the EU side does
 *   eu.events.communicate(uuid, 'Please send …');
 *   // from another process: the control API under /__fake-eu/ (control.ts)
 *   await eu.stop();
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeEuEvents } from './control';
import { eventsOf } from './control';
import type { CodeStyle } from './faults';
import type { LookupLag, OperationOptions } from './operations';
import { newLookupLag } from './operations';
import type { FakeEuUser } from './security';
import type { FakeEuFaults, FakeRequestLog, Hold } from './server';
import { FakeEuServer } from './server';
import type { FakeStatement } from './store';
import { Store } from './store';
import { DEFAULT_USABLE_STATUSES } from './verify';

export type { FakeEuUser } from './security';
export type { FakeEuFaults, FakeRequestLog, FakeService, Hold } from './server';
export type { FakeEuEvents, ControlStatement, ControlLogEntry } from './control';
export { CONTROL_PREFIX } from './control';
export type { FakeStatement, StatementKind } from './store';
export type { CodeStyle } from './faults';
export { digestOf } from './security';
export { MAX_MESSAGE_BYTES, DDS_PATH, SD_PATH, VERIFY_PATH, ECHO_PATHS } from './server';
export { SD_ROLES } from './sd';
export { DEFAULT_USABLE_STATUSES } from './verify';
export { AMEND_WINDOW_MS, MAX_COMMUNICATION_CHARS, UnknownStatement } from './store';

/** Default delay on the lifecycle clock before a submitted statement is decided. */
export const DEFAULT_AVAILABLE_AFTER_MS = 60_000;
/** A comment holding this marker makes the default rule reject the statement. */
export const REJECT_MARKER = 'FAKE-REJECT';

export const DEFAULT_USER: FakeEuUser = {
	username: 'fake-eu-operator',
	key: ['fake', 'eu', 'authentication', 'key', '0123456789'].join('-'),
	clientId: 'eudr-test',
	operator: { name: 'Fake Operator SA', hasEori: true, euEstablished: true },
};

/** A second web-service user of DEFAULT_USER's operator (the cli's --second-user): the same statements, another key. */
export const SECOND_USER: FakeEuUser = {
	username: 'fake-eu-operator-2',
	key: ['fake', 'eu', 'second', 'authentication', 'key', '9876543210'].join('-'),
	clientId: DEFAULT_USER.clientId,
	operator: DEFAULT_USER.operator,
};

export interface FakeEuOptions {
	port?: number;
	host?: string;
	/** Users (missing fields from DEFAULT_USER; a user without an operator gets its own operator). Default: [DEFAULT_USER]. */
	users?: Array<Partial<FakeEuUser> & { username: string }>;
	/** 'manual' (default): the lifecycle clock moves only by advance(); 'real': it follows real time (plus advances). */
	clock?: 'manual' | 'real';
	/** Lifecycle clock at start (default: now). */
	startTime?: number;
	/** SUBMITTED → AVAILABLE/REJECTED after this many ms of the lifecycle clock (default 60 000). */
	availableAfterMs?: number;
	/** A rejection reason for a statement, or undefined (default: the comment contains FAKE-REJECT). */
	reject?: OperationOptions['reject'];
	/** getDds: unknown UUIDs → NotFoundException (default false: omitted). */
	notFoundFaultOnGet?: boolean;
	/** getDdsByInternalReference: no match → NotFoundException (default false: empty list). */
	notFoundFaultOnEmptySearch?: boolean;
	/** Calls per second per client address (default 5; 0 = none). */
	ratePerSecond?: number;
	/** Throttling window in ms (default 900: a client keeping 5 starts per 1000 ms is never refused because of network jitter). */
	rateWindowMs?: number;
	/** Throttled calls answered as HTTP 429 (default) or a SOAP fault. */
	rateLimitAs?: 'http429' | 'fault';
	/** Clock of the throttling window (default: real time). Pass a fixed function for deterministic tests. */
	rateClock?: () => number;
	/** EUDR codes with underscores (default) or hyphens (EUDR-…), both seen in EU material (README §7). */
	codeStyle?: CodeStyle;
	/** Refuse a SOAPAction that does not match the WSDL (default true). */
	checkSoapAction?: boolean;
	/** verifyDeclaration: the statuses answered EXISTING_USABLE (default ['AVAILABLE'], README "Verify"). */
	verifyUsableStatuses?: string[];
	/**
	 * Lagging lookups (pack §12, README "Lagging lookups"): a new statement is left out of
	 * getDds / getDdsByInternalReference / getSd / getSdByInternalReference for its first
	 * `lookups` lookups, or for `ms` of the lifecycle clock after its submission. Default none.
	 */
	lookupLag?: { lookups?: number; ms?: number };
}

export interface FakeEu {
	/** Base URL, ends with /tracesnt/. */
	url: string;
	/** The lifecycle clock (statement states, 72-hour window). */
	clock: { now(): number; advance(ms: number): void };
	/** The WS-Security clock: real time plus a settable offset (clock-skew tests). */
	securityClock: { now(): number; setOffset(ms: number): void };
	users: FakeEuUser[];
	statements(): FakeStatement[];
	requests(): FakeRequestLog[];
	faults: FakeEuFaults;
	/**
	 * What the EU side does to a statement, on the lifecycle clock (the statement's date becomes
	 * clock.now()). An unknown uuid throws UnknownStatement.
	 */
	events: FakeEuEvents;
	/** Changes the lagging lookups (README "Lagging lookups"); `{}` turns them off. */
	setLookupLag(lag: { lookups?: number; ms?: number }): void;
	stop(): Promise<void>;
}

export type { Hold as FakeEuHold };

export async function startFakeEu(o: FakeEuOptions = {}): Promise<FakeEu> {
	const users: FakeEuUser[] = (o.users ?? [DEFAULT_USER]).map((u) => ({
		...DEFAULT_USER,
		...u,
		operator:
			u.operator ??
			(u.username === DEFAULT_USER.username
				? DEFAULT_USER.operator
				: { ...DEFAULT_USER.operator, name: `${u.username} operator` }),
	}));
	const realStart = Date.now();
	const start = o.startTime ?? realStart;
	let advanced = 0;
	const advance = (ms: number) => {
		advanced += ms;
	};
	const lifecycleNow = () => start + advanced + (o.clock === 'real' ? Date.now() - realStart : 0);
	let securityOffset = 0;
	const securityNow = () => Date.now() + securityOffset;
	const store = new Store({ availableAfterMs: o.availableAfterMs ?? DEFAULT_AVAILABLE_AFTER_MS });
	const lookupLag: LookupLag = newLookupLag(o.lookupLag?.lookups, o.lookupLag?.ms);
	const setLookupLag = (lag: { lookups?: number; ms?: number }) => {
		lookupLag.lookups = lag.lookups ?? 0;
		lookupLag.ms = lag.ms ?? 0;
	};
	const server = new FakeEuServer({
		users,
		store,
		lifecycleNow,
		securityNow,
		rateNow: o.rateClock ?? (() => Date.now()),
		ratePerSecond: o.ratePerSecond ?? 5,
		rateWindowMs: o.rateWindowMs ?? 900,
		rateLimitAs: o.rateLimitAs ?? 'http429',
		codeStyle: o.codeStyle ?? 'underscore',
		checkSoapAction: o.checkSoapAction ?? true,
		advance,
		setLookupLag,
		operations: {
			lookupLag,
			notFoundFaultOnGet: o.notFoundFaultOnGet ?? false,
			notFoundFaultOnEmptySearch: o.notFoundFaultOnEmptySearch ?? false,
			usableStatuses: o.verifyUsableStatuses ?? DEFAULT_USABLE_STATUSES,
			reject:
				o.reject ??
				(({ comment }) =>
					comment.includes(REJECT_MARKER)
						? `Rejected by the fake: the comment contains ${REJECT_MARKER}`
						: undefined),
		},
	});
	const http = createServer((req, res) => {
		server.handle(req, res).catch((error: unknown) => {
			if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
			res.end(`fake EU internal error: ${error instanceof Error ? error.message : String(error)}`);
		});
	});
	// A kept-alive connection is not closed under a client that is about to reuse it: with
	// Node's 5 s default, a test run on a loaded machine (the client's event loop late by more
	// than undici's 1 s margin) reused a socket the fake had just closed: ECONNRESET.
	http.keepAliveTimeout = 120_000;
	http.headersTimeout = 125_000;
	await new Promise<void>((resolve, reject) => {
		http.once('error', reject);
		http.listen(o.port ?? 0, o.host ?? '127.0.0.1', () => resolve());
	});
	const address = http.address() as AddressInfo;
	const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
	return {
		url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${address.port}/tracesnt/`,
		clock: { now: lifecycleNow, advance },
		securityClock: {
			now: securityNow,
			setOffset: (ms: number) => {
				securityOffset = ms;
			},
		},
		users,
		statements: () => store.list(lifecycleNow()),
		requests: () => server.log,
		faults: server.faults,
		events: eventsOf({ store, lifecycleNow }),
		setLookupLag,
		stop: () =>
			new Promise<void>((resolve) => {
				http.closeAllConnections();
				http.close(() => resolve());
			}),
	};
}
