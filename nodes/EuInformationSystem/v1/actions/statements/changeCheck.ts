/**
 * Before Amend or Withdraw: the statement as the EU shows it now (a fresh getDds of its
 * UUID), and the refusal the EU would give (72-hour window from submission, grouped,
 * status, activity type change) said before anything is sent.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { filedActivityType, statementsByUuid } from '../../../../shared/dds/euReads';
import { changeRefusal } from '../../../../shared/dds/rules';
import type { ActivityType, StatementOverview } from '../../../../shared/dds/statement';
import { describeStatement } from '../../../../shared/dds/statementOutput';

export async function checkedOverview(
	ctx: IExecuteFunctions,
	o: {
		action: 'amend' | 'withdraw';
		uuid: string;
		itemIndex: number;
		newActivityType?: ActivityType;
	},
): Promise<StatementOverview> {
	const found = (await statementsByUuid(ctx, [o.uuid], o.itemIndex)).find((s) => s.uuid === o.uuid);
	const verb = o.action === 'amend' ? 'amended' : 'withdrawn';
	if (!found)
		throw new NodeOperationError(
			ctx.getNode(),
			`No statement with UUID ${o.uuid} is visible to this account in the EU Information System, so it cannot be ${verb}`,
			{
				itemIndex: o.itemIndex,
				description:
					'Nothing was sent. Check the Statement UUID (the uuid Submit output) and that the credential is the one of the operator that filed it.',
			},
		);
	// the activity type may not change on amend: the overview does not carry it, the content does
	const previous =
		o.action === 'amend' && o.newActivityType
			? await filedActivityType(ctx, found, o.itemIndex)
			: undefined;
	const refusal = changeRefusal({
		action: o.action,
		overview: found,
		now: new Date(Date.now()),
		newActivityType: o.newActivityType,
		previousActivityType: previous as ActivityType | undefined,
	});
	if (refusal)
		throw new NodeOperationError(
			ctx.getNode(),
			`The statement ${o.uuid} cannot be ${verb}: ${refusal}`,
			{
				itemIndex: o.itemIndex,
				description: `Nothing was sent. The statement: ${describeStatement(found)}.`,
			},
		);
	return found;
}
