import { resourceDescription } from '../../../../shared/descriptions/operationSelector';
import type { OperationsOf } from '../node.type';
import { settingsLast } from '../statements/settingsLast';
import { declarationFields } from '../statements/statementFields';
import * as get from './get.operation';
import * as getByInternalReference from './getByInternalReference.operation';
import * as getContent from './getContent.operation';
import * as submit from './submit.operation';
import * as update from './update.operation';
import * as withdraw from './withdraw.operation';

export const operations: OperationsOf<'simplifiedDeclaration'> = {
	submit,
	update,
	withdraw,
	get,
	getByInternalReference,
	getContent,
};

export const description = settingsLast(
	[
		...resourceDescription(
			'simplifiedDeclaration',
			'submit',
			[
				{
					name: 'Submit',
					value: 'submit',
					description:
						'File one simplified declaration per Internal Reference from the input rows (one row per commodity, plot, address or cadastral parcel). Exactly once: the Internal Reference is looked up first, and a declaration already filed is returned instead of filed again.',
					action: 'Submit a simplified declaration',
				},
				{
					name: 'Update',
					value: 'update',
					description:
						'Replace a filed simplified declaration with the complete declaration the fields describe, as a new version',
					action: 'Update a simplified declaration',
				},
				{
					name: 'Withdraw',
					value: 'withdraw',
					description: 'Withdraw a filed simplified declaration',
					action: 'Withdraw a simplified declaration',
				},
				{
					name: 'Get',
					value: 'get',
					description:
						'Get the status, version, reference and verification numbers of simplified declarations by their UUIDs',
					action: 'Get simplified declarations',
				},
				{
					name: 'Get by Internal Reference',
					value: 'getByInternalReference',
					description: 'Get every simplified declaration whose Internal Reference contains a text',
					action: 'Get simplified declarations by internal reference',
				},
				{
					name: 'Get Content',
					value: 'getContent',
					description:
						'Get the full content of a simplified declaration (geolocation decoded) by its reference and verification numbers',
					action: 'Get the content of a simplified declaration',
				},
			],
			operations,
		),
		...declarationFields('sd'),
	],
	'update',
);
