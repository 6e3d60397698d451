/**
 * Characters XML cannot carry (U+0000, U+0001, U+0007, U+001B, a lone surrogate, U+FFFE,
 * U+FFFF), in every text field of every operation of the EU Information System node, through
 * n8n's engine against the EU fake: refused before anything is sent, naming the item, the field
 * and where in the text. Submit's fields (DDS and SD) come from the node's own description, so
 * a text field added later is in the table without anyone adding it.
 */
import type { IDataObject, INodeParameters, INodeProperties } from 'n8n-workflow';

import { declarationFields } from '../../../nodes/EuInformationSystem/v1/actions/statements/statementFields';
import { resetEuRateLimit } from '../../../nodes/shared/transport/euRateLimit';
import { useFakeEu } from '../../helpers/fakeEu';
import { euStore, runEu, sdParameters } from './helpers';

const eu = useFakeEu({ ratePerSecond: 0 });
const store = () => euStore(eu.fake.url, eu.fake.users[0]);
beforeEach(() => resetEuRateLimit());

/** `Item 0, field "<label>": it contains the character U+<code> at position 3, …` */
const refusal = (label: string, code = '0001') =>
	`Item 0, field "${label}": it contains the character U+${code} at position 3, which XML cannot carry; remove it (it comes right after "AB";`;

/** Runs the node, expecting a pre-flight refusal; the refusal's text, and nothing sent. */
async function refused(parameters: INodeParameters, input: IDataObject[]) {
	const before = eu.fake.requests().length;
	const result = await runEu({ parameters, input, store: store() });
	expect(result.error).toBeDefined();
	expect(eu.fake.requests().length).toBe(before);
	return `${result.error?.message}\n${result.error?.description}`;
}

const DDS_ROW = {
	internal_reference: 'XML-DDS-1',
	country: 'CI',
	latitude: 6.812345,
	longitude: -5.212345,
};
const DDS_SUBMIT: INodeParameters = {
	operation: 'submit',
	hsHeading: '1801',
	descriptionOfGoods: 'Cocoa beans',
	netWeight: '1200',
	pointArea: '2',
};
const SD_ROW = {
	ref: 'XML-SD-1',
	producer: 'Ferme A',
	country: 'FR',
	geometry: { type: 'Point', coordinates: [2.5, 44.5] },
};

/**
 * Fields whose text is not sent as text: the plot's geometry (Geometry Source's fields) is
 * read by the geometry reader and sent as Base64 GeoJSON; the area is a number.
 */
const NOT_TEXT = new Set(['geoJson', 'latitude', 'longitude', 'wkt', 'pointArea']);

/** A production place by its address (its required fields given). */
const ADDRESS = {
	producerStreet: '1 rue Haute',
	producerPostalCode: '46000',
	producerCity: 'Cahors',
};

/** What a field needs to be read: the Geolocation choice that shows it (and its required fields). */
function shownWith(field: INodeProperties): INodeParameters {
	const source = field.displayOptions?.show?.geolocationSource as string[] | undefined;
	if (!source || source.includes('plotRows')) return {};
	return { geolocationSource: source[0], ...(source[0] === 'postalAddress' ? ADDRESS : {}) };
}

/** Every text field of Submit (top level and Statement Options), as [label, parameters]. */
function textFields(type: 'dds' | 'sd'): Array<[string, (bad: string) => INodeParameters]> {
	const out: Array<[string, (bad: string) => INodeParameters]> = [];
	for (const field of declarationFields(type)) {
		if (field.type === 'string' && !NOT_TEXT.has(field.name))
			out.push([field.displayName, (bad) => ({ ...shownWith(field), [field.name]: bad })]);
		if (field.name === 'statementOptions')
			for (const option of field.options as INodeProperties[])
				if (option.type === 'string')
					out.push([option.displayName, (bad) => ({ statementOptions: { [option.name]: bad } })]);
	}
	return out;
}

