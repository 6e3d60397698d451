import type { IDataObject } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { OperationModule } from '../../../../shared/descriptions/operationModule';
import { optionsCollection } from '../../../../shared/descriptions/optionsCollection';
import { statementsByInternalReference } from '../../../../shared/dds/euReads';
import { exactReferenceMatches } from '../../../../shared/dds/statementOutput';
import { readText } from '../../../../shared/input';
import { runItems } from '../../../../shared/runner';
import { overviewJson, readSimplify, simplify } from '../statements/fields';

const displayOptions = {
	show: { resource: ['dueDiligenceStatement'], operation: ['getByInternalReference'] },
};

export const description = updateDisplayOptions(displayOptions, [
	{
		displayName: 'Internal Reference',
		name: 'internalReference',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. PO-2026-0042',
		description:
			'The Internal Reference the statements were filed with. The EU Information System finds every statement whose Internal Reference CONTAINS this text, in any case (3 to 50 characters); one item is output per statement.',
	},
	simplify,
	optionsCollection([
		{
			displayName: 'Exact Match Only',
			name: 'exactOnly',
			type: 'boolean',
			default: false,
			description:
				'Whether to output only the statements whose Internal Reference is exactly this text (same case), not every statement that contains it',
		},
	]),
]);

export const execute: OperationModule['execute'] = async function (items) {
	return await runItems(this, items, {
		prepare: (i, problems) => {
			const reference = problems.take(
				'Internal Reference',
				readText(this.getNodeParameter('internalReference', i, '')),
				'no Internal Reference was given. Enter it, or map it, e.g. {{ $json.internalReference }}.',
			);
			if (reference !== undefined && (reference.length < 3 || reference.length > 50))
				problems.field(
					'Internal Reference',
					`"${reference}" has ${reference.length} characters; the EU Information System searches with 3 to 50.`,
				);
			const options = this.getNodeParameter('options', i, {}) as IDataObject;
			return {
				reference: reference ?? '',
				exactOnly: options.exactOnly === true,
				simplify: readSimplify(this, i),
			};
		},
		run: async (i, { reference, exactOnly, simplify: simplified }) => {
			const found = await statementsByInternalReference(this, reference, i);
			const kept = exactOnly ? exactReferenceMatches(found, reference) : found;
			return kept.map((o) => overviewJson(o, simplified));
		},
	});
};
