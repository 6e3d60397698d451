/**
 * Every body element we can send for the Simplified Declaration service validates against the
 * EU's own XSD (test/helpers/euXsd.ts, schema set 'sd'), for every optional part and each of
 * the three producer locations; any text gives well-formed XML; and the judge bites on our own
 * output when the SD's own rules of the schema are broken. The SD answers (sdIdentifier,
 * version, sdOverviewList, the content with postal addresses and cadastral identifiers) are
 * read by answers.ts's reader, as the DDS's are.
 */
import {
	readOverviews,
	readSdStatusAnswer,
	readStatementContent,
	readSubmitAnswer,
} from '../../../nodes/shared/dds/answers';
import {
	MAX_SD_PER_GET,
	getSdBody,
	getSdByIdentifiersBody,
	getSdByInternalReferenceBody,
	submitSdBody,
	updateSdBody,
	withdrawSdBody,
} from '../../../nodes/shared/dds/sdRequests';
import type { SimplifiedDeclaration } from '../../../nodes/shared/dds/simplified';
import { SD_NS, SD_ROLES } from '../../../nodes/shared/dds/simplified';
import { parseXml } from '../../../nodes/shared/soap/xml';
import { validateEuXml } from '../../helpers/euXsd';

const UUID = '071874bd-8c62-4cac-8eb6-b2fbe003410c';
const POINT = JSON.stringify({
	type: 'FeatureCollection',
	features: [
		{
			type: 'Feature',
			properties: { ProducerCountry: 'FR', Area: 2 },
			geometry: { type: 'Point', coordinates: [2.123456, 46.654321] },
		},
	],
});

const minimal: SimplifiedDeclaration = {
	internalReferenceNumber: 'FARM-2026-01',
	activityType: 'DOMESTIC',
	commodities: [
		{
			descriptors: { descriptionOfGoods: 'Beef cattle', goodsMeasure: { netWeight: '500' } },
			hsHeading: '0102',
			producers: [
				{ producerCountry: 'FR', producerLocation: { cadastralIdentifier: ['ZA-0042'] } },
			],
		},
	],
	geoLocationConfidential: false,
};

const everything: SimplifiedDeclaration = {
	internalReferenceNumber: 'FARM-2026-02',
	activityType: 'EXPORT',
	representedOperator: {
		operatorReferenceNumber: [{ identifierType: 'eori', identifierValue: 'FR123456789000' }],
		operatorAddress: { country: 'FR', street: '1 Chemin', postalCode: '12000', city: 'Rodez' },
		operatorEmail: 'farm@example.com',
		operatorPhone: '+33 5 00 00 00 00',
		operatorName: 'Ferme du Causse',
	},
	countryOfActivity: 'FR',
	borderCrossCountry: 'BE',
	comment: `Lot <A> & "B" — 'quoted' ]]> 🌳`,
	commodities: [
		{
			position: 1,
			descriptors: {
				descriptionOfGoods: 'Sawn oak',
				goodsMeasure: {
					netWeight: '1200.5',
					supplementaryUnit: '3.2',
					supplementaryUnitQualifier: 'MTQ',
				},
			},
			hsHeading: '440791',
			producers: [
				{
					producerPosition: 1,
					producerCountry: 'FR',
					producerName: 'Forest A',
					producerLocation: { geometryGeojson: POINT },
				},
				{
					producerPosition: 2,
					producerCountry: 'FR',
					producerName: 'Forest B',
					producerLocation: {
						postalAddress: [
							{
								producerStreet: 'Lieu-dit Bois',
								producerPostalCode: '12000',
								producerCity: 'Rodez',
							},
							{ producerPostalCode: '12100', producerCity: 'Millau' },
						],
					},
				},
				{
					producerCountry: 'FR',
					producerLocation: { cadastralIdentifier: ['12202000AB0042', '12202000AB0043'] },
				},
			],
		},
		{
			position: 2,
			descriptors: { descriptionOfGoods: 'Coffee', goodsMeasure: { netWeight: '1' } },
			hsHeading: '09',
		},
	],
	geoLocationConfidential: true,
	groupedDeclarations: ['S26FRNMNBSA96Q', 'S26FRNMNBSA97Q'],
};

async function expectValid(xml: string) {
	expect(() => parseXml(xml)).not.toThrow();
	const r = await validateEuXml(xml, 'sd');
	expect(r.errors).toEqual([]);
	expect(r.valid).toBe(true);
}

