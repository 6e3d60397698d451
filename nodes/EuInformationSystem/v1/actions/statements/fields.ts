/** Fields and readings several Due Diligence Statement operations share. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { simplifyField } from '../../../../shared/descriptions/simplifyField';
import type { IdField } from '../../../../shared/descriptions/takeId';
import type { StatementOverview } from '../../../../shared/dds/statement';
import { overviewOutput } from '../../../../shared/dds/statementOutput';

export const uuidField: IdField = { name: 'uuid', label: 'Statement UUID', noun: 'statement' };

export const simplify: INodeProperties = simplifyField(
	true,
	"Whether to output the status, reference and verification numbers first, then the UUID, internal reference, rejection reason and the authority's communication; off: the EU's answer as read, every field",
);

export function readSimplify(ctx: IExecuteFunctions, itemIndex: number): boolean {
	return ctx.getNodeParameter('simplify', itemIndex, true) === true;
}

export function overviewJson(o: StatementOverview, simplified: boolean): IDataObject {
	return overviewOutput(o, simplified) as IDataObject;
}
