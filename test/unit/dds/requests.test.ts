/**
 * Every body element we can send for the DDS service validates against the EU's own XSDs
 * (test/helpers/euXsd.ts), for every optional part of the statement; any text gives
 * well-formed XML; and the judge bites on our own output when its order is broken.
 */
import type { Statement } from '../../../nodes/shared/dds/statement';
import {
	MAX_UUIDS_PER_GET,
	amendDdsBody,
	getDdsBody,
	getDdsByIdentifiersBody,
	getDdsByInternalReferenceBody,
	submitDdsBody,
	withdrawDdsBody,
} from '../../../nodes/shared/dds/requests';
import { parseXml } from '../../../nodes/shared/soap/xml';
import { validateEuXml } from '../../helpers/euXsd';

const UUID = '071874bd-8c62-4cac-8eb6-b2fbe003410c';
const POINT = JSON.stringify({
	type: 'FeatureCollection',
	features: [
		{
			type: 'Feature',
			properties: { ProducerName: 'Coop', ProducerCountry: 'CI', Area: 2 },
			geometry: { type: 'Point', coordinates: [-5.123456, 6.654321] },
		},
	],
});

const minimal: Statement = {
	internalReferenceNumber: 'PO-2026-0001',
	activityType: 'IMPORT',
	countryOfActivity: 'FR',
	commodities: [
		{
			descriptors: { descriptionOfGoods: 'Cocoa beans', goodsMeasure: { netWeight: '1000' } },
			hsHeading: '1801',
			producers: [{ country: 'CI', name: 'Coop', geometryGeojson: POINT }],
		},
	],
	geoLocationConfidential: false,
};

const everything: Statement = {
	internalReferenceNumber: 'PO-2026-0002',
	activityType: 'EXPORT',
	representedOperator: {
		operatorReferenceNumber: [
			{ identifierType: 'eori', identifierValue: 'FR123456789000' },
			{ identifierType: 'vat', identifierValue: 'FR12345678901' },
		],
		operatorAddress: {
			country: 'FR',
			street: '1 rue de la Paix',
			postalCode: '75002',
			city: 'Paris',
			fullAddress: '1 rue de la Paix, 75002 Paris',
		},
		operatorEmail: 'compliance@example.com',
		operatorPhone: '+33 1 23 45 67 89',
		operatorName: 'Example Trading SAS',
	},
	countryOfActivity: 'FR',
	borderCrossCountry: 'BE',
	comment: `Lot <A> & "B" — 'quoted' ]]> and a non-BMP 🌳 character`,
	commodities: [
		{
			position: 1,
			descriptors: {
				descriptionOfGoods: 'Sawn tropical wood',
				goodsMeasure: {
					percentageEstimationOrDeviation: '5',
					netWeight: '12345.123456',
					supplementaryUnit: '10.5',
					supplementaryUnitQualifier: 'MTQ',
				},
			},
			hsHeading: '440729',
			speciesInfo: [
				{ scientificName: 'Khaya ivorensis', commonName: 'African mahogany' },
				{ scientificName: 'Tectona grandis' },
			],
			producers: [
				{ position: 1, country: 'GH', name: 'Forest A', geometryGeojson: POINT },
				{ country: 'GH', geometryGeojson: POINT },
			],
		},
		{
			position: 2,
			descriptors: { descriptionOfGoods: 'Coffee', goodsMeasure: { netWeight: '1' } },
			hsHeading: '09',
		},
	],
	geoLocationConfidential: true,
	groupedDeclarations: ['26FRXXXXXXXXX1', '26FRXXXXXXXXX2'],
};

async function expectValid(xml: string) {
	expect(() => parseXml(xml)).not.toThrow();
	const r = await validateEuXml(xml, 'dds');
	expect(r.errors).toEqual([]);
	expect(r.valid).toBe(true);
}

describe('DDS request bodies against the official XSD', () => {
	it('submit: a minimal statement and one with every optional part', async () => {
		await expectValid(submitDdsBody('OPERATOR', minimal));
		await expectValid(submitDdsBody('REPRESENTATIVE_OPERATOR', everything));
	});

	it('amend (the complete statement) and withdraw', async () => {
		await expectValid(amendDdsBody(UUID, everything));
		await expectValid(withdrawDdsBody(UUID));
	});

	it('getDds with 1 and 100 UUIDs; more or none is refused before any XML', async () => {
		await expectValid(getDdsBody([UUID]));
		await expectValid(getDdsBody(Array.from({ length: MAX_UUIDS_PER_GET }, () => UUID)));
		expect(() => getDdsBody([])).toThrow(RangeError);
		expect(() => getDdsBody(Array.from({ length: 101 }, () => UUID))).toThrow(RangeError);
	});

	it('getDdsByInternalReference and getDdsByIdentifiers', async () => {
		await expectValid(getDdsByInternalReferenceBody('PO-2026'));
		await expectValid(getDdsByIdentifiersBody('26BE7XTVCZAQ2S', 'SFFCB4Y3'));
	});

	it('geolocation is Base64 of the GeoJSON’s UTF-8 text', () => {
		const xml = submitDdsBody('OPERATOR', minimal);
		const b64 = /<dds:geometryGeojson>([^<]+)</.exec(xml)?.[1] ?? '';
		expect(Buffer.from(b64, 'base64').toString('utf8')).toBe(POINT);
	});

	it('keeps any text well-formed: markup characters are escaped, never dropped', () => {
		const xml = submitDdsBody('OPERATOR', everything);
		const root = parseXml(xml);
		const statement = root.children.find((c) => c.name === 'statement');
		const comment = statement?.children.find((c) => c.name === 'comment');
		expect(comment?.text).toBe(everything.comment);
	});

	it('the judge bites on our own output when two elements are swapped', async () => {
		const xml = submitDdsBody('OPERATOR', minimal);
		const swapped = xml.replace(
			/(<dds:activityType>[^<]*<\/dds:activityType>)(<dds:countryOfActivity>[^<]*<\/dds:countryOfActivity>)/,
			'$2$1',
		);
		expect(swapped).not.toBe(xml);
		expect((await validateEuXml(swapped, 'dds')).valid).toBe(false);
		const unqualified = xml.replace(/eudrCommon:netWeight/g, 'dds:netWeight');
		expect((await validateEuXml(unqualified, 'dds')).valid).toBe(false);
	});
});
