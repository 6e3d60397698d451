/**
 * Before Amend or Withdraw (DDS), Update or Withdraw (SD): the statement as the EU shows it
 * now (a fresh getDds / getSd of its UUID), and the refusal the EU would give (DDS: 72-hour
 * window from submission, grouped, status, activity type change; SD: grouped, status) said
 * before anything is sent.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { filedActivityType, statementsByUuid } from '../../../../shared/dds/euReads';
import { changeRefusal } from '../../../../shared/dds/rules';
import { declarationsByUuid } from '../../../../shared/dds/sdReads';
import { sdChangeRefusal } from '../../../../shared/dds/sdRules';
import type { ActivityType, StatementOverview } from '../../../../shared/dds/statement';
import { describeStatement } from '../../../../shared/dds/statementOutput';

interface Check {
	uuid: string;
	itemIndex: number;
	verb: string;
	/** "statement" / "declaration", and its UUID field's label. */
	noun: string;
	label: string;
}

function notVisible(ctx: IExecuteFunctions, c: Check): NodeOperationError {
	return new NodeOperationError(
		ctx.getNode(),
		`No ${c.noun} with UUID ${c.uuid} is visible to this account in the EU Information System, so it cannot be ${c.verb}`,
		{
			itemIndex: c.itemIndex,
			description: `Nothing was sent. Check the ${c.label} (the uuid Submit output) and that the credential is the one of the operator that filed it.`,
		},
	);
}

function refused(
	ctx: IExecuteFunctions,
	c: Check,
	found: StatementOverview,
	refusal: string,
): NodeOperationError {
	return new NodeOperationError(
		ctx.getNode(),
		`The ${c.noun} ${c.uuid} cannot be ${c.verb}: ${refusal}`,
		{
			itemIndex: c.itemIndex,
			description: `Nothing was sent. The ${c.noun}: ${describeStatement(found)}.`,
		},
	);
}

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
	const check: Check = { ...o, verb, noun: 'statement', label: 'Statement UUID' };
	if (!found) throw notVisible(ctx, check);
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
	if (refusal) throw refused(ctx, check, found, refusal);
	return found;
}

/** The SD's check before Update or Withdraw: visible, AVAILABLE and not grouped. */
export async function checkedDeclaration(
	ctx: IExecuteFunctions,
	o: { action: 'update' | 'withdraw'; uuid: string; itemIndex: number },
): Promise<StatementOverview> {
	// the current version: the highest the EU lists (an unknown version counts as the lowest)
	const found = (await declarationsByUuid(ctx, [{ uuid: o.uuid }], o.itemIndex))
		.filter((s) => s.uuid === o.uuid)
		.sort((a, b) => (Number(b.version) || 0) - (Number(a.version) || 0))[0];
	const verb = o.action === 'update' ? 'updated' : 'withdrawn';
	const check: Check = { ...o, verb, noun: 'declaration', label: 'Declaration UUID' };
	if (!found) throw notVisible(ctx, check);
	const refusal = sdChangeRefusal({ action: o.action, overview: found });
	if (refusal) throw refused(ctx, check, found, refusal);
	return found;
}
