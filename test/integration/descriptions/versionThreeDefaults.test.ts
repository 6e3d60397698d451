/**
 * Version 3 of the action node at its defaults, through n8n's engine: Read File's items
 * (`{ geometry, properties, source, warnings }`) go into Validate, Register, Export for EU and
 * Protected Area → Check (by geometry) without a field edited (Geometry Source "Found in the
 * Item"); so does a sheet of latitude / longitude rows, and Register's plots into Export.
 * Each reads what version 2 reads with the field mapped by hand.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { CredentialStore, runNode } from '../../helpers/engine';
import { fileItem } from '../../helpers/geoFileTests';
import { fake, store, usePlotService } from '../plot/helpers';

const MAKE_PLOT = { method: 'POST', path: '/plots/make_plot' };

/** Read File (version 3, at its defaults) on a fixture file in the binary field `data`. */
async function readFile(name: string): Promise<IDataObject[]> {
	const file = fileItem(name);
	const { items, error } = await runNode({
		parameters: { resource: 'plot', operation: 'readFile' },
		inputItems: [file],
		store: new CredentialStore(),
		withCredential: false,
		typeVersion: 3,
	});
	expect(error).toBeUndefined();
	return items.map((i) => i.json);
}

/** An operation on these items, at version `typeVersion`. */
async function run(
	typeVersion: number,
	parameters: INodeParameters,
	input: IDataObject[],
	withCredential = true,
) {
	return await runNode({
		parameters,
		input,
		store: withCredential ? store : new CredentialStore(),
		withCredential,
		typeVersion,
	});
}

const VALIDATE = { resource: 'plot', operation: 'validate' };
const REGISTER = { resource: 'plot', operation: 'register' };
const EXPORT = { resource: 'plot', operation: 'exportEu' };
/** What version 2 needs to read Read File's items: the field mapped by hand. */
const MAPPED = { geometrySource: 'geoJson', geoJson: '={{ $json.geometry }}' };

const fileOf = (item: INodeExecutionData) =>
	JSON.parse(Buffer.from(item.binary!.data.data, 'base64').toString('utf8')) as {
		features: Array<{ geometry: unknown; properties: IDataObject }>;
	};

