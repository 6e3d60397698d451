/**
 * Rows of Submit or Amend combined into statements: the rows with the same Internal Reference
 * make one statement (in input order), whose fields must agree across its rows; rows with the
 * same HS heading and description one commodity, whose quantities must agree (they are the
 * commodity's total, given on every row, never added up); plots of the same producer (country
 * and name) one producer, its geolocation one FeatureCollection.
 */
import type { StatementProblem } from '../../../../shared/dds/rules';
import type { SdPostalAddress } from '../../../../shared/dds/simplified';
import type { Commodity, Producer, Statement } from '../../../../shared/dds/statement';
import type { Ready } from '../../../../shared/runner';
import type { StatementRow } from './statementRows';

/**
 * A producer of the rows: its plots' geolocation (empty when it has none), and the SD's other
 * locations gathered from its rows (postal addresses, cadastral identifiers), when given.
 */
export type GroupedProducer = Producer & {
	postalAddress?: SdPostalAddress[];
	cadastralIdentifier?: string[];
};

/** A statement made of rows, its producers as the rows located them. */
export type StatementOfRows = Omit<Statement, 'commodities'> & {
	commodities: Array<Omit<Commodity, 'producers'> & { producers?: GroupedProducer[] }>;
};

/** A statement made of rows: its items, its statement and the rows' disagreements. */
export interface GroupedRows {
	items: number[];
	internalReference: string;
	/** The Operator Role field's value. */
	role: string;
	statement: StatementOfRows;
	problems: StatementProblem[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** "item 0" / "items 0, 1, 2" for messages. */
export function itemsLabel(items: readonly number[]): string {
	const shown = items.slice(0, 10).join(', ') + (items.length > 10 ? ', …' : '');
	return items.length === 1 ? `item ${shown}` : `items ${shown}`;
}

/**
 * Rows with the same Internal Reference make one statement (in input order); rows with the
 * same HS heading and description one commodity, whose quantities must agree; plots of the same
 * producer (country + name) one producer, its geolocation one FeatureCollection.
 */
export function groupStatements(rows: Array<Ready<StatementRow>>): GroupedRows[] {
	const groups = new Map<string, Array<Ready<StatementRow>>>();
	for (const r of rows) {
		const list = groups.get(r.value.internalReference) ?? [];
		list.push(r);
		groups.set(r.value.internalReference, list);
	}
	return [...groups.values()].map((list) => {
		const first = list[0].value;
		const problems: StatementProblem[] = [];
		const items = list.map((r) => r.itemIndex);
		for (const r of list.slice(1)) {
			if (!same(r.value.head, first.head) || r.value.role !== first.role)
				problems.push({
					field: 'Statement fields',
					message: `items ${list[0].itemIndex} and ${r.itemIndex} share the Internal Reference "${first.internalReference}" but differ in the statement's fields (activity, role, country, represented operator or options): give the rows of one statement the same values.`,
				});
		}
		const commodities = new Map<
			string,
			{
				commodity: Commodity;
				item: number;
				producers: Map<string, GroupedProducer & { features: string[] }>;
			}
		>();
		for (const r of list) {
			const c = r.value.commodity;
			const key = `${c.hsHeading}\u0000${c.descriptors.descriptionOfGoods}`;
			let entry = commodities.get(key);
			if (!entry) {
				entry = { commodity: { ...c }, item: r.itemIndex, producers: new Map() };
				commodities.set(key, entry);
			} else if (!same(c, entry.commodity)) {
				problems.push({
					field: `Commodity ${[...commodities.keys()].indexOf(key) + 1}`,
					message: `items ${entry.item} and ${r.itemIndex} give the commodity HS ${c.hsHeading} "${c.descriptors.descriptionOfGoods}" different quantities or species: the net weight and units are the commodity's total, the same on every row (nothing is added up).`,
				});
			}
			for (const p of r.value.producers) {
				const pk = `${p.country}\u0000${p.name ?? ''}`;
				const producer = entry.producers.get(pk) ?? {
					country: p.country,
					...(p.name ? { name: p.name } : {}),
					geometryGeojson: '',
					features: [],
				};
				producer.features.push(...p.features);
				if (p.postalAddress)
					producer.postalAddress = [...(producer.postalAddress ?? []), ...p.postalAddress];
				if (p.cadastralIdentifier)
					producer.cadastralIdentifier = [
						...(producer.cadastralIdentifier ?? []),
						...p.cadastralIdentifier,
					];
				entry.producers.set(pk, producer);
			}
		}
		const statement: StatementOfRows = {
			...first.head,
			commodities: [...commodities.values()].map(({ commodity, producers }) => ({
				...commodity,
				producers: [...producers.values()].map(({ features, ...p }) => ({
					...p,
					geometryGeojson: features.length
						? `{"type":"FeatureCollection","features":[${features.join(',')}]}`
						: '',
				})),
			})),
		};
		return {
			items,
			internalReference: first.internalReference,
			role: first.role,
			statement,
			problems,
		};
	});
}
