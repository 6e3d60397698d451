/**
 * The EU Information System Trigger's `__schema__/v1.0.0.json` (n8n's editor shows its fields
 * before the trigger has run): what it emits at its defaults (a status change with numbers, a
 * rejection, a communication), through n8n's PollContext against the EU fake, recorded with
 * UPDATE_OUTPUT_SCHEMAS=1 (`npm run schemas`), else compared with the committed file.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'fs';
import { dirname, join } from 'path';

import type { IDataObject } from 'n8n-workflow';

import type { FakeEu } from '../../fake-eu';
import { REJECT_MARKER, startFakeEu } from '../../fake-eu';
import type { OutputSchema } from '../../helpers/outputSchema';
import { misfits, schemaOfOutputs } from '../../helpers/outputSchema';
import type { EuClock } from './helpers';
import { MIN, euPoller, euStore, file, followEuClock } from './helpers';

const FILE = join(__dirname, '../../../nodes/EuInformationSystemTrigger/__schema__/v1.0.0.json');
const UPDATE = process.env.UPDATE_OUTPUT_SCHEMAS === '1';

let eu: FakeEu;
let clock: EuClock;
beforeAll(async () => {
	eu = await startFakeEu({ availableAfterMs: MIN });
	clock = followEuClock(eu);
});
afterAll(async () => {
	clock.restore();
	await eu.stop();
});

test('the schema fits what the trigger emits at its defaults', async () => {
	const poller = euPoller(euStore(eu.url, eu.users[0]), 'default');
	const one = await file(eu, 'SHIP-1');
	await file(eu, 'SHIP-2', REJECT_MARKER);
	await poller.poll();
	clock.advance(2 * MIN);
	const outputs: IDataObject[] = ((await poller.poll()).items ?? []).map((i) => i.json);
	eu.events.communicate(one, 'Please send the supplier contract.');
	clock.advance(MIN);
	outputs.push(...((await poller.poll()).items ?? []).map((i) => i.json));
	expect(outputs.map((o) => o.event).sort()).toEqual([
		'communication',
		'statusChange',
		'statusChange',
	]);
	const generated = schemaOfOutputs(outputs);
	if (UPDATE) {
		mkdirSync(dirname(FILE), { recursive: true });
		writeFileSync(FILE, JSON.stringify(generated, null, '\t') + '\n');
	}
	expect(existsSync(FILE)).toBe(true);
	const committed = JSON.parse(readFileSync(FILE, 'utf8')) as OutputSchema;
	expect(outputs.flatMap((json) => misfits(json, committed))).toEqual([]);
	expect(committed).toEqual(generated);
});
