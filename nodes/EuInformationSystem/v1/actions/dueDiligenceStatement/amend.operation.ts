import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { OperationModule } from '../../../../shared/descriptions/operationModule';
import { readStatusAnswer } from '../../../../shared/dds/answers';
import { statementsByUuid } from '../../../../shared/dds/euReads';
import { amendDdsBody } from '../../../../shared/dds/requests';
import type { StatementOverview } from '../../../../shared/dds/statement';
import { runItems } from '../../../../shared/runner';
import { resendAfterRateRefusal } from '../../../../shared/transport/euRefusal';
import {
	checkedOverview,
	readAfterChange,
	recheckRefusedChange,
	sentChange,
} from '../statements/changeCheck';
import type { ChangeRow } from '../statements/fields';
import { changeFields, overviewJson, readChangeRow, uuidField } from '../statements/fields';
import { outputAs, outputModeField, outputModeOf } from '../statements/rowsOut';
import { statementBatches } from '../statements/statementChecks';

const displayOptions = { show: { resource: ['dueDiligenceStatement'], operation: ['amend'] } };

export const description = [
	...changeFields(
		displayOptions,
		'Statement UUID',
		'The uuid of the statement to amend, as Submit output it. Amend replaces the WHOLE statement with the one the fields below describe; it is allowed within 72 hours of submission, for a statement that is not grouped, without changing the activity type.',
	),
	...updateDisplayOptions(displayOptions, [outputModeField('dds', 'the rows it was made from')]),
];

export const execute: OperationModule['execute'] = async function (items) {
	const mode = outputModeOf(this);
	const statements = await runItems<ChangeRow>(this, items, {
		prepare: (i, problems) => readChangeRow(this, i, problems, uuidField, 'amend'),
		plan: async (ready) =>
			await statementBatches(this, ready, {
				bodyOf: (g, preparedOf) => {
					const uuids = [...new Set(g.items.map((i) => preparedOf(i).uuid))];
					if (uuids.length > 1)
						throw new Error(
							`its rows name different Statement UUIDs (${uuids.join(', ')}); the rows of one statement must name the same UUID.`,
						);
					return amendDdsBody(uuids[0], g.statement);
				},
				requireReference: false,
				send: async (s, first) => {
					const itemIndex = s.items[0];
					const before = await checkedOverview(this, {
						action: 'amend',
						uuid: first.uuid,
						itemIndex,
						newActivityType: s.statement.activityType,
					});
					// refused for the rate limit: sent again after a fresh read (the same version);
					// refused by the EU otherwise: its error says what the node knows (sentChange)
					const answer = await resendAfterRateRefusal(
						this,
						async () =>
							readStatusAnswer(
								(
									await sentChange(this, before, {
										service: 'dds',
										operation: 'amendDds',
										body: s.body,
										itemIndex,
									})
								).element,
							),
						async () =>
							await recheckRefusedChange(this, {
								kind: 'dds',
								action: 'amend',
								uuid: first.uuid,
								itemIndex,
								before,
							}),
					);
					if (answer.uuid !== first.uuid)
						throw new NodeOperationError(
							this.getNode(),
							`The EU Information System answered the amendment of ${first.uuid} with another UUID (${answer.uuid})`,
							{
								itemIndex,
								description: 'Get both statements to see which one holds the amendment.',
							},
						);
					// The numbers it has: the statement read again, else as read before the amendment
					// (which keeps the reference number, pack §5); its date and version then unknown.
					const after = await readAfterChange(
						async () => await statementsByUuid(this, [first.uuid], itemIndex),
						before,
					);
					const overview: StatementOverview = {
						...(after.overview ?? { ...before, date: null, updatedBy: null, version: null }),
						uuid: answer.uuid,
						status: answer.status,
						internalReferenceNumber: after.overview?.internalReferenceNumber ?? s.internalReference,
					};
					const json: IDataObject = { ...overviewJson(overview, first.simplify), amended: true };
					if (!after.overview && overview.referenceNumber !== null)
						json.numbersNote = `The reference and verification numbers are those the EU Information System showed just before the amendment (an amendment keeps the reference number); ${after.why}. Get the statement to confirm them.`;
					return [{ item: s.items, json }];
				},
			}),
	});
	return await outputAs(this, mode, 'dds', items, statements);
};
