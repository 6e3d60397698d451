import { resourceDescription } from '../../../../shared/descriptions/operationSelector';
import type { OperationsOf } from '../node.type';
import * as amend from './amend.operation';
import * as get from './get.operation';
import * as getByInternalReference from './getByInternalReference.operation';
import * as getContent from './getContent.operation';
import { settingsLast } from '../statements/settingsLast';
import { statementFields } from '../statements/statementFields';
import * as submit from './submit.operation';
import * as withdraw from './withdraw.operation';

export const operations: OperationsOf<'dueDiligenceStatement'> = {
	submit,
	amend,
	withdraw,
	get,
	getByInternalReference,
	getContent,
};

export const description = settingsLast(
	[
		...resourceDescription(
			'dueDiligenceStatement',
			'submit',
			[
				{
					name: 'Submit',
					value: 'submit',
					description:
						'File one statement per Internal Reference from the input rows (one row per commodity or plot). Exactly once: the Internal Reference is looked up first, and a statement already filed is returned instead of filed again.',
					action: 'Submit a due diligence statement',
				},
				{
					name: 'Amend',
					value: 'amend',
					description:
						'Replace a filed statement with the complete statement the fields describe, within 72 hours of its submission',
					action: 'Amend a due diligence statement',
				},
				{
					name: 'Withdraw',
					value: 'withdraw',
					description: 'Withdraw a filed statement, within 72 hours of its submission',
					action: 'Withdraw a due diligence statement',
				},
				{
					name: 'Get',
					value: 'get',
					description:
						'Get the status, reference and verification numbers of statements by their UUIDs',
					action: 'Get due diligence statements',
				},
				{
					name: 'Get by Internal Reference',
					value: 'getByInternalReference',
					description: 'Get every statement whose Internal Reference contains a text',
					action: 'Get due diligence statements by internal reference',
				},
				{
					name: 'Get Content',
					value: 'getContent',
					description:
						'Get the full content of a statement (geolocation decoded) by its reference and verification numbers',
					action: 'Get the content of a due diligence statement',
				},
			],
			operations,
		),
		...statementFields,
	],
	'amend',
);