describe('Submit: every text field, DDS and SD', () => {
	const dds = textFields('dds');
	const sd = textFields('sd');

	it('the tables hold the fields the statement is written from', () => {
		expect(dds.map(([label]) => label)).toEqual(
			expect.arrayContaining([
				'Internal Reference',
				'Description of Goods',
				'HS Heading',
				'Producer Name',
				'Comment',
				'Represented Operator Name',
				'Represented Operator Address',
				'Scientific Name of Species',
			]),
		);
		expect(sd.map(([label]) => label)).toEqual(
			expect.arrayContaining([
				'Producer Street',
				'Producer Postal Code',
				'Producer City',
				'Cadastral Identifiers',
			]),
		);
		expect(dds.length).toBeGreaterThanOrEqual(20);
	});

	it.each(dds)(
		'DDS "%s": refused before sending, naming the field and where',
		async (label, set) => {
			const text = await refused({ ...DDS_SUBMIT, ...set('AB\u0001C') }, [DDS_ROW]);
			expect(text).toContain(refusal(label));
		},
	);

	it.each(sd)('SD "%s": refused before sending, naming the field and where', async (label, set) => {
		const text = await refused(sdParameters(set('AB\u0001C')), [SD_ROW]);
		expect(text).toContain(refusal(label));
	});

	it.each([
		['0000', '\u0000'],
		['0007', '\u0007'],
		['001B', '\u001B'],
		['D800', '\uD800'],
		['DFFF', '\uDFFF'],
		['FFFE', '\uFFFE'],
		['FFFF', '\uFFFF'],
	])('U+%s in Description of Goods and in a Comment: both named', async (code, char) => {
		const text = await refused(
			{
				...DDS_SUBMIT,
				descriptionOfGoods: `AB${char}C`,
				statementOptions: { comment: `AB${char}` },
			},
			[DDS_ROW],
		);
		expect(text).toContain(refusal('Description of Goods', code));
		expect(text).toContain(refusal('Comment', code));
	});

	it("an EU GeoJSON's producer name is text of the request too", async () => {
		const fc = {
			type: 'FeatureCollection',
			features: [
				{
					type: 'Feature',
					properties: { ProducerCountry: 'CI', ProducerName: 'AB\u0001C', Area: 2 },
					geometry: { type: 'Point', coordinates: [-5.2, 6.8] },
				},
			],
		};
		const text = await refused(
			{ ...DDS_SUBMIT, geolocationSource: 'euGeoJson', euGeoJson: '={{ $json.fc }}' },
			[{ ...DDS_ROW, fc }],
		);
		expect(text).toContain(
			'Item 0, field "EU GeoJSON": the ProducerName of feature 0: it contains the character U+0001 at position 3, which XML cannot carry',
		);
	});
});

describe('the other operations: every field they send', () => {
	const UUID = '071874bd-8c62-4cac-8eb6-b2fbe003410c';
	const cases: Array<[string, INodeParameters, string]> = [
		['DDS Amend', { ...DDS_SUBMIT, operation: 'amend', uuid: UUID, descriptionOfGoods: 'AB\u0001C' }, 'Description of Goods'],
		['DDS Withdraw', { operation: 'withdraw', uuid: `${UUID}\uFFFE` }, 'Statement UUID'],
		['DDS Get', { operation: 'get', uuids: `${UUID}, AB\uD800C` }, 'Statement UUIDs'],
		['DDS Get by Internal Reference', { operation: 'getByInternalReference', internalReference: 'AB\u0001C' }, 'Internal Reference'],
		['DDS Get Content (reference)', { operation: 'getContent', referenceNumber: 'AB\u0001C', verificationNumber: 'K7R8LA90' }, 'Reference Number'],
		['DDS Get Content (verification)', { operation: 'getContent', referenceNumber: '26BE7XTVCZAQ2S', verificationNumber: 'AB\u0001C' }, 'Verification Number'],
		['SD Update', sdParameters({ operation: 'update', uuid: UUID, producerName: 'AB\u0001C' }), 'Producer Name'],
		['SD Withdraw', { resource: 'simplifiedDeclaration', operation: 'withdraw', uuid: `${UUID}\uFFFF` }, 'Declaration UUID'],
		['SD Get', { resource: 'simplifiedDeclaration', operation: 'get', uuids: `AB\uDC00C` }, 'Declaration UUIDs'],
		['SD Get by Internal Reference', { resource: 'simplifiedDeclaration', operation: 'getByInternalReference', internalReference: 'AB\u0001C' }, 'Internal Reference'],
		['SD Get Content', { resource: 'simplifiedDeclaration', operation: 'getContent', referenceNumber: 'S26FRNMNBSA96Q', verificationNumber: 'AB\u0001C' }, 'Verification Number'],
		['Verify', { resource: 'declaration', operation: 'verify', referenceNumber: 'AB\u0001C', verificationNumber: 'K7R8LA90' }, 'Reference Number'],
	]; // prettier-ignore

	it.each(cases)(
		'%s: refused before sending, naming the field',
		async (_name, parameters, label) => {
			const text = await refused(parameters, [
				parameters.resource === 'simplifiedDeclaration' ? SD_ROW : DDS_ROW,
			]);
			expect(text).toContain(`Item 0, field "${label}": `);
			expect(text).toMatch(/U\+(0001|FFFE|FFFF|D800|DC00)/);
		},
	);
});
