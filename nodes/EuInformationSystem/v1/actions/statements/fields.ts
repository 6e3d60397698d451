/** Fields and readings several Due Diligence Statement operations share. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { idField } from '../../../../shared/descriptions/idField';

import { simplifyField } from '../../../../shared/descriptions/simplifyField';
import type { IdField } from '../../../../shared/descriptions/takeId';
import { takeId } from '../../../../shared/descriptions/takeId';
import type { StatementOverview } from '../../../../shared/dds/statement';
import { overviewOutput } from '../../../../shared/dds/statementOutput';
import type { Problems } from '../../../../shared/runner';
import type { StatementRow } from './statementRows';
import { readStatementRow } from './statementRows';

export const uuidField: IdField = { name: 'uuid', label: 'Statement UUID', noun: 'statement' };

export const simplify: INodeProperties = {
	...simplifyField(
		true,
		"Whether to output the status, reference and verification numbers first, then the UUID, internal reference, rejection reason and the authority's communication; off: the EU's answer as read, every field",
	),
	// rows get the statement's fields by name, whatever Simplify says (rowsOut.ts)
	displayOptions: { hide: { outputMode: ['inputRows'] } },
};

export function readSimplify(ctx: IExecuteFunctions, itemIndex: number): boolean {
	return ctx.getNodeParameter('simplify', itemIndex, true) === true;
}

/** An overview as output; `version`: the simplified output keeps the version (the SD's). */
export function overviewJson(
	o: StatementOverview,
	simplified: boolean,
	version = false,
): IDataObject {
	return overviewOutput(o, simplified, version) as IDataObject;
}

export const declarationUuidField: IdField = {
	name: 'uuid',
	label: 'Declaration UUID',
	noun: 'declaration',
};

/** The fields of a change of one filed statement (Amend, Update, Withdraw): its UUID, Simplify. */
export function changeFields(show: object, label: string, description: string): INodeProperties[] {
	return updateDisplayOptions(show, [
		idField(label, 'uuid', 'e.g. 1f5c2c4e-0d7a-4f7b-9a2e-3c1d2b6e8f90', description),
		simplify,
	]);
}

/** What Amend and Update read of an item: the UUID to change and the statement's row. */
export interface ChangeRow {
	uuid: string;
	row: StatementRow;
	simplify: boolean;
}

export function readChangeRow(
	ctx: IExecuteFunctions,
	i: number,
	problems: Problems,
	field: IdField,
	operation: 'amend' | 'update',
): ChangeRow {
	return {
		uuid: takeId(ctx, i, problems, field),
		row: readStatementRow(ctx, i, problems, operation),
		simplify: readSimplify(ctx, i),
	};
}
