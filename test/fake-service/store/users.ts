/** The three seeded users (deterministic credentials) and their lookup by name or API key. */
import { createHash } from 'crypto';

export type SeedUserName = 'alice' | 'bob' | 'viewer';
export interface UserRec {
	username: string;
	password: string;
	apiKey: string;
	roles: string[];
}

function apiKeyFor(name: string): string {
	return (
		'service_live_' +
		createHash('sha256').update(`geospatial-fake:${name}`).digest('hex').slice(0, 40)
	);
}

export function seedUsers(): Record<SeedUserName, UserRec> {
	return {
		alice: {
			username: 'alice',
			password: 'alice-fake-password',
			apiKey: apiKeyFor('alice'),
			roles: ['analyst'],
		},
		bob: {
			username: 'bob',
			password: 'bob-fake-password',
			apiKey: apiKeyFor('bob'),
			roles: ['analyst'],
		},
		viewer: {
			username: 'viewer',
			password: 'viewer-fake-password',
			apiKey: apiKeyFor('viewer'),
			roles: [],
		},
	};
}

export class Users {
	constructor(readonly all: Record<SeedUserName, UserRec>) {}

	byName(name: string): UserRec | undefined {
		return Object.values(this.all).find((u) => u.username === name);
	}

	byApiKey(key: string): UserRec | undefined {
		return Object.values(this.all).find((u) => u.apiKey === key);
	}
}
