import type { IDataObject } from 'n8n-workflow';

import type { OperationModule } from '../../../../shared/descriptions/operationModule';
import { takeId } from '../../../../shared/descriptions/takeId';
import { readStatusAnswer } from '../../../../shared/dds/answers';
import { withdrawDdsBody } from '../../../../shared/dds/requests';
import { runItems } from '../../../../shared/runner';
import { checkedOverview, sentChange } from '../statements/changeCheck';
import { changeFields, overviewJson, readSimplify, uuidField } from '../statements/fields';

const displayOptions = { show: { resource: ['dueDiligenceStatement'], operation: ['withdraw'] } };

export const description = changeFields(
	displayOptions,
	'Statement UUID',
	'The uuid of the statement to withdraw, as Submit output it. Allowed within 72 hours of submission, for a statement that is not grouped; a statement still SUBMITTED is sent too (the EU decides).',
);

export const execute: OperationModule['execute'] = async function (items) {
	return await runItems(this, items, {
		prepare: (i, problems) => {
			const uuid = takeId(this, i, problems, uuidField);
			return { uuid, simplify: readSimplify(this, i) };
		},
		run: async (i, { uuid, simplify: simplified }) => {
			const before = await checkedOverview(this, { action: 'withdraw', uuid, itemIndex: i });
			// a SUBMITTED statement is sent too: the EU decides (it withdrew one live, pack §12)
			const ok = await sentChange(this, before, {
				service: 'dds',
				operation: 'withdrawDds',
				body: withdrawDdsBody(uuid),
				itemIndex: i,
			});
			const answer = readStatusAnswer(ok.element);
			const json: IDataObject = overviewJson(
				{ ...before, uuid: answer.uuid, status: answer.status },
				simplified,
			);
			return json;
		},
	});
};
