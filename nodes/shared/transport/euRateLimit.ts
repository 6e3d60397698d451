/**
 * At most EU_CALLS_PER_SECOND calls a second per origin, for the whole process (module state
 * shared by every item and node): the EU Information System's fair-use limit (5 calls a second
 * per IP, pack §6). Calls start one after the other, START_SPACING_MS apart: a tenth more than
 * 1000 / 5 ms, so that six consecutive calls span 1.1 s and the network's jitter on the way
 * cannot put six into one second at the service (measured against the fake, which counts
 * arrivals per rolling second: with a plain "5 per rolling second at our end", bursts of five
 * arrived as six and were refused with HTTP 429). Callers start in the order they asked, each
 * one spacing after the actual start of the one before (with the given sleep; n8n's by
 * default): slots reserved ahead at 220 ms kept firing at the old pace after a refusal, and
 * late timers of a busy machine fired together (measured: 79 refusals for 300 calls on a
 * machine at load 30).
 *
 * The spacing adapts to what the EU says, because spacing the starts at our end is not
 * spacing the arrivals there (a busy machine sends late calls together), and because other
 * processes on the same address (n8n's queue-mode workers, each with a limiter of its own)
 * share the EU's 5 a second:
 * - a refusal (HTTP 429 or the EU's throttling fault) multiplies the spacing by SLOWDOWN (2),
 *   up to MAX_SLOWDOWN (16) times the base, and no call starts before one new spacing has
 *   passed, nor before the Retry-After the EU gave (every call of the process waits it out). Calls that had started before that slowdown and are refused too do not slow it
 *   down again (they were sent at the old pace: one reaction per refusal episode);
 * - each accepted call takes RECOVERY (a tenth) off the extra spacing's factor, so the pace
 *   comes back to the base gradually: from 2× to 1× in 7 accepted calls, from 16× in 27.
 * The base is START_SPACING_MS, or longer when the credential's "Calls per Second" is set below
 * 5 (spacingFor: a tenth of margin on 1000 / calls per second).
 */
import { WaitCancelledError, sleepUnlessCancelled, unlessCancelled } from '../time/sleep';

export const EU_CALLS_PER_SECOND = 5;
/** The margin on 1000 / calls per second between two starts (network jitter). */
export const SPACING_MARGIN = 1.1;
/** The time between two call starts to one origin at the EU's 5 calls a second. */
export const START_SPACING_MS = 220;
/** A refusal multiplies the spacing by this. */
export const SLOWDOWN = 2;
/** The spacing never grows past this many times the base. */
export const MAX_SLOWDOWN = 16;
/** Each accepted call multiplies the slowdown factor by (1 − RECOVERY), down to 1. */
export const RECOVERY = 0.1;

/** The spacing of starts for a number of calls a second (1000 / calls, plus the margin). */
export function spacingFor(callsPerSecond: number = EU_CALLS_PER_SECOND): number {
	if (!(callsPerSecond > 0) || callsPerSecond >= EU_CALLS_PER_SECOND) return START_SPACING_MS;
	return Math.round((1000 / callsPerSecond) * SPACING_MARGIN);
}

interface Pace {
	/** When the latest call started (its actual start, after any wait). */
	last: number;
	/** No call starts before this (a refusal holds the next start off). */
	hold: number;
	/** How many times the base the spacing is now (1 … MAX_SLOWDOWN). */
	factor: number;
	/** When the spacing last grew (calls started before then do not make it grow again). */
	slowedAt: number;
	/** Settles when the caller before the latest has started (callers start in order). */
	tail: Promise<void>;
}

/** The pace per origin. */
const paces = new Map<string, Pace>();

export interface RateLimitTiming {
	now: () => number;
	sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const systemRateTiming: RateLimitTiming = { now: () => Date.now(), sleep: sleepUnlessCancelled };

function paceOf(origin: string): Pace {
	let pace = paces.get(origin);
	if (!pace) {
		pace = {
			last: -Infinity,
			hold: -Infinity,
			factor: 1,
			slowedAt: -Infinity,
			tail: Promise.resolve(),
		};
		paces.set(origin, pace);
	}
	return pace;
}

const spacingOf = (pace: Pace, baseSpacingMs: number) =>
	Math.round(Math.max(baseSpacingMs, START_SPACING_MS) * pace.factor);

/**
 * Waits until a call to `origin` may start and resolves its start time (for euCallRefused).
 * Callers start in the order they asked, each at least one spacing after the ACTUAL start of
 * the one before (a wait that ended late on a busy machine does not let the next one start
 * early), with the spacing as it is when the wait ends (a refusal meanwhile slows every
 * waiting caller down, not only the later ones). `baseSpacingMs` is the credential's spacing
 * (spacingFor its Calls per Second).
 */
export async function waitForEuSlot(
	origin: string,
	signal?: AbortSignal,
	timing: RateLimitTiming = systemRateTiming,
	baseSpacingMs: number = START_SPACING_MS,
): Promise<number> {
	const pace = paceOf(origin);
	const before = pace.tail;
	let started!: () => void;
	pace.tail = new Promise<void>((resolve) => (started = resolve));
	const cancelled = await unlessCancelled(before, signal).then(
		() => false,
		() => true,
	);
	if (cancelled) {
		// cancelled while others were before it: the callers after it keep their order
		void before.then(started);
		throw new WaitCancelledError();
	}
	try {
		for (;;) {
			const at = Math.max(pace.last + spacingOf(pace, baseSpacingMs), pace.hold);
			const now = timing.now();
			if (at <= now) {
				pace.last = now;
				return now;
			}
			await timing.sleep(at - now, signal);
		}
	} finally {
		started();
	}
}

/** The longest pause of every call to an origin that a Retry-After can ask for. */
export const MAX_PAUSE_MS = 60_000;

/**
 * The EU refused a call to `origin` that started at `startedAt` because of its rate limit: the
 * spacing grows (unless a refusal of a call started later already made it grow), and no call
 * starts before one new spacing from `now`, nor before the Retry-After the EU gave
 * (`retryAfterMs`, at most MAX_PAUSE_MS): it is the address that is refused, so every call of
 * the process waits it out, not only the refused one.
 */
export function euCallRefused(
	origin: string,
	startedAt: number,
	now: number = Date.now(),
	baseSpacingMs: number = START_SPACING_MS,
	retryAfterMs = 0,
): void {
	const pace = paceOf(origin);
	pace.hold = Math.max(pace.hold, now + Math.min(Math.max(0, retryAfterMs), MAX_PAUSE_MS));
	if (startedAt < pace.slowedAt) return;
	pace.factor = Math.min(MAX_SLOWDOWN, pace.factor * SLOWDOWN);
	pace.slowedAt = now;
	pace.hold = Math.max(pace.hold, now + spacingOf(pace, baseSpacingMs));
}

/** The EU accepted a call to `origin` (answered anything but a throttling refusal). */
export function euCallAccepted(origin: string): void {
	const pace = paces.get(origin);
	if (!pace || pace.factor === 1) return;
	pace.factor = Math.max(1, pace.factor * (1 - RECOVERY));
	if (pace.factor < 1.01) pace.factor = 1;
}

/** How many times the base the spacing to `origin` is now (1 when never refused). */
export function euSlowdown(origin: string): number {
	return paces.get(origin)?.factor ?? 1;
}

/** Forgets every start and slowdown (tests). */
export function resetEuRateLimit(): void {
	paces.clear();
}