describe('SD request bodies against the official XSD', () => {
	it('submit: a minimal declaration under every role, and one with every optional part', async () => {
		for (const role of SD_ROLES) await expectValid(submitSdBody(role, minimal));
		await expectValid(submitSdBody('REPRESENTATIVE_MSPO', everything));
	});

	it('update (the complete declaration) and withdraw, by sdIdentifier', async () => {
		const update = updateSdBody(UUID, everything);
		await expectValid(update);
		expect(update).toContain(`<sd:sdIdentifier>${UUID}</sd:sdIdentifier>`);
		await expectValid(withdrawSdBody(UUID));
	});

	it('getSd with 1 and 100 entries, with and without versions; more or none is refused', async () => {
		const one = getSdBody([{ uuid: UUID }]);
		await expectValid(one);
		expect(one).not.toContain('versionNumber');
		const versioned = getSdBody([{ uuid: UUID, version: 2 }, { uuid: UUID }]);
		await expectValid(versioned);
		expect(versioned).toContain('<eudrCommon:versionNumber>2</eudrCommon:versionNumber>');
		await expectValid(getSdBody(Array.from({ length: MAX_SD_PER_GET }, () => ({ uuid: UUID }))));
		expect(() => getSdBody([])).toThrow(RangeError);
		expect(() => getSdBody(Array.from({ length: 101 }, () => ({ uuid: UUID })))).toThrow(
			RangeError,
		);
	});

	it('getSdByInternalReference and getSdByIdentifiers', async () => {
		await expectValid(getSdByInternalReferenceBody('FARM-2026'));
		await expectValid(getSdByIdentifiersBody('S26FRNMNBSA96Q', 'SFFCB4Y3'));
	});

	it('the elements are in the SD namespace, the geolocation Base64 of the UTF-8 GeoJSON', () => {
		const xml = submitSdBody('MICRO_OPERATOR', everything);
		expect(xml.startsWith(`<sd:SubmitSdRequest xmlns:sd="${SD_NS}"`)).toBe(true);
		const b64 = /<sd:geometryGeojson>([^<]+)</.exec(xml)?.[1] ?? '';
		expect(Buffer.from(b64, 'base64').toString('utf8')).toBe(POINT);
		const root = parseXml(xml);
		const statement = root.children.find((c) => c.name === 'statement');
		expect(statement?.children.find((c) => c.name === 'comment')?.text).toBe(everything.comment);
	});

	it('the judge bites: an internal reference over 14, two locations, a species, the DDS namespace', async () => {
		const long = submitSdBody('MICRO_OPERATOR', {
			...minimal,
			internalReferenceNumber: 'FARM-2026-0001-XY',
		});
		expect((await validateEuXml(long, 'sd')).valid).toBe(false);
		const xml = submitSdBody('MICRO_OPERATOR', minimal);
		const twoLocations = xml.replace(
			'</sd:cadastralIdentifier>',
			'</sd:cadastralIdentifier><sd:postalAddress><sd:producerPostalCode>1</sd:producerPostalCode><sd:producerCity>X</sd:producerCity></sd:postalAddress>',
		);
		expect((await validateEuXml(twoLocations, 'sd')).valid).toBe(false);
		const species = xml.replace(
			'<sd:producers>',
			'<sd:speciesInfo><sd:commonName>oak</sd:commonName></sd:speciesInfo><sd:producers>',
		);
		expect((await validateEuXml(species, 'sd')).valid).toBe(false);
		const noLocation = xml.replace(/<sd:producerLocation>.*<\/sd:producerLocation>/, '');
		expect((await validateEuXml(noLocation, 'sd')).valid).toBe(false);
	});
});

describe('SD answers, read by the DDS reader', () => {
	const NS = `xmlns:s="${SD_NS}" xmlns:c="http://ec.europa.eu/tracesnt/certificate/eudr/common/v3"`;

	it('submit: sdIdentifier; update and withdraw: uuid, version, status', () => {
		expect(
			readSubmitAnswer(
				parseXml(
					`<s:SubmitSdResponse ${NS}><s:sdIdentifier>${UUID}</s:sdIdentifier></s:SubmitSdResponse>`,
				),
			),
		).toEqual({ uuid: UUID });
		expect(
			readSdStatusAnswer(
				parseXml(
					`<s:UpdateSdResponse ${NS}><s:uuid>${UUID}</s:uuid><s:version>2</s:version><s:status>AVAILABLE</s:status></s:UpdateSdResponse>`,
				),
			),
		).toEqual({ uuid: UUID, version: '2', status: 'AVAILABLE' });
		expect(
			readSdStatusAnswer(
				parseXml(
					`<s:WithdrawSdResponse ${NS}><s:uuid>${UUID}</s:uuid><s:status>WITHDRAWN</s:status></s:WithdrawSdResponse>`,
				),
			),
		).toEqual({ uuid: UUID, version: null, status: 'WITHDRAWN' });
	});

	it('getSd: sdOverviewList entries, unknown statuses and fields passed through', () => {
		const el = parseXml(
			`<s:GetSdResponse ${NS}><s:sdOverviewList><c:uuid>${UUID}</c:uuid><c:internalReferenceNumber>FARM-1</c:internalReferenceNumber><c:referenceNumber>S26FRNMNBSA96Q</c:referenceNumber><c:verificationNumber>K7R8LA90</c:verificationNumber><c:status>PENDING_REVIEW</c:status><c:version>2</c:version><c:newField>x</c:newField></s:sdOverviewList></s:GetSdResponse>`,
		);
		expect(readOverviews(el)).toEqual([
			{
				uuid: UUID,
				internalReferenceNumber: 'FARM-1',
				referenceNumber: 'S26FRNMNBSA96Q',
				verificationNumber: 'K7R8LA90',
				status: 'PENDING_REVIEW',
				rejectionReason: null,
				communicationToOperator: null,
				date: null,
				updatedBy: null,
				version: '2',
				newField: 'x',
			},
		]);
	});

	it('getSdByIdentifiers: locations as lists, geolocation decoded', () => {
		const body = submitSdBody('MICRO_OPERATOR', everything).replace(
			/SubmitSdRequest/g,
			'GetSdByIdentifiersResponse',
		);
		const content = readStatementContent(parseXml(body));
		const [commodity] = content.commodities as Array<Record<string, unknown>>;
		const producers = commodity.producers as Array<Record<string, Record<string, unknown>>>;
		expect(producers[0].producerLocation.geometryGeojson).toEqual(JSON.parse(POINT));
		expect(producers[1].producerLocation.postalAddress).toEqual([
			{ producerStreet: 'Lieu-dit Bois', producerPostalCode: '12000', producerCity: 'Rodez' },
			{ producerPostalCode: '12100', producerCity: 'Millau' },
		]);
		expect(producers[2].producerLocation.cadastralIdentifier).toEqual([
			'12202000AB0042',
			'12202000AB0043',
		]);
		expect(content.groupedDeclarations).toEqual(['S26FRNMNBSA96Q', 'S26FRNMNBSA97Q']);
	});
});
