import type { IDataObject } from 'n8n-workflow';

import type { OperationModule } from '../../../../shared/descriptions/operationModule';
import { takeId } from '../../../../shared/descriptions/takeId';
import { readSdStatusAnswer } from '../../../../shared/dds/answers';
import { withdrawSdBody } from '../../../../shared/dds/sdRequests';
import { runItems } from '../../../../shared/runner';
import { resendAfterRateRefusal } from '../../../../shared/transport/euRefusal';
import { checkedDeclaration, recheckRefusedChange, sentChange } from '../statements/changeCheck';
import {
	changeFields,
	declarationUuidField,
	overviewJson,
	readSimplify,
} from '../statements/fields';

const displayOptions = { show: { resource: ['simplifiedDeclaration'], operation: ['withdraw'] } };

export const description = changeFields(
	displayOptions,
	'Declaration UUID',
	'The uuid of the simplified declaration to withdraw, as Submit output it. Allowed for an AVAILABLE declaration that is not grouped into another one; a declaration still SUBMITTED is sent too (the EU decides).',
);

export const execute: OperationModule['execute'] = async function (items) {
	return await runItems(this, items, {
		prepare: (i, problems) => ({
			uuid: takeId(this, i, problems, declarationUuidField),
			simplified: readSimplify(this, i),
		}),
		run: async (itemIndex, { uuid, simplified }) => {
			// Said before sending: not visible, grouped, or neither AVAILABLE nor SUBMITTED (nothing
			// is sent then); a SUBMITTED one is sent, the EU decides (its text is the DDS's, pack §12).
			const before = await checkedDeclaration(this, { action: 'withdraw', uuid, itemIndex });
			// refused for the rate limit: sent again after a fresh read (WITHDRAWN meanwhile: done)
			const answer = await resendAfterRateRefusal(
				this,
				async () =>
					readSdStatusAnswer(
						(
							await sentChange(
								this,
								before,
								{ service: 'sd', operation: 'withdrawSd', body: withdrawSdBody(uuid), itemIndex },
								'declaration',
							)
						).element,
					),
				async () =>
					await recheckRefusedChange(
						this,
						{ kind: 'sd', action: 'withdraw', uuid, itemIndex, before },
						(now) => ({ uuid: now.uuid, status: now.status, version: now.version }),
					),
			);
			const { uuid: answered, status, version } = answer;
			return overviewJson(
				{ ...before, uuid: answered, status, version: version ?? before.version },
				simplified,
				true,
			) as IDataObject;
		},
	});
};
