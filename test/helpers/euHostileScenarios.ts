/**
 * What a child process with a bounded heap (boundedChild.ts) runs against the EU fake started
 * by the test (its URL and user passed in): the EU Information System node's Get Content, or
 * the EU Information System Trigger's polls, through n8n's engine; then what n8n does with the
 * result (a deep copy, saving the run as JSON). The result says whether that worked and what
 * came out, in a few numbers and texts (never the whole output).
 */
import type { IDataObject } from 'n8n-workflow';
import { deepCopy } from 'n8n-workflow';

import { euStore, runEu } from '../integration/euInformationSystem/helpers';
import { EU_TRIGGER } from '../integration/euTrigger/helpers';
import { runPoll } from './poll';

interface User {
	username: string;
	key: string;
	clientId: string;
}

export type Scenario =
	| {
			kind: 'getContent';
			url: string;
			user: User;
			resource: 'dueDiligenceStatement' | 'simplifiedDeclaration';
			referenceNumber: string;
			verificationNumber: string;
	  }
	| { kind: 'poll'; url: string; user: User; prefix: string; polls: number };

/** Whether n8n can keep it: its deep copy and its JSON (what the execution is saved as). */
function saved(value: unknown): { bytes: number } | { error: string } {
	try {
		return { bytes: Buffer.byteLength(JSON.stringify(deepCopy(value as object))) };
	} catch (error) {
		return { error: String((error as Error).message) };
	}
}

/** Every object with a geometryGeojson key in the output, as { null?, problem }. */
function geolocations(value: unknown, out: Array<{ isNull: boolean; problem?: unknown }> = []) {
	const stack = [value];
	while (stack.length > 0 && out.length < 50) {
		const v = stack.pop();
		if (!v || typeof v !== 'object') continue;
		const o = v as Record<string, unknown>;
		if (Object.hasOwn(o, 'geometryGeojson'))
			out.push({ isNull: o.geometryGeojson === null, problem: o.geometryGeojsonProblem });
		else stack.push(...Object.values(o));
	}
	return out;
}

export async function run(s: Scenario) {
	const store = euStore(s.url, s.user);
	if (s.kind === 'getContent') {
		const result = await runEu({
			parameters: {
				resource: s.resource,
				operation: 'getContent',
				referenceNumber: s.referenceNumber,
				verificationNumber: s.verificationNumber,
			},
			store,
		});
		return {
			error: result.error?.message,
			items: result.items.length,
			internalReferenceNumber: result.items[0]?.json.internalReferenceNumber,
			geolocations: geolocations(result.items.map((i) => i.json)),
			savedRun: saved(result.run),
		};
	}
	let staticData: IDataObject | undefined;
	const polls = [];
	for (let n = 0; n < s.polls; n++) {
		const result = await runPoll({
			parameters: { internalReferencePrefix: s.prefix },
			store,
			staticData,
			trigger: EU_TRIGGER,
		});
		if (!result.error) staticData = result.staticData;
		polls.push({
			error: result.error?.message,
			items: result.items?.length ?? 0,
			warnings: result.logs.filter((l) => l.level === 'warn').map((l) => l.message.slice(0, 600)),
			staticDataBytes: Buffer.byteLength(JSON.stringify(result.staticData)),
			savedItems: saved(result.items),
		});
	}
	return { polls };
}