describe('version 3 at its defaults: Read File → Validate / Register / Export for EU', () => {
	usePlotService();

	let read: IDataObject[];
	beforeAll(async () => {
		read = await readFile('plots.geojson');
		expect(read).toHaveLength(3);
		expect(read.every((json) => (json.geometry as IDataObject).type === 'Polygon')).toBe(true);
	});

	it('Read File → Validate: every item read from its geometry, as version 2 with the field mapped', async () => {
		const v3 = await run(3, VALIDATE, read, false);
		expect(v3.error).toBeUndefined();
		expect(v3.items).toHaveLength(3);
		for (const item of v3.items) {
			expect(item.json.valid).toBe(true);
			expect(JSON.stringify(item.json)).not.toMatch(/missing_geometry|has no geometry/);
		}
		const v2 = await run(2, { ...VALIDATE, ...MAPPED }, read, false);
		// the same report, version 3's compact: its nested details in validation.details
		const decision = (json: IDataObject) => [json.valid, json.problem_count, json.problem_summary];
		expect(v3.items.map((i) => decision(i.json))).toEqual(v2.items.map((i) => decision(i.json)));
		v3.items.forEach((item, k) => {
			const compact = item.json.validation as IDataObject;
			const full = v2.items[k].json.validation as IDataObject;
			const details = compact.details as IDataObject;
			for (const key of ['problems', 'warnings', 'features', 'duplicates', 'overlaps'])
				expect(details[key]).toEqual(full[key]);
			for (const key of ['area_ha', 'feature_count', 'duplicate_count'])
				expect(compact[key]).toEqual(full[key]);
		});
		// version 2 at its defaults looks for latitude and longitude, and finds none
		const v2Defaults = await run(2, VALIDATE, read, false);
		expect(v2Defaults.items.map((i) => i.json.valid)).toEqual([false, false, false]);
		expect(fake.log.count()).toBe(0);
	});

	it('Read File → Register: one plot per item, the geometry sent as read', async () => {
		const { items, error } = await run(3, REGISTER, read);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(3);
		items.forEach((item, i) => {
			expect(item.pairedItem).toEqual({ item: i });
			expect(item.json.plot_id).toEqual(expect.any(String));
		});
		const sent = fake.log
			.entries()
			.filter((e) => e.path === MAKE_PLOT.path)
			.flatMap(
				(e) =>
					((e.body as IDataObject).geojson as { features: Array<{ geometry: unknown }> }).features,
			);
		expect(sent.map((f) => f.geometry)).toEqual(read.map((json) => json.geometry));
	});

	it('Read File → Export for EU: one file of every geometry (the geometry fields untouched)', async () => {
		// the file's first plot has a hole (the EU Information System reads outer boundaries only)
		const given = { producerCountry: 'BR', options: { holes: 'drop' } };
		const { items, error } = await run(3, { ...EXPORT, ...given }, read, false);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		const file = fileOf(items[0]);
		expect(file.features).toHaveLength(3);
		expect(file.features.map((f) => f.properties.ProducerCountry)).toEqual(['BR', 'BR', 'BR']);
		const v2 = await run(
			2,
			{ ...EXPORT, exportInput: 'geometry', ...MAPPED, ...given },
			read,
			false,
		);
		expect(fileOf(v2.items[0])).toEqual(file);
		expect(fake.log.count()).toBe(0);
	});

	it('Read File → Protected Area → Check (by geometry): the geometry sent as read', async () => {
		const CHECKS = '/protected-areas/checks';
		const { items, error } = await run(
			3,
			{ resource: 'protectedArea', operation: 'check', checkBy: 'geometry' },
			read,
		);
		expect(error).toBeUndefined();
		expect(items.map((i) => i.pairedItem)).toEqual(read.map((_, item) => ({ item })));
		const sent = fake.log
			.entries()
			.filter((e) => e.path === CHECKS)
			.flatMap(
				(e) =>
					((e.body as IDataObject).geojson as { features: Array<{ geometry: unknown }> }).features,
			);
		expect(sent.map((f) => f.geometry)).toEqual(read.map((json) => json.geometry));
	});

	it('Register → Export for EU still connects at defaults (the plot\'s "geojson_features")', async () => {
		const rows = [
			{ name: 'Kouassi farm', latitude: '6.812345', longitude: '-5.287654', country: 'CI' },
			{ name: 'Asante farm', latitude: '6.612345', longitude: '-1.587654', country: 'GH' },
		];
		const registered = await run(3, { ...REGISTER, plotFields: { pointHa: '2' } }, rows);
		expect(registered.error).toBeUndefined();
		const plots = registered.items.map((i) => i.json);
		const v3 = await run(3, EXPORT, plots, false);
		expect(v3.error).toBeUndefined();
		const v2 = await run(2, EXPORT, plots, false);
		expect(v2.error).toBeUndefined();
		expect(fileOf(v3.items[0])).toEqual(fileOf(v2.items[0]));
		expect(fileOf(v3.items[0]).features).toHaveLength(2);
	});

	it('a sheet of latitude/longitude rows: Validate at defaults reads as version 2 does', async () => {
		const rows = [
			{ name: 'A', latitude: '6.812345', longitude: '-5.287654' },
			{ name: 'Swapped', latitude: '-5.287654', longitude: '6.812345' },
			{ name: 'Empty', latitude: '', longitude: '' },
		];
		const plotFields = { country: 'CI' };
		const v3 = await run(3, { ...VALIDATE, plotFields }, rows, false);
		const v2 = await run(2, { ...VALIDATE, plotFields }, rows, false);
		expect(v3.error).toBeUndefined();
		expect(v3.items.map((i) => i.json.valid)).toEqual([true, false, false]);
		expect(v3.items.map((i) => i.json.problem_count)).toEqual(
			v2.items.map((i) => i.json.problem_count),
		);
	});

	it('an item without a geometry field: the row says what was looked for', async () => {
		const { items, error } = await run(3, VALIDATE, [{ name: 'No geometry' }], false);
		expect(error).toBeUndefined();
		expect(items[0].json.valid).toBe(false);
		expect(JSON.stringify(items[0].json.validation)).toMatch(
			/Geometry Source \\"Found in the Item\\" looks for the field \\"geometry\\" \(as Read File outputs it\)/,
		);
		// Register refuses it before any request, naming the item
		const registered = await run(3, REGISTER, [{ name: 'No geometry' }]);
		expect(registered.error?.message).toMatch(/^Item 0: the item has no geometry/);
		expect(fake.log.count(MAKE_PLOT)).toBe(0);
	});
});
