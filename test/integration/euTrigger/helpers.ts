/**
 * The EU Information System Trigger through n8n's real PollContext (test/helpers/poll.ts)
 * against the fake EU: the trigger registered with the harness, its clock (Date.now) following
 * the fake's lifecycle clock, statements filed over SOAP and their status changed as the EU
 * would change it.
 */
import { randomUUID } from 'node:crypto';
import type { INodeParameters } from 'n8n-workflow';

import { EuInformationSystemTrigger } from '../../../nodes/EuInformationSystemTrigger/EuInformationSystemTrigger.node';
import { resetEuRateLimit } from '../../../nodes/shared/transport/euRateLimit';
import type { FakeEu } from '../../fake-eu';
import { submit } from '../../fake-eu/contract/harness';
import type { PollerOptions, StateKeeping } from '../../helpers/poll';
import { Poller, pollTrigger, runPoll } from '../../helpers/poll';
import type { CredentialStore } from '../../helpers/engine';
import { euStore } from '../euInformationSystem/helpers';

export { euStore };

export const EU_TRIGGER = pollTrigger({
	node: new EuInformationSystemTrigger(),
	type: 'n8n-nodes-geospatial-analysis.euInformationSystemTrigger',
	name: 'EU Information System Trigger',
	credentialType: () => 'euInformationSystemApi',
});

export const MIN = 60_000;

/**
 * Date.now follows the fake's lifecycle clock (plus the real time since the test began, so
 * that the transport's 5 calls/s limiter sees time pass); `advance` moves both. The fake's
 * WS-Security clock reads Date.now too: it is kept on real time, as our envelope's (new Date()).
 */
export interface EuClock {
	advance(ms: number): void;
	now(): number;
	restore(): void;
}

export function followEuClock(eu: FakeEu, ...others: FakeEu[]): EuClock {
	const all = [eu, ...others];
	// every fake on the first one's lifecycle time
	for (const other of others) other.clock.advance(eu.clock.now() - other.clock.now());
	const realStart = performance.now();
	// how far each lifecycle clock is ahead of real time (earlier tests may have advanced it)
	const ahead = all.map((f) => f.clock.now() - Date.now());
	const now = () => eu.clock.now() + (performance.now() - realStart);
	const spy = jest.spyOn(Date, 'now').mockImplementation(now);
	all.forEach((f, i) => f.securityClock.setOffset(-ahead[i]));
	resetEuRateLimit();
	return {
		advance(ms: number) {
			all.forEach((f, i) => {
				f.clock.advance(ms);
				ahead[i] += ms;
				f.securityClock.setOffset(-ahead[i]);
			});
		},
		now,
		restore() {
			spy.mockRestore();
			for (const f of all) f.securityClock.setOffset(0);
		},
	};
}

/** Files a statement over SOAP (the fake validates it against the EU's XSD); its UUID. */
export async function file(
	eu: FakeEu,
	internalReference: string,
	comment?: string,
): Promise<string> {
	return await submit(eu, { internalReference, ...(comment !== undefined ? { comment } : {}) });
}

export const BASE_PARAMETERS: INodeParameters = { internalReferencePrefix: 'SHIP-' };

/** One poll with a new context (as a first activation or the durable scheduler makes it). */
export async function pollEu(
	store: CredentialStore,
	parameters: INodeParameters = {},
	staticData?: Parameters<typeof runPoll>[0]['staticData'],
	mode?: 'manual' | 'trigger',
) {
	return await runPoll({
		parameters: { ...BASE_PARAMETERS, ...parameters },
		store,
		staticData,
		trigger: EU_TRIGGER,
		...(mode ? { mode } : {}),
	});
}

/** An activated EU trigger polled as n8n polls it. */
export function euPoller(
	store: CredentialStore,
	keeping: StateKeeping,
	parameters: INodeParameters = {},
	more: Partial<PollerOptions> = {},
): Poller {
	return new Poller({
		parameters: { ...BASE_PARAMETERS, ...parameters },
		store,
		keeping,
		trigger: EU_TRIGGER,
		...more,
	});
}

/** The fake's requests by operation, since `from` (an index into eu.requests()). */
export function operationsSince(eu: FakeEu, from: number): Array<string | null> {
	return eu
		.requests()
		.slice(from)
		.map((r) => r.operation);
}

/**
 * `count` more statements like the filed `uuid` (new UUIDs, references `<prefix><n>`), put
 * straight into the fake's store: for sizes where filing each over SOAP would take minutes.
 */
export function cloneStatements(eu: FakeEu, uuid: string, count: number, prefix: string): string[] {
	const all = eu.statements();
	const model = all.find((s) => s.uuid === uuid)!;
	const made: string[] = [];
	for (let i = 0; i < count; i++) {
		const copy = {
			...model,
			uuid: randomUUID(),
			internalReferenceNumber: `${prefix}${i}`,
			groups: [],
		};
		all.push(copy);
		made.push(copy.uuid);
	}
	return made;
}
