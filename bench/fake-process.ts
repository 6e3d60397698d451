/**
 * The fake service in its own process, as the real service runs on another machine: its
 * CPU work (circles, country lookup, JSON) then does not slow down the node being measured.
 * Driven through the fake's HTTP control surface (`/__fake/…`, see test/fake-service/README.md).
 */
import { fork, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';

export interface RemoteFake {
	url: string;
	apiKey: string;
	reset(): Promise<void>;
	/** simulated latency on every contract request (a `delay` fault matching everything) */
	setLatency(ms: number): Promise<void>;
	count(filter: { method: string; path: string }): Promise<number>;
	/** the fake's request log (arrival times `at` in real ISO time) */
	entries(): Promise<Array<{ method: string; path: string; at: string; status: number }>>;
	close(): Promise<void>;
}

export async function startRemoteFake(): Promise<RemoteFake> {
	const child: ChildProcess = fork(path.join(__dirname, 'fake-process-main.js'), [], {
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
	const url = await new Promise<string>((resolve, reject) => {
		child.once('message', (m) => resolve(String((m as { url: string }).url)));
		child.once('exit', (code) => reject(new Error(`fake process exited with ${code}`)));
	});
	const call = async (method: string, p: string, body?: unknown) => {
		const res = await fetch(`${url}${p}`, {
			method,
			headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await res.text();
		if (!res.ok) throw new Error(`${method} ${p}: HTTP ${res.status} ${text}`);
		return text ? JSON.parse(text) : undefined;
	};
	const users = (await call('GET', '/__fake/users')) as {
		users: Array<{ key: string; apiKey: string }>;
	};
	return {
		url,
		apiKey: users.users.find((u) => u.key === 'alice')!.apiKey,
		reset: async () => {
			await call('POST', '/__fake/reset', {});
		},
		setLatency: async (ms) => {
			await call('DELETE', '/__fake/faults');
			if (ms > 0) await call('POST', '/__fake/faults', { kind: 'delay', ms, times: 1_000_000_000 });
		},
		entries: async () =>
			(
				(await call('GET', '/__fake/log')) as {
					entries: Array<{ method: string; path: string; at: string; status: number }>;
				}
			).entries,
		count: async (f) => {
			const log = (await call('GET', '/__fake/log')) as {
				entries: Array<{ method: string; path: string }>;
			};
			return log.entries.filter((e) => e.method === f.method && e.path === f.path).length;
		},
		close: async () => {
			const exited = new Promise((r) => child.once('exit', r));
			child.kill('SIGTERM');
			await exited;
		},
	};
}
