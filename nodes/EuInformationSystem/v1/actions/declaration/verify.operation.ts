import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { noticeField } from '../../../../shared/descriptions/noticeField';
import type { OperationModule } from '../../../../shared/descriptions/operationModule';
import {
	readVerifyAnswer,
	referenceNumberProblem,
	usableOf,
	verificationNumberProblem,
	verifyDeclarationBody,
	verifyMessage,
} from '../../../../shared/dds/verify';
import type { VerifyAnswer } from '../../../../shared/dds/verify';
import { readXmlText } from '../../../../shared/input';
import { runItems } from '../../../../shared/runner';
import { soapRequest } from '../../../../shared/transport/soapRequest';

const displayOptions = { show: { resource: ['declaration'], operation: ['verify'] } };

/** Said on Verify: what it answers, and that "not found" is an answer. */
export const VERIFY_HINT =
	'Checks each reference number with its verification number (of a due diligence statement or a simplified declaration) in the EU Information System: one output item per input item, with usable true, false, or null when the answer is one this node does not know. A number that matches nothing is an answer (NON_EXISTENT), not an error.';

export const description = updateDisplayOptions(displayOptions, [
	noticeField('verifyNotice', VERIFY_HINT),
	{
		displayName: 'Reference Number',
		name: 'referenceNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 25NLSN6LX69730',
		description:
			"The statement's reference number, as the supplier gave it (on the invoice or in a sheet): type it, or map the sheet's column",
	},
	{
		displayName: 'Verification Number',
		name: 'verificationNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. K7R8LA90',
		description:
			'The verification number the supplier gave with that reference number: type it, or map the sheet’s column',
	},
]);

export const execute: OperationModule['execute'] = async function (items) {
	return await runItems(this, items, {
		prepare: (i, problems) => {
			const referenceNumber = problems.take(
				'Reference Number',
				readXmlText(this.getNodeParameter('referenceNumber', i, '')),
				'no reference number was given. Enter it, or map it from the sheet, e.g. {{ $json.referenceNumber }}.',
			);
			const verificationNumber = problems.take(
				'Verification Number',
				readXmlText(this.getNodeParameter('verificationNumber', i, '')),
				'no verification number was given. Enter it, or map it from the sheet, e.g. {{ $json.verificationNumber }}.',
			);
			const referenceProblem =
				referenceNumber === undefined ? undefined : referenceNumberProblem(referenceNumber);
			if (referenceProblem) problems.field('Reference Number', referenceProblem);
			const verificationProblem =
				verificationNumber === undefined
					? undefined
					: verificationNumberProblem(verificationNumber);
			if (verificationProblem) problems.field('Verification Number', verificationProblem);
			return {
				referenceNumber: referenceNumber ?? '',
				verificationNumber: verificationNumber ?? '',
			};
		},
		run: async (i, { referenceNumber, verificationNumber }) => {
			const ok = await soapRequest.call(this, {
				service: 'verify',
				operation: 'verifyDeclaration',
				body: verifyDeclarationBody(referenceNumber, verificationNumber),
				idempotent: true,
				itemIndex: i,
			});
			let answer: VerifyAnswer;
			try {
				answer = readVerifyAnswer(ok.element);
			} catch (error) {
				throw new NodeOperationError(
					this.getNode(),
					`The EU Information System's answer to Verify for reference number ${referenceNumber} could not be read: ${(error as Error).message}`,
					{
						itemIndex: i,
						description:
							'Nothing was changed (Verify only reads). Run it again; if it keeps happening, the EU may have changed its answer: report it with this message.',
					},
				);
			}
			const json: IDataObject = {
				referenceNumber,
				verificationNumber,
				result: answer.result,
				usable: usableOf(answer.result),
				status: answer.status,
				checkedAt: answer.dateTime,
				message: verifyMessage(referenceNumber, verificationNumber, answer),
			};
			return json;
		},
	});
};
