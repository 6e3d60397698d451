import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { OperationModule } from '../../../../shared/descriptions/operationModule';
import { readSdStatusAnswer } from '../../../../shared/dds/answers';
import { declarationsByUuid } from '../../../../shared/dds/sdReads';
import { updateSdBody } from '../../../../shared/dds/sdRequests';
import type { StatementOverview } from '../../../../shared/dds/statement';
import { runItems } from '../../../../shared/runner';
import { resendAfterRateRefusal } from '../../../../shared/transport/euRefusal';
import { soapRequest } from '../../../../shared/transport/soapRequest';
import {
	checkedDeclaration,
	readAfterChange,
	recheckRefusedChange,
} from '../statements/changeCheck';
import type { ChangeRow } from '../statements/fields';
import {
	changeFields,
	declarationUuidField,
	overviewJson,
	readChangeRow,
} from '../statements/fields';
import { SD_KIND, toDeclaration } from '../statements/sdDeclaration';
import { outputAs, outputModeField, outputModeOf } from '../statements/rowsOut';
import { statementBatches } from '../statements/statementChecks';

const displayOptions = { show: { resource: ['simplifiedDeclaration'], operation: ['update'] } };

export const description = [
	...changeFields(
		displayOptions,
		'Declaration UUID',
		'The uuid of the simplified declaration to update, as Submit output it. Update replaces the WHOLE declaration with the one the fields below describe and makes a new version of it; it is allowed for an AVAILABLE declaration that is not grouped into another one.',
	),
	...updateDisplayOptions(displayOptions, [outputModeField('sd', 'the rows it was made from')]),
];

export const execute: OperationModule['execute'] = async function (items) {
	const mode = outputModeOf(this);
	const declarations = await runItems<ChangeRow>(this, items, {
		prepare: (i, problems) => readChangeRow(this, i, problems, declarationUuidField, 'update'),
		// Every declaration is checked (rules, size) before anything is sent.
		plan: async (ready) =>
			await statementBatches(this, ready, {
				kind: SD_KIND,
				bodyOf: (g, preparedOf) => {
					const uuids = [...new Set(g.items.map((i) => preparedOf(i).uuid))];
					if (uuids.length > 1)
						throw new Error(
							`its rows name different Declaration UUIDs (${uuids.join(', ')}); the rows of one declaration must name the same UUID.`,
						);
					return updateSdBody(uuids[0], toDeclaration(g).declaration);
				},
				requireReference: true,
				send: async (s, first) => {
					const itemIndex = s.items[0];
					const before = await checkedDeclaration(this, {
						action: 'update',
						uuid: first.uuid,
						itemIndex,
					});
					// refused for the rate limit: sent again after a fresh read (the same version)
					const answer = await resendAfterRateRefusal(
						this,
						async () =>
							readSdStatusAnswer(
								(
									await soapRequest.call(this, {
										service: 'sd',
										operation: 'updateSd',
										body: s.body,
										idempotent: false,
										itemIndex,
									})
								).element,
							),
						async () =>
							await recheckRefusedChange(this, {
								kind: 'sd',
								action: 'update',
								uuid: first.uuid,
								itemIndex,
								before,
							}),
					);
					if (answer.uuid !== first.uuid)
						throw new NodeOperationError(
							this.getNode(),
							`The EU Information System answered the update of ${first.uuid} with another UUID (${answer.uuid})`,
							{
								itemIndex,
								description: 'Get both declarations to see which one holds the update.',
							},
						);
					// The numbers of the new version as the EU shows it read again; none are claimed
					// when that read does not show the new version (or fails: the update is done).
					const after = await readAfterChange(
						async () => await declarationsByUuid(this, [{ uuid: first.uuid }], itemIndex),
						before,
					);
					const overview: StatementOverview = {
						...(after.overview ?? {
							...before,
							referenceNumber: null,
							verificationNumber: null,
							rejectionReason: null,
							communicationToOperator: null,
							date: null,
							updatedBy: null,
						}),
						uuid: answer.uuid,
						status: answer.status,
						version: answer.version ?? after.overview?.version ?? null,
						internalReferenceNumber: after.overview?.internalReferenceNumber ?? s.internalReference,
					};
					const json: IDataObject = {
						...overviewJson(overview, first.simplify, true),
						updated: true,
					};
					if (first.simplify && !after.overview)
						json.numbersNote = `The EU Information System made version ${answer.version ?? '(not said)'} of the declaration (status ${answer.status}); ${after.why}. Get it to see its reference and verification numbers.`;
					return [{ item: s.items, json }];
				},
			}),
	});
	return await outputAs(this, mode, 'sd', items, declarations);
};
