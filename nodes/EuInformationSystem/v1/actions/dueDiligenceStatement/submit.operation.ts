import type { IDataObject } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { OperationModule } from '../../../../shared/descriptions/operationModule';
import { optionsCollection } from '../../../../shared/descriptions/optionsCollection';
import { submitDdsBody } from '../../../../shared/dds/requests';
import type { IfAlreadyFiled } from '../../../../shared/dds/submitOnce';
import { submitOnce } from '../../../../shared/dds/submitOnce';
import { runItems } from '../../../../shared/runner';
import { readSimplify, simplify } from '../statements/fields';
import { statementBatches } from '../statements/statementChecks';
import { readStatementRow } from '../statements/statementFields';

const displayOptions = { show: { resource: ['dueDiligenceStatement'], operation: ['submit'] } };

export const description = updateDisplayOptions(displayOptions, [
	simplify,
	optionsCollection([
		{
			displayName: 'If Already Filed',
			name: 'ifAlreadyFiled',
			type: 'options',
			options: [
				{
					name: 'Return the Existing Statement',
					value: 'returnExisting',
					description:
						'Output the statement filed before with this Internal Reference; send nothing',
				},
				{
					name: 'Fail',
					value: 'fail',
					description: 'Stop with an error naming the statement already filed; send nothing',
				},
			],
			default: 'returnExisting',
			description:
				'What to do when a statement with the same Internal Reference is already filed and neither rejected nor withdrawn. The node looks it up before every submission, so a statement is never filed twice.',
		},
	]),
]);

interface Prepared {
	row: ReturnType<typeof readStatementRow>;
	ifAlreadyFiled: IfAlreadyFiled;
	simplify: boolean;
}

function readIfAlreadyFiled(value: unknown): IfAlreadyFiled | undefined {
	if (value === undefined || value === null || value === '' || value === 'returnExisting')
		return 'returnExisting';
	return value === 'fail' ? 'fail' : undefined;
}

export const execute: OperationModule['execute'] = async function (items) {
	return await runItems<Prepared>(this, items, {
		prepare: (i, problems) => {
			const options = this.getNodeParameter('options', i, {}) as IDataObject;
			const ifAlreadyFiled = readIfAlreadyFiled(options.ifAlreadyFiled);
			if (ifAlreadyFiled === undefined)
				problems.field(
					'If Already Filed',
					'choose "Return the Existing Statement" or "Fail" from the list.',
				);
			return {
				row: readStatementRow(this, i, problems, 'submit'),
				ifAlreadyFiled: ifAlreadyFiled ?? 'returnExisting',
				simplify: readSimplify(this, i),
			};
		},
		// Every statement is checked (rules, size) before anything is sent, lookups included.
		plan: async (ready) =>
			await statementBatches(this, ready, {
				bodyOf: (g) => submitDdsBody(g.role, g.statement),
				requireReference: true,
				send: async (s, first) => {
					const outputs = await submitOnce(this, {
						internalReference: s.internalReference,
						body: s.body,
						itemIndex: s.items[0],
						ifAlreadyFiled: first.ifAlreadyFiled,
						simplify: first.simplify,
						itemsLabel: s.itemsLabel,
					});
					return outputs.map((json) => ({ item: s.items, json: json as IDataObject }));
				},
			}),
		alreadyDone: (succeeded) => {
			if (succeeded.length === 0) return undefined;
			return `Statements already handled in this run (filed or found filed) for items ${succeeded
				.flatMap((b) => b.items)
				.join(
					', ',
				)}: running the workflow again does not file them twice, because the node looks up each Internal Reference before submitting.`;
		},
	});
};
