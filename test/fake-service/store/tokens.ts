/** Token accounts: GET /users/check_tokens, reservations of running jobs, charges. */
import { plainStringError } from '../http-error';
import type { Users } from './users';

export interface Balance {
	total: number;
	reserved: number;
	free: number;
}

export class Tokens {
	private readonly accounts = new Map<string, { total: number; reserved: number }>();

	/** `settle` brings the job engine up to the fake clock's now before a balance is read. */
	constructor(
		private readonly users: Users,
		private readonly initialTokens: number,
		private readonly settle: () => void,
	) {
		this.reset();
	}

	reset(): void {
		this.accounts.clear();
		for (const u of Object.values(this.users.all))
			this.accounts.set(u.username, { total: this.initialTokens, reserved: 0 });
	}

	get(username: string): Balance | undefined {
		this.settle();
		const b = this.accounts.get(username);
		return b ? { total: b.total, reserved: b.reserved, free: b.total - b.reserved } : undefined;
	}

	set(username: string, total: number): void {
		const b = this.accounts.get(username);
		if (b) b.total = total;
		else this.accounts.set(username, { total, reserved: 0 });
	}

	delete(username: string): void {
		this.accounts.delete(username);
	}

	/** GET /users/check_tokens */
	checkTokens(username: string) {
		const b = this.get(username);
		if (!b) throw plainStringError(404, `Token balance not found for user '${username}'`);
		return { 'Token balance': b.total, 'Reserved Tokens': b.reserved, 'Free Tokens': b.free };
	}

	/** A new job reserves its whole cost; the caller has checked that the account exists. */
	reserve(username: string, tokens: number): void {
		this.accounts.get(username)!.reserved += tokens;
	}

	/** A finished job releases its reservation and pays for its succeeded plots only. */
	settleJob(username: string, reserved: number, charged: number): void {
		const b = this.accounts.get(username);
		if (b) {
			b.reserved -= reserved;
			b.total -= charged;
		}
	}

	/** An immediate charge; the caller has checked that the account exists. */
	charge(username: string, tokens: number): void {
		this.accounts.get(username)!.total -= tokens;
	}
}
