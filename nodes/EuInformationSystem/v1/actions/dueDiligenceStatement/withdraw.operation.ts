import type { IDataObject } from 'n8n-workflow';

import type { OperationModule } from '../../../../shared/descriptions/operationModule';
import { takeId } from '../../../../shared/descriptions/takeId';
import { readStatusAnswer } from '../../../../shared/dds/answers';
import { withdrawDdsBody } from '../../../../shared/dds/requests';
import { runItems } from '../../../../shared/runner';
import { resendAfterRateRefusal } from '../../../../shared/transport/euRefusal';
import { checkedOverview, recheckRefusedChange, sentChange } from '../statements/changeCheck';
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
			// a SUBMITTED statement is sent too: the EU decides (it withdrew one live, pack §12);
			// refused for the rate limit: sent again after a fresh read (WITHDRAWN meanwhile: done)
			const answer = await resendAfterRateRefusal(
				this,
				async () =>
					readStatusAnswer(
						(
							await sentChange(this, before, {
								service: 'dds',
								operation: 'withdrawDds',
								body: withdrawDdsBody(uuid),
								itemIndex: i,
							})
						).element,
					),
				async () =>
					await recheckRefusedChange(
						this,
						{ kind: 'dds', action: 'withdraw', uuid, itemIndex: i, before },
						(now) => ({ uuid: now.uuid, status: now.status }),
					),
			);
			const json: IDataObject = overviewJson(
				{ ...before, uuid: answer.uuid, status: answer.status },
				simplified,
			);
			return json;
		},
	});
};
