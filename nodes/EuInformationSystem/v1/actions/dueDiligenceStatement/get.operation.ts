import { updateDisplayOptions } from 'n8n-workflow';

import { noticeField } from '../../../../shared/descriptions/noticeField';
import type { OperationModule } from '../../../../shared/descriptions/operationModule';
import type { IdField } from '../../../../shared/descriptions/takeId';
import { takeIdList } from '../../../../shared/descriptions/takeId';
import { statementsByUuid } from '../../../../shared/dds/euReads';
import { MAX_UUIDS_PER_GET } from '../../../../shared/dds/requests';
import { runItems } from '../../../../shared/runner';
import { readSimplify, simplify } from '../statements/fields';
import { uuidBatches } from '../statements/reads';
import { oneStatementPerRow, outputAs, outputModeField, outputModeOf } from '../statements/rowsOut';

const displayOptions = { show: { resource: ['dueDiligenceStatement'], operation: ['get'] } };

/** Said on Get: when asking makes sense (pack §6 "Retrieval and load", §5). */
export const GET_HINT =
	'A new statement is processed by the EU Information System first: ask for its status no sooner than about 30 minutes after submitting. Its reference and verification numbers appear only once its status is AVAILABLE.';

const uuidsField: IdField = { name: 'uuids', label: 'Statement UUIDs', noun: 'statement' };

export const description = updateDisplayOptions(displayOptions, [
	noticeField('getNotice', GET_HINT),
	{
		displayName: 'Statement UUIDs',
		name: 'uuids',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 1f5c2c4e-0d7a-4f7b-9a2e-3c1d2b6e8f90',
		description:
			'The uuid of each statement to get, as Submit output it: one, several comma-separated, or a list from an expression. Outputs one item per statement with its status, reference and verification numbers.',
	},
	simplify,
	outputModeField('dds', 'the items that name it'),
]);

export const execute: OperationModule['execute'] = async function (items) {
	const mode = outputModeOf(this);
	const statements = await runItems(this, items, {
		prepare: (i, problems) =>
			oneStatementPerRow(mode, problems, uuidsField, {
				wanted: takeIdList(this, i, problems, uuidsField).map((uuid) => ({ uuid })),
				simplify: readSimplify(this, i),
			}),
		// The UUIDs of all items, each asked once, at most 100 per call.
		plan: (ready) =>
			uuidBatches(this, ready, {
				max: MAX_UUIDS_PER_GET,
				fetch: async (chunk, item, skipped) =>
					await statementsByUuid(
						this,
						chunk.map((w) => w.uuid),
						item,
						skipped,
					),
				noun: 'statement',
				label: 'Statement UUID',
			}),
	});
	return await outputAs(this, mode, 'dds', items, statements);
};
