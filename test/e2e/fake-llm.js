#!/usr/bin/env node
'use strict';
/**
 * A scripted OpenAI-compatible chat model on loopback, for the AI Agent e2e test and the demo.
 * No network beyond 127.0.0.1, no model: it answers by rule, so a test can know what it says.
 *
 * `POST /v1/chat/completions` (Chat Completions API, with or without `stream`):
 *   1. When tools are offered and no tool result follows the last user message: one assistant
 *      message calling every offered tool once (parallel tool calls). Arguments come from each
 *      tool's JSON schema: a property whose name mentions "plot" gets the plot ids found in the
 *      last user message (numbers of 6 or more digits); one that mentions "reference" or
 *      "verification" gets the word after "reference number" / "verification number" in it
 *      (the EU Information System's numbers), one that mentions "uuid" the UUIDs in it;
 *      a boolean whose name starts with "allow" true (a model asking for permission);
 *      other properties an empty value of their type,
 *      which our node reports as a missing input.
 *   2. Once tool results follow the last user message: a final message quoting every result
 *      verbatim, one paragraph per tool ("<tool name> returned: <content>").
 * `GET /v1/models`: one model (what n8n's credential test asks for).
 * `GET /__llm/requests` / `DELETE /__llm/requests`: the request log (when it runs standalone).
 *
 * In-process: `const llm = await startFakeLlm(); llm.url` (the base URL with /v1, for the
 * `openAiApi` credential's Base URL), `llm.requests` (every request: method, path, body),
 * `await llm.close()`.
 * Standalone: `node test/e2e/fake-llm.js [--port 5681]` prints its base URL.
 */
const http = require('http');

/** Plot ids in the question: numeric (100001) or UUIDs (the fake's `ids=uuid` shape variant). */
const PLOT_ID = /\b(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d{6,})\b/gi;

function text(content) {
	if (typeof content === 'string') return content;
	if (Array.isArray(content))
		return content.map((part) => (typeof part === 'string' ? part : (part.text ?? ''))).join('');
	return content == null ? '' : JSON.stringify(content);
}

/** The word after "reference number" / "verification number" in the question (EU numbers). */
function euNumbers(question) {
	const after = (label) => {
		const m = new RegExp(`${label} number\\s*(?:is\\s*)?[:#]?\\s*([A-Za-z0-9-]+)`, 'i').exec(
			question,
		);
		return m ? m[1] : '';
	};
	return { reference: after('reference'), verification: after('verification') };
}

/**
 * An argument for one schema property: plot ids for plot properties, the EU numbers for
 * reference/verification number properties, else an empty value.
 */
function argumentFor(name, schema, plotIds, numbers = { reference: '', verification: '' }) {
	const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
	if (type === 'string' || type === undefined) {
		if (/verification/i.test(name)) return numbers.verification;
		if (/reference/i.test(name)) return numbers.reference;
		if (/uuid/i.test(name)) return plotIds.filter((id) => id.includes('-')).join(', ');
	}
	const isPlot = /plot/i.test(name);
	if (type === 'array') return isPlot ? plotIds : [];
	if (type === 'number' || type === 'integer') return isPlot && plotIds.length ? +plotIds[0] : 0;
	// a model that asks for permission: a boolean input named "allow…" gets true (issue 36: the
	// filing switch as $fromAI must stay shut even then); any other boolean false
	if (type === 'boolean') return /^allow/i.test(name);
	if (type === 'object') return {};
	return isPlot ? plotIds.join(', ') : '';
}

/** What the scripted model answers to one chat-completions request body. */
function reply(body) {
	const messages = Array.isArray(body.messages) ? body.messages : [];
	const lastUser = messages.map((m) => m.role).lastIndexOf('user');
	const question = lastUser >= 0 ? text(messages[lastUser].content) : '';
	const since = messages.slice(lastUser + 1);
	const results = since.filter((m) => m.role === 'tool');
	const tools = (Array.isArray(body.tools) ? body.tools : []).filter((t) => t && t.function);

	if (results.length === 0 && tools.length > 0) {
		const plotIds = question.match(PLOT_ID) || [];
		const numbers = euNumbers(question);
		return {
			role: 'assistant',
			content: null,
			tool_calls: tools.map((t, k) => {
				const props = (t.function.parameters && t.function.parameters.properties) || {};
				const args = {};
				for (const [name, schema] of Object.entries(props))
					args[name] = argumentFor(name, schema || {}, plotIds, numbers);
				return {
					id: `call_${k + 1}_${t.function.name}`,
					type: 'function',
					function: { name: t.function.name, arguments: JSON.stringify(args) },
				};
			}),
		};
	}

	const names = new Map();
	for (const m of since)
		for (const call of m.tool_calls || []) names.set(call.id, call.function && call.function.name);
	const quoted = results.map(
		(m) => `${names.get(m.tool_call_id) || m.name || 'a tool'} returned: ${text(m.content)}`,
	);
	return {
		role: 'assistant',
		content: quoted.length
			? `Here is what the tools returned.\n\n${quoted.join('\n\n')}`
			: `No tools were offered, so I cannot answer: ${question}`,
	};
}

