/**
 * The Verify Declaration service: the request validates against the EU's own XSD (and is
 * refused by it past the facets we check before sending); the answers of the EU's samples
 * (test/fixtures/eu-information-system/answers/verify-*.xml) and our variants are read
 * tolerantly; NON_EXISTENT is an answer; every answer is said in plain words.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { AnswerShapeError } from '../../../nodes/shared/dds/answers';
import {
	MAX_REFERENCE_NUMBER,
	MAX_VERIFICATION_NUMBER,
	MIN_VERIFICATION_NUMBER,
	VERIFY_NS,
	readVerifyAnswer,
	referenceNumberProblem,
	usableOf,
	verificationNumberProblem,
	verifyDeclarationBody,
	verifyMessage,
} from '../../../nodes/shared/dds/verify';
import { readSoapAnswer } from '../../../nodes/shared/soap/soapAnswer';
import { parseXml } from '../../../nodes/shared/soap/xml';
import type { XmlElement } from '../../../nodes/shared/soap/xmlElement';
import { validateEuXml } from '../../helpers/euXsd';

const DIR = join(__dirname, '..', '..', 'fixtures', 'eu-information-system', 'answers');

function body(file: string): XmlElement {
	const answer = readSoapAnswer(readFileSync(join(DIR, file), 'utf8'));
	if (answer.kind !== 'body') throw new Error(`${file} is not a body answer`);
	return answer.element;
}

function element(xml: string): XmlElement {
	return parseXml(xml);
}

describe('verifyDeclarationBody', () => {
	it('validates against the Verify XSD, numbers in the XSD order', async () => {
		const xml = verifyDeclarationBody('25NLSN6LX69730', 'K7R8LA90');
		expect(await validateEuXml(xml, 'verify')).toEqual({ valid: true, errors: [] });
		const el = element(xml);
		expect(el).toMatchObject({ ns: VERIFY_NS, name: 'VerifyDeclarationRequest' });
		expect(el.children.map((c) => [c.ns, c.name, c.text])).toEqual([
			[VERIFY_NS, 'referenceNumber', '25NLSN6LX69730'],
			[VERIFY_NS, 'verificationNumber', 'K7R8LA90'],
		]);
	});

	it('validates at the facets’ edges and escapes any text', async () => {
		const edges = [
			verifyDeclarationBody('A'.repeat(MAX_REFERENCE_NUMBER), 'V'.repeat(MIN_VERIFICATION_NUMBER)),
			verifyDeclarationBody('<&>"\'', 'V'.repeat(MAX_VERIFICATION_NUMBER)),
		];
		for (const xml of edges) expect((await validateEuXml(xml, 'verify')).valid).toBe(true);
		expect(element(edges[1]).children[0].text).toBe('<&>"\'');
	});

	it('is refused by the XSD past the facets, which the pre-flight refuses first', async () => {
		const cases: Array<[string, string]> = [
			['A'.repeat(MAX_REFERENCE_NUMBER + 1), 'K7R8LA90'],
			['25NLSN6LX69730', 'V'.repeat(MIN_VERIFICATION_NUMBER - 1)],
			['25NLSN6LX69730', 'V'.repeat(MAX_VERIFICATION_NUMBER + 1)],
		];
		for (const [reference, verification] of cases) {
			const judged = await validateEuXml(verifyDeclarationBody(reference, verification), 'verify');
			expect(judged.valid).toBe(false);
			expect(
				referenceNumberProblem(reference) ?? verificationNumberProblem(verification),
			).toBeDefined();
		}
	});
});

describe('the facets checked before sending', () => {
	it('accepts what the XSD accepts, counting characters (not UTF-16 units)', () => {
		expect(referenceNumberProblem('25NLSN6LX69730')).toBeUndefined();
		expect(referenceNumberProblem('😀'.repeat(MAX_REFERENCE_NUMBER))).toBeUndefined();
		expect(verificationNumberProblem('K7R8L')).toBeUndefined();
		expect(verificationNumberProblem('V'.repeat(35))).toBeUndefined();
	});

	it('says what is wrong and what to check', () => {
		expect(referenceNumberProblem('25NLSN6LX697301')).toBe(
			'"25NLSN6LX697301" has 15 characters; a reference number has at most 14 (e.g. 25NLSN6LX69730). Check that the reference number, not the verification number or the internal reference, is mapped here.',
		);
		expect(verificationNumberProblem('K7R8')).toMatch(
			/^"K7R8" has 4 characters; a verification number has 5 to 35/,
		);
		expect(verificationNumberProblem('V'.repeat(36))).toMatch(/has 36 characters/);
		expect(referenceNumberProblem('AB\u0001C')).toMatch(
			/U\+0001 at position 3, which XML cannot carry/,
		);
		expect(verificationNumberProblem('K7R8\u0000LA')).toMatch(/U\+0000/);
	});
});

describe('readVerifyAnswer', () => {
	it('reads the EU’s three samples', () => {
		expect(readVerifyAnswer(body('verify-usable.xml'))).toEqual({
			result: 'EXISTING_USABLE',
			status: 'AVAILABLE',
			dateTime: '2026-05-20T10:00:00.000Z',
		});
		expect(readVerifyAnswer(body('verify-non-usable.xml'))).toEqual({
			result: 'EXISTING_NON_USABLE',
			status: 'WITHDRAWN',
			dateTime: '2026-05-20T10:00:00.000Z',
		});
		expect(readVerifyAnswer(body('verify-non-existent.xml'))).toEqual({
			result: 'NON_EXISTENT',
			status: null,
			dateTime: '2026-05-20T10:00:00.000Z',
		});
	});

	it('passes unknown results and statuses through, in any namespace or prefix; absent → null', () => {
		const xml = `<a:VerifyDeclarationResponse xmlns:a="${VERIFY_NS}" xmlns:b="urn:other"><b:result>EXISTING_PENDING</b:result><a:status>DRAFT</a:status><a:extra>x</a:extra></a:VerifyDeclarationResponse>`;
		expect(readVerifyAnswer(element(xml))).toEqual({
			result: 'EXISTING_PENDING',
			status: 'DRAFT',
			dateTime: null,
		});
		const empty = `<VerifyDeclarationResponse xmlns="${VERIFY_NS}"><result> NON_EXISTENT </result><status/><dateTime/></VerifyDeclarationResponse>`;
		expect(readVerifyAnswer(element(empty))).toEqual({
			result: 'NON_EXISTENT',
			status: null,
			dateTime: null,
		});
	});

	it('refuses an answer without a result (AnswerShapeError)', () => {
		const xml = `<v:VerifyDeclarationResponse xmlns:v="${VERIFY_NS}"><v:status>AVAILABLE</v:status></v:VerifyDeclarationResponse>`;
		expect(() => readVerifyAnswer(element(xml))).toThrow(AnswerShapeError);
		expect(() => readVerifyAnswer(element(xml))).toThrow(/no verification result \(result\)/);
	});

	it('our reading of the samples is what the XSD allows (each sample body validates)', async () => {
		for (const file of ['verify-usable.xml', 'verify-non-usable.xml', 'verify-non-existent.xml']) {
			const text = readFileSync(join(DIR, file), 'utf8');
			const bodyXml =
				/<verify:VerifyDeclarationResponse[\s\S]*<\/verify:VerifyDeclarationResponse>/.exec(
					text,
				)![0];
			expect(await validateEuXml(bodyXml, 'verify')).toEqual({ valid: true, errors: [] });
		}
	});
});

describe('usable and the message', () => {
	it('usable follows the EU’s result only: true, false (not usable or not found), null (unknown)', () => {
		expect(usableOf('EXISTING_USABLE')).toBe(true);
		expect(usableOf('EXISTING_NON_USABLE')).toBe(false);
		expect(usableOf('NON_EXISTENT')).toBe(false);
		expect(usableOf('EXISTING_PENDING')).toBeNull();
		expect(usableOf('')).toBeNull();
	});

	it('says each answer in plain words, naming the numbers', () => {
		const at = '2026-05-20T10:00:00.000Z';
		expect(
			verifyMessage('R1', 'V1234', {
				result: 'EXISTING_USABLE',
				status: 'AVAILABLE',
				dateTime: at,
			}),
		).toBe(
			'The statement with reference number R1 and verification number V1234 exists and can be used (status AVAILABLE).',
		);
		expect(
			verifyMessage('R1', 'V1234', {
				result: 'EXISTING_NON_USABLE',
				status: 'WITHDRAWN',
				dateTime: at,
			}),
		).toBe(
			'The statement with reference number R1 and verification number V1234 exists but cannot be used: its status is WITHDRAWN (it was withdrawn by the operator who filed it). Ask the supplier for a valid statement.',
		);
		expect(
			verifyMessage('R1', 'V1234', {
				result: 'EXISTING_NON_USABLE',
				status: 'NEWSTATUS',
				dateTime: at,
			}),
		).toMatch(/cannot be used: its status is NEWSTATUS\. Ask the supplier/);
		expect(
			verifyMessage('R1', 'V1234', { result: 'EXISTING_NON_USABLE', status: null, dateTime: at }),
		).toMatch(/cannot be used; the EU did not say why\.$/);
		expect(
			verifyMessage('R1', 'V1234', { result: 'NON_EXISTENT', status: null, dateTime: at }),
		).toBe(
			'No statement matches reference number R1 with verification number V1234. Check both numbers with the supplier: the verification number must be the one given with this reference number.',
		);
		expect(
			verifyMessage('R1', 'V1234', { result: 'EXISTING_PENDING', status: 'DRAFT', dateTime: null }),
		).toMatch(
			/answered "EXISTING_PENDING" with status DRAFT .*does not know: check the statement in TRACES/,
		);
	});
});
