/**
 * The operator an authorised representative files for (Submit, Amend; SD Submit, Update).
 *
 * - Version 1 has its eight fields among the Statement Options, each labelled "Represented
 *   Operator …" (`statementOptions.represented*`), offered whatever the Operator Role.
 * - Version 1.1 groups them in "Represented Operator", shown only when the Operator Role is
 *   the representative's (`representedOperator.operator.represented*`: the same keys).
 *
 * Both read into the EU's RepresentedOperator here. Version 1 reads the Statement Options as
 * it always did; version 1.1 reads the group, only for a representative role, and (tolerant) the
 * Statement Options' keys beneath it. Every text of the group is checked for characters XML
 * cannot carry, as the Statement Options are (statementRows.ts).
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { RepresentedOperator } from '../../../../shared/dds/statement';
import { xmlTextProblem } from '../../../../shared/input';
import type { Problems } from '../../../../shared/runner';

/** The roles that file for another operator (DDS, SD). */
export const REPRESENTATIVE_ROLES: readonly string[] = [
	'REPRESENTATIVE_OPERATOR',
	'REPRESENTATIVE_MSPO',
];

/** Version 1.1's group: the parameter and its one set of values. */
export const REPRESENTED_GROUP = 'representedOperator';
const GROUP_VALUES = 'operator';

/** The node version that has the group (and reads it). */
export const GROUP_VERSION = 1.1;

/** The label of the group (what the pre-flight's messages name, e.g. "Represented Operator › Name"). */
export const REPRESENTED_LABEL = 'Represented Operator';

/** The fields of the group, in the order shown, with their labels within it. */
const GROUP_FIELDS: Array<{ name: string; label: string; extra: Partial<INodeProperties> }> = [
	{
		name: 'representedName',
		label: 'Name',
		extra: {
			required: true,
			placeholder: 'e.g. Cacao Import GmbH',
			description: 'Name of the operator you file for',
		},
	},
	{
		name: 'representedEori',
		label: 'EORI Number',
		extra: {
			placeholder: 'e.g. DE123456789012345',
			description: "The operator's EORI number: needed for import and export",
		},
	},
	{
		name: 'representedVat',
		label: 'VAT Number',
		extra: { placeholder: 'e.g. DE123456789', description: "The operator's VAT number" },
	},
	{
		name: 'representedStreet',
		label: 'Street and Number',
		extra: { placeholder: 'e.g. Hafenstraße 12' },
	},
	{ name: 'representedPostalCode', label: 'Postal Code', extra: { placeholder: 'e.g. 20457' } },
	{ name: 'representedCity', label: 'City', extra: { placeholder: 'e.g. Hamburg' } },
	{
		name: 'representedCountry',
		label: 'Country',
		extra: { placeholder: 'e.g. DE', description: 'Two-letter ISO code of the country' },
	},
	{ name: 'representedEmail', label: 'E-Mail', extra: { placeholder: 'name@email.com' } },
];

/**
 * Version 1.1's "Represented Operator" group, shown only for `role` (the representative role of
 * the DDS or the SD). A representative must name the operator, its address and an identifier
 * (its EORI for import or export): the pre-flight says which is missing.
 */
export function representedOperatorGroup(role: string, noun: string): INodeProperties {
	return {
		displayName: REPRESENTED_LABEL,
		name: REPRESENTED_GROUP,
		type: 'fixedCollection',
		placeholder: `Add ${REPRESENTED_LABEL}`,
		default: {},
		displayOptions: { show: { operatorRole: [role] } },
		description: `The operator you file this ${noun} for: its name, address and at least one identifier (its EORI number for import or export)`,
		options: [
			{
				displayName: 'Operator',
				name: GROUP_VALUES,
				values: GROUP_FIELDS.map(
					({ name, label, extra }) =>
						({
							displayName: label,
							name,
							type: 'string',
							default: '',
							...extra,
						}) as INodeProperties,
				),
			},
		],
	};
}

const groupLabelOf = (key: string) =>
	`${REPRESENTED_LABEL} › ${GROUP_FIELDS.find((f) => f.name === key)?.label ?? key}`;

/**
 * The values of a collection, every text checked for characters XML cannot carry (whatever
 * field it is); a text that fails is the item's problem, named by `labelOf`, and left out.
 */
export function checkedTexts(
	given: IDataObject,
	problems: Problems,
	labelOf: (key: string) => string,
): IDataObject {
	const out: IDataObject = {};
	for (const [key, v] of Object.entries(given)) {
		const problem = typeof v === 'string' ? xmlTextProblem(v) : undefined;
		if (problem === undefined)
			Object.defineProperty(out, key, { value: v, enumerable: true, writable: true });
		else problems.field(labelOf(key), `${problem}.`);
	}
	return out;
}

/** The group's values of one item (version 1.1), every text checked for XML. */
function groupValues(ctx: IExecuteFunctions, i: number, problems: Problems): IDataObject {
	const group = ctx.getNodeParameter(REPRESENTED_GROUP, i, {}) as IDataObject | undefined;
	return checkedTexts((group?.[GROUP_VALUES] ?? {}) as IDataObject, problems, groupLabelOf);
}

/** A text of an item's collection, trimmed; undefined when empty. */
export const opt = (o: IDataObject, key: string): string | undefined => {
	const v = o[key];
	if (v === undefined || v === null) return undefined;
	const s = String(v).trim();
	return s === '' ? undefined : s;
};

/** The represented operator of the `represented*` keys of `o`, or undefined when none is given. */
export function representedOperatorOf(o: IDataObject): RepresentedOperator | undefined {
	const name = opt(o, 'representedName');
	const eori = opt(o, 'representedEori');
	const vat = opt(o, 'representedVat');
	const ids = [
		...(eori ? [{ identifierType: 'eori' as const, identifierValue: eori }] : []),
		...(vat ? [{ identifierType: 'vat' as const, identifierValue: vat }] : []),
	];
	const street = opt(o, 'representedStreet');
	const city = opt(o, 'representedCity');
	const postalCode = opt(o, 'representedPostalCode');
	const country = opt(o, 'representedCountry');
	if (!name && ids.length === 0 && !street && !city) return undefined;
	const email = opt(o, 'representedEmail');
	return {
		...(ids.length ? { operatorReferenceNumber: ids } : {}),
		...(street || city || postalCode || country
			? {
					operatorAddress: {
						country: (country ?? '').toUpperCase(),
						street: street ?? '',
						postalCode: postalCode ?? '',
						city: city ?? '',
					},
				}
			: {}),
		...(email ? { operatorEmail: email } : {}),
		operatorName: name ?? '',
	};
}

/**
 * The represented operator of one item: version 1 from its Statement Options (`options`, already
 * checked); version 1.1 from the group when `role` is a representative's, over the Statement
 * Options' keys.
 */
export function readRepresentedOperator(
	ctx: IExecuteFunctions,
	i: number,
	problems: Problems,
	options: IDataObject,
	role: string,
): RepresentedOperator | undefined {
	if (ctx.getNode().typeVersion < GROUP_VERSION) return representedOperatorOf(options);
	const group = REPRESENTATIVE_ROLES.includes(role) ? groupValues(ctx, i, problems) : {};
	const merged: IDataObject = { ...options };
	for (const { name } of GROUP_FIELDS)
		if (opt(group, name) !== undefined) merged[name] = group[name];
	return representedOperatorOf(merged);
}
