import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { noticeField } from '../../../../shared/descriptions/noticeField';
import type { OperationModule } from '../../../../shared/descriptions/operationModule';
import type { IdField } from '../../../../shared/descriptions/takeId';
import { takeIdList } from '../../../../shared/descriptions/takeId';
import { statementsByUuid } from '../../../../shared/dds/euReads';
import { MAX_UUIDS_PER_GET } from '../../../../shared/dds/requests';
import type { Batch, BatchOutput } from '../../../../shared/runner';
import { runItems } from '../../../../shared/runner';
import { overviewJson, readSimplify, simplify } from '../statements/fields';

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
]);

export const execute: OperationModule['execute'] = async function (items) {
	return await runItems(this, items, {
		prepare: (i, problems) => ({
			uuids: takeIdList(this, i, problems, uuidsField),
			simplify: readSimplify(this, i),
		}),
		// The UUIDs of all items, each asked once, at most 100 per call.
		plan: (ready) => {
			const askedBy = new Map<string, number[]>();
			const simplifyOf = new Map(ready.map((r) => [r.itemIndex, r.value.simplify]));
			for (const { itemIndex, value } of ready)
				for (const uuid of value.uuids) {
					const asking = askedBy.get(uuid) ?? [];
					if (!asking.includes(itemIndex)) asking.push(itemIndex);
					askedBy.set(uuid, asking);
				}
			const all = [...askedBy.keys()];
			const batches: Batch[] = [];
			for (let at = 0; at < all.length; at += MAX_UUIDS_PER_GET) {
				const chunk = all.slice(at, at + MAX_UUIDS_PER_GET);
				const chunkItems = [...new Set(chunk.flatMap((u) => askedBy.get(u)!))].sort(
					(a, b) => a - b,
				);
				batches.push({
					items: chunkItems,
					send: async () => {
						const found = await statementsByUuid(this, chunk, chunkItems[0]);
						const outputs: BatchOutput[] = [];
						for (const uuid of chunk) {
							const asking = askedBy.get(uuid)!;
							const overviews = found.filter((o) => o.uuid === uuid);
							if (overviews.length === 0) {
								for (const item of asking)
									outputs.push({
										item,
										error: new NodeOperationError(
											this.getNode(),
											`No statement with UUID ${uuid} is visible to this account in the EU Information System`,
											{
												itemIndex: item,
												description:
													'Check the Statement UUID (the uuid Submit output) and that the credential is the one of the operator that filed it.',
											},
										),
									});
								continue;
							}
							for (const o of overviews)
								outputs.push({
									item: asking.length === 1 ? asking[0] : asking,
									json: overviewJson(o, simplifyOf.get(asking[0]) ?? true),
								});
						}
						return outputs;
					},
				});
			}
			return batches;
		},
	});
};
