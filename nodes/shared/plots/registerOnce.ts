/**
 * Plot → Register, exactly once: "creates happen once; after any failure where a create may
 * have arrived, find out what exists before saying anything or sending again."
 *
 * Each make_plot request goes through `registerExactlyOnce`:
 * 1. it is sent (the transport retries it only when it certainly was not carried out:
 *    no connection, or 429);
 * 2. when it fails although it may have been carried out (`mayHaveArrived`: the connection
 *    broke after sending, a timeout, a gateway's 502/504), the plots created since just
 *    before it (minus a clock-skew margin, in the service's own timestamp style) are listed
 *    and paired with its rows (`matchPlots.ts`); rows not found are looked for once more
 *    after a short pause (the service may still have been working on them);
 * 3. rows found are returned marked `recovered_after_connection_error`; rows certainly
 *    missing are sent again, once; rows it cannot tell about fail with an error naming them
 *    and saying how to check (Plot → Get Many, Created After …).
 *
 * Requests of one run share a `RegistrationLedger`: a lookup waits until no other request of
 * the run is under way (and holds new ones back), so that it never takes another request's
 * plots for its own, and no plot is ever paired with two rows. The ledger also knows what
 * exists when the run stops, for the error's description.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Timing } from '../time/sleep';
import { systemTiming } from '../time/sleep';
import { lostAnswerReason } from '../transport/lostAnswer';
import { CLOCK_SKEW_MARGIN_MS, serviceTimestamp } from '../time/serviceTime';
import type { AlreadyDone } from '../runner';
import { serviceErrorOf } from '../transport/serviceFailure';
import { listCreatedSince } from '../transport/createdSince';
import { apiRequest } from '../transport/request';
import type { RequestFields } from './batching';
import { plotsOfResponse } from './batching';
import type { Plot, RowFinding, SentRequest, SentRow } from './matchPlots';
import { pairRows, plotIdOf } from './matchPlots';

export type { Plot, SentRequest, SentRow } from './matchPlots';

/** Most plots one lookup reads (newest first); beyond it the lookup is incomplete. */
export const LOOKUP_LIMIT = 5000;
/** Pause before looking again for rows the first lookup did not find. */
export const SETTLE_MS = 2000;

export type RowOutcome =
	| { row: SentRow; plot: Plot; recovered: boolean }
	| { row: SentRow; error: NodeOperationError | Error };

// ---------------------------------------------------------------- the ledger

/**
 * What a registration run has done so far, and the gate that keeps lookups apart from
 * requests under way (a readers-writer lock: requests share it, a lookup takes it alone and
 * goes first).
 */
export class RegistrationLedger {
	/** Plot ids output by this run (registered or recovered): never paired again. */
	readonly claimed = new Set<string>();
	/** Items with plots that exist, and their plot ids. */
	readonly registered = new Map<number, string[]>();
	/**
	 * Items whose plots may exist (the run could not tell), with the Created After to check and
	 * the error that says so.
	 */
	readonly uncertain = new Map<number, { createdAfter: string; error: unknown }>();

	private sharing = 0;
	private alone = false;
	private waitingAlone = 0;
	private wakers: Array<() => void> = [];

	private wake(): void {
		const wakers = this.wakers;
		this.wakers = [];
		wakers.forEach((w) => w());
	}

	private async until(ready: () => boolean): Promise<void> {
		while (!ready()) await new Promise<void>((resolve) => this.wakers.push(resolve));
	}

	/** Runs a request; waits while a lookup is under way or waiting. */
	async shared<T>(work: () => Promise<T>): Promise<T> {
		await this.until(() => !this.alone && this.waitingAlone === 0);
		this.sharing++;
		try {
			return await work();
		} finally {
			this.sharing--;
			this.wake();
		}
	}

	/** Runs a lookup once no request of the run is under way; holds new ones back meanwhile. */
	async exclusive<T>(work: () => Promise<T>): Promise<T> {
		this.waitingAlone++;
		try {
			await this.until(() => !this.alone && this.sharing === 0);
		} finally {
			this.waitingAlone--;
		}
		this.alone = true;
		try {
			return await work();
		} finally {
			this.alone = false;
			this.wake();
		}
	}

	/** Records plots that exist for these rows. */
	exists(pairs: Array<{ row: SentRow; plot: Plot }>): void {
		for (const { row, plot } of pairs) {
			const id = plotIdOf(plot);
			if (id) this.claimed.add(id);
			this.registered.set(row.itemIndex, [...(this.registered.get(row.itemIndex) ?? []), id]);
		}
	}

