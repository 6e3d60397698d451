import type { IDataObject } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { OperationModule } from '../../../../shared/descriptions/operationModule';
import { readStatementContent } from '../../../../shared/dds/answers';
import { getDdsByIdentifiersBody } from '../../../../shared/dds/requests';
import { readText } from '../../../../shared/input';
import { runItems } from '../../../../shared/runner';
import { soapRequest } from '../../../../shared/transport/soapRequest';

const displayOptions = {
	show: { resource: ['dueDiligenceStatement'], operation: ['getContent'] },
};

export const description = updateDisplayOptions(displayOptions, [
	{
		displayName: 'Reference Number',
		name: 'referenceNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 25NLSN6LX69730',
		description: 'The reference number of the statement (shown once it is AVAILABLE)',
	},
	{
		displayName: 'Verification Number',
		name: 'verificationNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. K7R8LA90',
		description: 'The verification number that goes with the reference number',
	},
]);

export const execute: OperationModule['execute'] = async function (items) {
	return await runItems(this, items, {
		prepare: (i, problems) => ({
			referenceNumber:
				problems.take(
					'Reference Number',
					readText(this.getNodeParameter('referenceNumber', i, '')),
					'no reference number was given. Map the referenceNumber Get output, e.g. {{ $json.referenceNumber }}.',
				) ?? '',
			verificationNumber:
				problems.take(
					'Verification Number',
					readText(this.getNodeParameter('verificationNumber', i, '')),
					'no verification number was given. Map the verificationNumber Get output, e.g. {{ $json.verificationNumber }}.',
				) ?? '',
		}),
		run: async (i, { referenceNumber, verificationNumber }) => {
			const ok = await soapRequest.call(this, {
				service: 'dds',
				operation: 'getDdsByIdentifiers',
				body: getDdsByIdentifiersBody(referenceNumber, verificationNumber),
				idempotent: true,
				itemIndex: i,
			});
			const content = readStatementContent(ok.element);
			return { referenceNumber, verificationNumber, ...content } as IDataObject;
		},
	});
};
