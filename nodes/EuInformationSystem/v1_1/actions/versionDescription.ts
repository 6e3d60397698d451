import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { VersionDescription } from '../../v1/actions/versionDescription';
import { versionDescription as v1 } from '../../v1/actions/versionDescription';
import {
	REPRESENTED_LABEL,
	representedOperatorGroup,
} from '../../v1/actions/statements/representedOperator';

/**
 * Version 1.1 of the EU Information System node: version 1's operations (the same router and
 * execute code; what reads a moved field asks the node's version) with the statement fields of
 * Submit and Amend (DDS) and Submit and Update (SD) laid out anew (issue 35):
 * - "Represented Operator", a group shown only when the Operator Role is the representative's
 *   (version 1: eight "Represented Operator …" entries of Statement Options, whatever the role);
 * - "Statement Options" is "Additional Fields" (n8n's name for the optional fields of what is
 *   created; "Options" stays Submit's behaviour: If Already Filed); the parameter keeps its name;
 * - Net Weight required (an issue in the panel until filled) when the Activity Type is Import or
 *   Export, optional for Domestic;
 * - the Simplified Declaration's Activity Type is Domestic by default (a micro or small primary
 *   operator produces the goods itself; version 1: Import).
 * Saved workflows keep version 1 (n8n stores only non-default values; the paths and defaults of
 * version 1 stay as they are). Nodes added from the nodes panel get version 1.1.
 */

/** The statement fields' operations: DDS Submit/Amend, SD Submit/Update. */
const STATEMENT_OPERATIONS: Record<string, { change: string; role: string; noun: string }> = {
	dueDiligenceStatement: { change: 'amend', role: 'REPRESENTATIVE_OPERATOR', noun: 'statement' },
	simplifiedDeclaration: { change: 'update', role: 'REPRESENTATIVE_MSPO', noun: 'declaration' },
};

/** The resource of a statement field (shown for Submit and Amend/Update), or undefined. */
function statementResource(p: INodeProperties): string | undefined {
	const show = p.displayOptions?.show ?? {};
	const resource = String(show.resource?.[0] ?? '');
	const spec = STATEMENT_OPERATIONS[resource];
	const operations = (show.operation ?? []) as string[];
	return spec && operations.includes('submit') && operations.includes(spec.change)
		? resource
		: undefined;
}

const FOREIGN = ['IMPORT', 'EXPORT'];

const NET_WEIGHT_FOREIGN =
	"The commodity's total net weight in kilograms, which an import or export must state: the same on every row of the statement (rows that disagree are refused, nothing is added up); at most 6 decimals";
const NET_WEIGHT_DOMESTIC =
	"The commodity's total net weight in kilograms, the same on every row of the statement; at most 6 decimals. A domestic statement states the net weight (with Additional Fields › Percentage Estimate or Deviation), a supplementary unit, or both.";

/** Net Weight: required for import and export (an issue until filled), optional for domestic. */
function netWeights(p: INodeProperties): INodeProperties[] {
	const show = p.displayOptions?.show ?? {};
	const at = (activityType: string[]) => ({ ...p.displayOptions, show: { ...show, activityType } });
	return [
		{ ...p, required: true, description: NET_WEIGHT_FOREIGN, displayOptions: at(FOREIGN) },
		{ ...p, description: NET_WEIGHT_DOMESTIC, displayOptions: at(['DOMESTIC']) },
	];
}

function role(p: INodeProperties, representative: string): INodeProperties {
	return {
		...p,
		options: (p.options as INodePropertyOptions[]).map((o) =>
			o.value === representative
				? {
						...o,
						description: `${String(o.description).replace(/: fill in .*$/, '')}: fill in ${REPRESENTED_LABEL} below`,
					}
				: o,
		),
	};
}

/** The represented operator's keys of version 1's Statement Options (now the group's). */
const isRepresented = (o: INodeProperties) => o.name.startsWith('represented');

function statementField(p: INodeProperties, resource: string): INodeProperties[] {
	const spec = STATEMENT_OPERATIONS[resource];
	switch (p.name) {
		case 'operatorRole': {
			const group = representedOperatorGroup(spec.role, spec.noun);
			const show = { ...p.displayOptions?.show, ...group.displayOptions?.show };
			return [role(p, spec.role), { ...group, displayOptions: { show } }];
		}
		case 'activityType':
			return [resource === 'simplifiedDeclaration' ? { ...p, default: 'DOMESTIC' } : p];
		case 'netWeight':
			return netWeights(p);
		case 'statementOptions':
			return [
				{
					...p,
					displayName: 'Additional Fields',
					placeholder: 'Add Field',
					options: (p.options as INodeProperties[]).filter((o) => !isRepresented(o)),
				},
			];
		default:
			return [p];
	}
}

function buildProperties(): INodeProperties[] {
	return v1.properties.flatMap((p) => {
		const resource = statementResource(p);
		return resource === undefined ? [p] : statementField(p, resource);
	});
}

export const versionDescription: VersionDescription = {
	...v1,
	version: 1.1,
	properties: buildProperties(),
};