	/** Records rows whose plots may exist. */
	mayExist(rows: readonly SentRow[], createdAfter: string, error: unknown): void {
		for (const row of rows)
			if (!this.uncertain.has(row.itemIndex))
				this.uncertain.set(row.itemIndex, { createdAfter, error });
	}

	/**
	 * What exists when the run stops on `error`, for its description: the items registered
	 * (never "nothing" when a request may have arrived and could not be checked).
	 */
	report(error: unknown): AlreadyDone {
		const parts: string[] = [];
		const registered = [...this.registered.keys()].sort((a, b) => a - b);
		const uncertain = [...this.uncertain.keys()].sort((a, b) => a - b);
		// Those the error itself names need no second mention.
		const others = uncertain.filter((i) => this.uncertain.get(i)?.error !== error);
		if (registered.length > 0)
			parts.push(
				registered.length > 1
					? `${itemList(registered)} were registered before the failure (their plots exist now); remove them from the input before running again, or they will be registered twice.`
					: `${itemList(registered)} was registered before the failure (its plots exist now); remove it from the input before running again, or it will be registered twice.`,
			);
		if (others.length > 0) {
			const after = others.map((i) => this.uncertain.get(i)?.createdAfter ?? '').sort()[0];
			parts.push(
				`${itemList(others)} may have been registered too: check with Plot → Get Many, Filters → Created After ${after} (UTC) before running ${others.length > 1 ? 'them' : 'it'} again.`,
			);
		}
		if (registered.length === 0 && uncertain.length === 0 && !serviceErrorOf(error).mayHaveArrived)
			parts.push('No plot was registered.');
		const context: IDataObject = {};
		if (registered.length > 0)
			context.registeredBeforeFailure = registered.map((item) => ({
				item,
				plot_ids: this.registered.get(item) ?? [],
			}));
		if (uncertain.length > 0) context.mayHaveBeenRegistered = uncertain;
		return { description: parts.join(' '), context };
	}
}

// ---------------------------------------------------------------- wording

