/**
 * Small scripted HTTP(S) servers on 127.0.0.1 for transport tests: each is its own origin
 * (another port), records every request it receives (headers included), and can answer
 * anything: redirects, truncated or HTML bodies, trickles. Never any host but loopback.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SeenRequest {
	method: string;
	/** Path with its query, as received. */
	url: string;
	path: string;
	headers: IncomingHttpHeaders;
	body: string;
}

export type Handler = (request: SeenRequest, response: ServerResponse) => void | Promise<void>;

export interface Loopback {
	/** `http://127.0.0.1:<port>` (or https). */
	url: string;
	port: number;
	requests: SeenRequest[];
	/** Responses whose connection closed before the server ended them (the client gave up). */
	abandoned: number;
	/** Replaces the handler. */
	handle(handler: Handler): void;
	close(): Promise<void>;
}

async function listen(
	make: (
		listener: (req: IncomingMessage, res: ServerResponse) => void,
	) => ReturnType<typeof createServer>,
	scheme: 'http' | 'https',
	initial: Handler,
): Promise<Loopback> {
	let handler = initial;
	const sockets = new Set<Socket>();
	const state: Loopback = {
		url: '',
		port: 0,
		requests: [],
		abandoned: 0,
		handle: (next) => {
			handler = next;
		},
		close: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
	const server = make((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const url = req.url ?? '/';
			const seen: SeenRequest = {
				method: req.method ?? 'GET',
				url,
				path: url.split('?')[0],
				headers: req.headers,
				body: Buffer.concat(chunks).toString('utf8'),
			};
			state.requests.push(seen);
			res.on('close', () => {
				if (!res.writableEnded) state.abandoned++;
			});
			Promise.resolve(handler(seen, res)).catch(() => res.destroy());
		});
	});
	server.on('connection', (socket: Socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	server.on('secureConnection', (socket: Socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	const address = server.address();
	state.port = typeof address === 'object' && address ? address.port : 0;
	state.url = `${scheme}://127.0.0.1:${state.port}`;
	return state;
}

/** An HTTP server on 127.0.0.1 (a port of its own: an origin of its own). */
export async function startLoopback(handler: Handler = notFound): Promise<Loopback> {
	return await listen((l) => createServer(l), 'http', handler);
}

/**
 * An HTTPS server on 127.0.0.1 with a self-signed certificate made for this run (openssl),
 * which no client trusts: every TLS handshake with it fails on the certificate.
 */
export async function startSelfSignedLoopback(handler: Handler = notFound): Promise<Loopback> {
	const folder = mkdtempSync(join(tmpdir(), 'loopback-tls-'));
	try {
		const key = join(folder, 'key.pem');
		const cert = join(folder, 'cert.pem');
		execFileSync(
			'openssl',
			[
				'req',
				'-x509',
				'-newkey',
				'rsa:2048',
				'-nodes',
				'-days',
				'1',
				'-subj',
				'/CN=127.0.0.1',
				'-keyout',
				key,
				'-out',
				cert,
			],
			{ stdio: 'ignore' },
		);
		const options = { key: readFileSync(key), cert: readFileSync(cert) };
		return await listen(
			(l) => createTlsServer(options, l) as unknown as ReturnType<typeof createServer>,
			'https',
			handler,
		);
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}

export function notFound(_request: SeenRequest, response: ServerResponse) {
	json(response, 404, { code: 404, message: 'HTTP 404 Not Found' });
}

export function json(response: ServerResponse, status: number, body: unknown) {
	response.writeHead(status, { 'Content-Type': 'application/json' });
	response.end(JSON.stringify(body));
}

export function text(response: ServerResponse, status: number, body: string, type = 'text/plain') {
	response.writeHead(status, { 'Content-Type': type });
	response.end(body);
}

export function redirect(response: ServerResponse, status: number, location: string) {
	response.writeHead(status, { Location: location, 'Content-Length': '0' });
	response.end();
}

/** The balance answer of the contract's field notes. */
export const BALANCE = { 'Token balance': 100, 'Reserved Tokens': 22, 'Free Tokens': 78 };
