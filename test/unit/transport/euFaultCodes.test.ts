import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	EU_CODE_SENTENCES,
	EU_CODES_WITHOUT_SENTENCE,
	euCodeSentence,
	normaliseEuCode,
} from '../../../nodes/shared/transport/euFaultCodes';

const codes = readFileSync(
	join(__dirname, '../../fixtures/eu-information-system/codes-from-pack.txt'),
	'utf8',
)
	.split('\n')
	.map((l) => l.trim())
	.filter((l) => l && !l.startsWith('#'));

describe('EU fault codes', () => {
	it('normalises hyphens and case', () => {
		expect(normaliseEuCode(' eudr-api-no-dds ')).toBe('EUDR_API_NO_DDS');
	});

	it('has a sentence for every code of the pack, or lists it deliberately', () => {
		expect(codes.length).toBeGreaterThan(40);
		const missing = codes.filter(
			(c) =>
				euCodeSentence(c) === undefined && !EU_CODES_WITHOUT_SENTENCE.includes(normaliseEuCode(c)),
		);
		expect(missing).toEqual([]);
	});

	it('words every sentence as what happened and what to do', () => {
		for (const sentence of Object.values(EU_CODE_SENTENCES))
			expect(sentence).toMatch(/[.:]$|\.\s*$/);
	});
});