function capitalise(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "Items 0, 1 and 4" / "Item 3". */
export function itemList(items: readonly number[]): string {
	const sorted = [...new Set(items)].sort((a, b) => a - b);
	const shown = sorted.slice(0, 30).join(', ');
	const more = sorted.length > 30 ? ` and ${sorted.length - 30} more` : '';
	return `${sorted.length === 1 ? 'Item' : 'Items'} ${shown}${more}`;
}

/** "items 0, 1, item 4 (features 0, 2)": the rows given, whole items first, by item. */
function rowList(rows: readonly SentRow[]): string {
	const byItem = new Map<number, SentRow[]>();
	for (const row of rows) byItem.set(row.itemIndex, [...(byItem.get(row.itemIndex) ?? []), row]);
	const entries = [...byItem.entries()].sort(([a], [b]) => a - b);
	const whole = entries.filter(([, its]) => its.length === its[0].itemFeatureCount).map(([i]) => i);
	const partial = entries
		.filter(([, its]) => its.length !== its[0].itemFeatureCount)
		.map(
			([item, its]) =>
				`item ${item} (feature${its.length > 1 ? 's' : ''} ${its.map((r) => r.featureIndex).join(', ')})`,
		);
	const parts = [...(whole.length > 0 ? [itemList(whole).toLowerCase()] : []), ...partial];
	return parts.join(', ');
}

function checkAdvice(createdAfter: string, rows: readonly SentRow[]): string {
	const many = new Set(rows.map((r) => r.itemIndex)).size > 1;
	return `Before running ${many ? 'them' : 'it'} again, open Plot → Get Many with Filters → Created After = ${createdAfter} (UTC) and look for ${many ? 'their plots' : 'its plots'} (same coordinates, name and fields); remove from the input the items whose plots are there, or they will be registered twice.`;
}

// ---------------------------------------------------------------- requests

/** One make_plot request for these rows; the plots in the order of its features. */
async function sendMakePlot(
	ctx: IExecuteFunctions,
	request: SentRequest,
	ledger: RegistrationLedger,
): Promise<Plot[]> {
	const features = request.rows.map((r) => r.feature);
	const body = { geojson: { type: 'FeatureCollection', features }, ...request.fields };
	const itemIndex = request.rows[0].itemIndex;
	const plots = plotsOfResponse(
		await apiRequest.call(ctx, 'POST', '/plots/make_plot', { body, itemIndex }),
	);
	if (plots.length !== features.length) {
		const unpaired = new NodeOperationError(
			ctx.getNode(),
			`The service returned ${plots.length} plots for ${features.length} features, so the plots cannot be matched to ${rowList(request.rows)}`,
			{
				itemIndex,
				description:
					'Check the registered plots with "Plot → Get Many" before running again, so that nothing is registered twice.',
			},
		);
		ledger.mayExist(request.rows, serviceTimestamp(Date.now() - CLOCK_SKEW_MARGIN_MS), unpaired);
		throw unpaired;
	}
	return plots;
}

/** The plots created since `since` (ms), newest first; `complete` false when cut at the limit. */
async function lookUpPlots(
	ctx: IExecuteFunctions,
	since: number,
): Promise<{ plots: Plot[]; complete: boolean }> {
	// The service filters by created_at; a service that ignored the filter is filtered there.
	const listed = await listCreatedSince(ctx, '/plots', 'plots', since, { limit: LOOKUP_LIMIT });
	return { plots: listed.records as Plot[], complete: listed.complete };
}

/**
 * Looks for the rows of a request that may have been carried out: found, missing (certainly
 * not there: may be sent again) or unsure. Throws when the lookup itself fails.
 */
async function findRows(
	ctx: IExecuteFunctions,
	request: SentRequest,
	since: number,
	ledger: RegistrationLedger,
	timing: Timing,
): Promise<RowFinding[]> {
	const look = async (): Promise<RowFinding[]> => {
		const { plots, complete } = await lookUpPlots(ctx, since);
		const unclaimed = plots.filter((p) => !ledger.claimed.has(plotIdOf(p)));
		const findings = pairRows(request, unclaimed);
		// A cut lookup cannot say a row is missing.
		return complete
			? findings
			: findings.map((f) => (f.kind === 'missing' ? { kind: 'unsure', plotIds: [] } : f));
	};
	let findings = await look();
	if (findings.some((f) => f.kind === 'missing')) {
		// The service may still be working on the request: look once more before sending again.
		await timing.sleep(SETTLE_MS, ctx.getExecutionCancelSignal?.());
		findings = await look();
	}
	return findings;
}

/** The rows sent again: the request's fields kept; a numbered name is given to each plot itself. */
function resendRequests(request: SentRequest, rows: SentRow[]): SentRequest[] {
	const { fields } = request;
	const name = fields.plot_name;
	if (name === undefined || request.rows.length === 1 || rows.length === request.rows.length)
		return [{ rows, fields }];
	// "<name> 1", "<name> 2" … depend on the position in the request: sent alone, each keeps its own.
	return rows.map((row) => ({
		rows: [row],
		fields: { ...fields, plot_name: `${name} ${request.rows.indexOf(row) + 1}` } as RequestFields,
	}));
}

/**
 * Registers the rows of one make_plot request exactly once (see the module comment): an
 * outcome per row, registered, recovered or failed. Throws when the request certainly was not
 * carried out (nothing of it exists), or when its answer cannot be paired with its rows (the
 * ledger then counts them as rows that may exist).
 */
export async function registerExactlyOnce(
	ctx: IExecuteFunctions,
	request: SentRequest,
	ledger: RegistrationLedger,
	timing: Timing = systemTiming,
): Promise<RowOutcome[]> {
	return await attempt(ctx, request, ledger, timing, 1);
}

async function attempt(
	ctx: IExecuteFunctions,
	request: SentRequest,
	ledger: RegistrationLedger,
	timing: Timing,
	round: 1 | 2,
): Promise<RowOutcome[]> {
	const sentAt = timing.now();
	let error: unknown;
	try {
		const plots = await ledger.shared(async () => {
			const made = await sendMakePlot(ctx, request, ledger);
			ledger.exists(request.rows.map((row, k) => ({ row, plot: made[k] })));
			return made;
		});
		return request.rows.map((row, k) => ({ row, plot: plots[k], recovered: false }));
	} catch (caught) {
		error = caught;
	}
	const failure = serviceErrorOf(error);
	const itemIndex = request.rows[0].itemIndex;
	if (!failure.mayHaveArrived) {
		if (round === 1) throw error;
		const e = error as { message?: string; description?: string | null };
		const notSent = new NodeOperationError(
			ctx.getNode(),
			`${capitalise(rowList(request.rows))} could not be registered: ${e?.message ?? String(error)}`,
			{
				itemIndex,
				description:
					`The answer to their first request was lost and the service showed no plot for them, so they were sent again, and that failed: nothing was registered for them. ${e?.description ?? ''}`.trim(),
			},
		);
		return request.rows.map((row) => ({ row, error: notSent }));
	}
	const since = sentAt - CLOCK_SKEW_MARGIN_MS;
	const createdAfter = serviceTimestamp(since);
	let findings: RowFinding[];
	try {
		findings = await ledger.exclusive(async () => {
			const found = await findRows(ctx, request, since, ledger, timing);
			ledger.exists(
				request.rows.flatMap((row, k) => {
					const f = found[k];
					return f.kind === 'found' ? [{ row, plot: f.plot }] : [];
				}),
			);
			return found;
		});
	} catch (lookupError) {
		const reason = ((lookupError as Error)?.message ?? String(lookupError)).replace(/\.+$/, '');
		const mayExist = new NodeOperationError(
			ctx.getNode(),
			`${capitalise(rowList(request.rows))} may have been registered: the answer to the registration was lost or unreadable, and looking for the plots failed too`,
			{
				itemIndex,
				description: `The request may have reached the service: ${lostAnswerReason(failure)}. Looking up the plots created since ${createdAfter} (UTC) failed: ${reason}. ${checkAdvice(createdAfter, request.rows)}`,
			},
		);
		ledger.mayExist(request.rows, createdAfter, mayExist);
		return request.rows.map((row) => ({ row, error: mayExist }));
	}

	const outcomes: RowOutcome[] = [];
	const unsure: Array<{ row: SentRow; plotIds: string[] }> = [];
	const missing: SentRow[] = [];
	request.rows.forEach((row, k) => {
		const f = findings[k];
		if (f.kind === 'found') outcomes.push({ row, plot: f.plot, recovered: true });
		else if (f.kind === 'unsure') unsure.push({ row, plotIds: f.plotIds });
		else missing.push(row);
	});
	if (unsure.length > 0) {
		const resembling = unsure
			.filter((u) => u.plotIds.length > 0)
			.map(
				(u) =>
					`${rowList([u.row])}: plot${u.plotIds.length > 1 ? 's' : ''} ${u.plotIds.join(', ')}`,
			);
		const cannotTell = new NodeOperationError(
			ctx.getNode(),
			`${capitalise(rowList(unsure.map((u) => u.row)))} may have been registered: the answer to the registration was lost or unreadable, and the plots created since then cannot be paired with ${unsure.length > 1 ? 'them' : 'it'} with certainty`,
			{
				itemIndex: unsure[0].row.itemIndex,
				description: `The request may have reached the service: ${lostAnswerReason(failure)}. ${resembling.length > 0 ? `Plots created since ${createdAfter} (UTC) that resemble ${unsure.length > 1 ? 'them' : 'it'}: ${resembling.join('; ')}.` : `More than ${LOOKUP_LIMIT} plots were created since ${createdAfter} (UTC), too many to look through.`} ${checkAdvice(
					createdAfter,
					unsure.map((u) => u.row),
				)}`,
			},
		);
		ledger.mayExist(
			unsure.map((u) => u.row),
			createdAfter,
			cannotTell,
		);
		outcomes.push(...unsure.map((u) => ({ row: u.row, error: cannotTell })));
	}
	if (missing.length > 0) {
		if (round === 1) {
			// Certainly not there: sent again, once.
			for (const again of resendRequests(request, missing))
				outcomes.push(...(await attempt(ctx, again, ledger, timing, 2)));
		} else {
			const notThere = new NodeOperationError(
				ctx.getNode(),
				`${capitalise(rowList(missing))} could not be registered: the answers to two registration requests were lost, and the service shows no plot for ${missing.length > 1 ? 'them' : 'it'}`,
				{
					itemIndex: missing[0].itemIndex,
					description: `Looked up twice: no plot created since ${createdAfter} (UTC) matches ${missing.length > 1 ? 'them' : 'it'}, so nothing was registered for ${missing.length > 1 ? 'them' : 'it'} (the last failure: ${lostAnswerReason(failure)}). Run ${missing.length > 1 ? 'these items' : 'this item'} again later.`,
				},
			);
			outcomes.push(...missing.map((row) => ({ row, error: notThere })));
		}
	}
	// Outcomes in the order of the request's rows.
	const order = new Map(request.rows.map((row, k) => [row, k]));
	return outcomes.sort((a, b) => (order.get(a.row) ?? 0) - (order.get(b.row) ?? 0));
}