function completion(body, message, n) {
	return {
		id: `chatcmpl-fake-${n}`,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model: body.model || 'fake-model',
		choices: [
			{
				index: 0,
				message,
				logprobs: null,
				finish_reason: message.tool_calls ? 'tool_calls' : 'stop',
			},
		],
		usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
	};
}

/** The same answer as server-sent chunks (`stream: true`). */
function chunks(body, message, n) {
	const base = {
		id: `chatcmpl-fake-${n}`,
		object: 'chat.completion.chunk',
		created: Math.floor(Date.now() / 1000),
		model: body.model || 'fake-model',
	};
	const delta = message.tool_calls
		? {
				role: 'assistant',
				content: null,
				tool_calls: message.tool_calls.map((c, index) => ({ index, ...c })),
			}
		: { role: 'assistant', content: message.content };
	const out = [
		{ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: null }] },
		{
			...base,
			choices: [
				{
					index: 0,
					delta: {},
					logprobs: null,
					finish_reason: message.tool_calls ? 'tool_calls' : 'stop',
				},
			],
		},
	];
	if (body.stream_options && body.stream_options.include_usage)
		out.push({
			...base,
			choices: [],
			usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
		});
	return out.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + 'data: [DONE]\n\n';
}

function send(res, status, json) {
	const data = JSON.stringify(json);
	res.writeHead(status, {
		'content-type': 'application/json',
		'content-length': Buffer.byteLength(data),
	});
	res.end(data);
}

async function startFakeLlm({ port = 0, host = '127.0.0.1' } = {}) {
	const requests = [];
	const server = http.createServer((req, res) => {
		let raw = '';
		req.setEncoding('utf8');
		req.on('data', (c) => (raw += c));
		req.on('end', () => {
			const path = req.url.split('?')[0].replace(/\/+$/, '');
			let body;
			try {
				body = raw ? JSON.parse(raw) : undefined;
			} catch {
				body = raw;
			}
			if (path === '/__llm/requests') {
				if (req.method === 'DELETE') requests.length = 0;
				return send(res, 200, { requests });
			}
			requests.push({ at: new Date().toISOString(), method: req.method, path, body });
			if (req.method === 'GET' && path === '/v1/models')
				return send(res, 200, {
					object: 'list',
					data: [{ id: 'fake-model', object: 'model', created: 0, owned_by: 'e2e' }],
				});
			if (req.method !== 'POST' || path !== '/v1/chat/completions')
				return send(res, 404, {
					error: { message: `${req.method} ${path} is not served`, type: 'invalid_request_error' },
				});
			if (!body || typeof body !== 'object' || !Array.isArray(body.messages))
				return send(res, 400, {
					error: { message: 'messages must be an array', type: 'invalid_request_error' },
				});
			const message = reply(body);
			if (body.stream) {
				res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
				return res.end(chunks(body, message, requests.length));
			}
			send(res, 200, completion(body, message, requests.length));
		});
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, resolve);
	});
	const actual = server.address().port;
	return {
		port: actual,
		url: `http://${host}:${actual}/v1`,
		requests,
		/** The chat-completions requests (each one model call). */
		chats: () => requests.filter((r) => r.path === '/v1/chat/completions'),
		close: () =>
			new Promise((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections?.();
			}),
	};
}

module.exports = { startFakeLlm };

if (require.main === module) {
	const i = process.argv.indexOf('--port');
	const port = i > 0 ? Number(process.argv[i + 1]) : Number(process.env.PORT || 5681);
	startFakeLlm({ port }).then(
		(llm) => console.log(`fake chat model on ${llm.url} (Base URL of an OpenAI credential)`),
		(e) => {
			console.error(e.message);
			process.exit(1);
		},
	);
}
