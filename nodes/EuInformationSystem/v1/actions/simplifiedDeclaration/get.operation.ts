import type { IDataObject } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { noticeField } from '../../../../shared/descriptions/noticeField';
import type { OperationModule } from '../../../../shared/descriptions/operationModule';
import { optionsCollection } from '../../../../shared/descriptions/optionsCollection';
import type { IdField } from '../../../../shared/descriptions/takeId';
import { takeIdList } from '../../../../shared/descriptions/takeId';
import { declarationsByUuid } from '../../../../shared/dds/sdReads';
import { MAX_SD_PER_GET } from '../../../../shared/dds/sdRequests';
import { readNumber } from '../../../../shared/input';
import { runItems } from '../../../../shared/runner';
import { readSimplify, simplify } from '../statements/fields';
import { uuidBatches } from '../statements/reads';
import { oneStatementPerRow, outputAs, outputModeField, outputModeOf } from '../statements/rowsOut';

const displayOptions = { show: { resource: ['simplifiedDeclaration'], operation: ['get'] } };

/** Said on Get: when asking makes sense (pack §6 "Retrieval and load", §5). */
export const SD_GET_HINT =
	'A new declaration is processed by the EU Information System first: ask for its status no sooner than about 30 minutes after submitting. Its reference and verification numbers appear only once its status is AVAILABLE.';

const uuidsField: IdField = { name: 'uuids', label: 'Declaration UUIDs', noun: 'declaration' };

export const description = updateDisplayOptions(displayOptions, [
	noticeField('sdGetNotice', SD_GET_HINT),
	{
		displayName: 'Declaration UUIDs',
		name: 'uuids',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 1f5c2c4e-0d7a-4f7b-9a2e-3c1d2b6e8f90',
		description:
			'The uuid of each simplified declaration to get, as Submit output it: one, several comma-separated, or a list from an expression. Outputs one item per declaration with its status, version, reference and verification numbers.',
	},
	simplify,
	outputModeField('sd', 'the items that name it'),
	optionsCollection([
		{
			displayName: 'Version',
			name: 'version',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 1,
			description:
				'Get this version of each declaration (Update makes a new version) instead of its current one',
		},
	]),
]);

export const execute: OperationModule['execute'] = async function (items) {
	const mode = outputModeOf(this);
	const declarations = await runItems(this, items, {
		prepare: (i, problems) => {
			const options = this.getNodeParameter('options', i, {}) as IDataObject;
			const version =
				options.version === undefined
					? undefined
					: problems.take(
							'Version',
							readNumber(options.version, {
								min: 1,
								max: 1_000_000,
								integer: true,
								label: 'Version',
							}),
						);
			return oneStatementPerRow(mode, problems, uuidsField, {
				wanted: takeIdList(this, i, problems, uuidsField).map((uuid) => ({
					uuid,
					...(version !== undefined ? { version } : {}),
				})),
				simplify: readSimplify(this, i),
			});
		},
		// The UUIDs (and versions) of all items, each asked once, at most 100 per call.
		plan: (ready) =>
			uuidBatches(this, ready, {
				max: MAX_SD_PER_GET,
				fetch: async (chunk, item, skipped) => await declarationsByUuid(this, chunk, item, skipped),
				noun: 'declaration',
				label: 'Declaration UUID',
				version: true,
			}),
	});
	return await outputAs(this, mode, 'sd', items, declarations);
};
