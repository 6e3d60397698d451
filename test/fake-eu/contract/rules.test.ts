/**
 * The business rules the fake enforces (README §6, CF4 codes of README §7), answered with a
 * BusinessRulesValidationException holding one error/v01 Error per problem.
 */
import { geo } from '../client';
import { statementRuleErrors } from '../rules';
import { COMMON_NS, DDS_NS, parseDocument } from '../xml';
import type { FakeEu } from '../index';
import { startFakeEu } from '../index';
import type { StatementSpec } from './harness';
import { codes, request, submitBody } from './harness';

let eu: FakeEu;
beforeAll(async () => {
	eu = await startFakeEu({
		ratePerSecond: 0,
		users: [
			{ username: 'eu-operator' },
			{
				username: 'no-eori',
				key: 'k2',
				operator: { name: 'No EORI Ltd', hasEori: false, euEstablished: true },
			},
			{
				username: 'non-eu',
				key: 'k3',
				operator: { name: 'Far Away Inc', hasEori: true, euEstablished: false },
			},
		],
	});
});
afterAll(async () => {
	await eu.stop();
});

const refused = async (spec: StatementSpec, as?: { username: string; key: string }) => {
	const read = await request(eu, 'submitDds', submitBody(spec), as ?? {});
	if (read.status === 200) return [];
	expect(read.fault).toMatchObject({
		code: 'S:Client',
		name: 'BusinessRulesValidationException',
		string: 'Some business rules are not met',
	});
	return codes(read);
};

const point = (lon: number, lat: number) => geo({ type: 'Point', coordinates: [lon, lat] });

test('a valid statement passes', async () => {
	expect(await refused({})).toEqual([]);
	expect(
		await refused({ activity: 'DOMESTIC', measure: { percentage: '10', netWeight: '5' } }),
	).toEqual([]);
});

test('HS heading outside Annex I', async () => {
	expect(await refused({ hs: '8471' })).toEqual(['EUDR_COMMODITIES_HS_CODE_INVALID']);
});

test('IMPORT/EXPORT: net weight required, percentage not allowed', async () => {
	expect(await refused({ measure: { netWeight: '' } })).toEqual([
		'EUDR_COMMODITIES_DESCRIPTOR_NET_MASS_EMPTY',
	]);
	expect(
		await refused({ activity: 'EXPORT', measure: { percentage: '5', netWeight: '10' } }),
	).toEqual(['EUDR_COMMODITIES_DESCRIPTOR_PERCENTAGE_ESTIMATION_NOT_ALLOWED']);
});

test('DOMESTIC: a net weight needs its percentage estimate (seen live on V3 acceptance, pack §12)', async () => {
	expect(await refused({ activity: 'DOMESTIC', measure: { netWeight: '5' } })).toEqual([
		'EUDR_COMMODITIES_DESCRIPTOR_PERCENTAGE_ESTIMATION_MISSING',
	]);
	const read = await request(
		eu,
		'submitDds',
		submitBody({ activity: 'DOMESTIC', measure: { netWeight: '5' } }),
	);
	expect(read.fault?.errors.map((e) => e.field)).toEqual([
		'commodities[1].descriptors.goodsMeasure.percentageEstimationOrDeviation',
	]);
	// 0 (an exact weight) is a percentage; a supplementary unit alone needs none
	expect(
		await refused({ activity: 'DOMESTIC', measure: { netWeight: '5', percentage: '0' } }),
	).toEqual([]);
	expect(
		await refused({
			activity: 'DOMESTIC',
			measure: { netWeight: '', unit: '3', qualifier: 'NAR' },
		}),
	).toEqual([]);
	// a net weight next to a unit still needs it (UOM App. II: net mass + percentage, a unit, or both)
	expect(
		await refused({
			activity: 'DOMESTIC',
			measure: { netWeight: '5', unit: '3', qualifier: 'NAR' },
		}),
	).toEqual(['EUDR_COMMODITIES_DESCRIPTOR_PERCENTAGE_ESTIMATION_MISSING']);
});

test('supplementary unit by HS code (UOM App. I)', async () => {
	const wood = { species: [{ scientific: 'Quercus robur', common: 'Oak' }] };
	expect(await refused({ ...wood, hs: '4403' })).toEqual([
		'EUDR_COMMODITIES_DESCRIPTOR_SUPPLEMENTARY_UNIT_MISSING',
	]);
	expect(
		await refused({
			...wood,
			hs: '4403',
			measure: { netWeight: '1', unit: '2', qualifier: 'NAR' },
		}),
	).toEqual(['EUDR_COMMODITIES_DESCRIPTOR_SUPPLEMENTARY_UNIT_QUALIFIER_NOT_COMPATIBLE']);
	expect(
		await refused({
			...wood,
			hs: '4403',
			measure: { netWeight: '1', unit: '2', qualifier: 'MTQ' },
		}),
	).toEqual([]);
	expect(await refused({ measure: { netWeight: '1', unit: '2', qualifier: 'KSD' } })).toEqual([
		'EUDR_COMMODITIES_DESCRIPTOR_SUPPLEMENTARY_UNIT_NOT_ALLOWED',
	]);
});

test('wood needs a scientific and a common name', async () => {
	expect(await refused({ hs: '4407' })).toEqual([
		'EUDR_COMMODITIES_SPECIES_INFORMATION_SCIENTIFIC_NAME_EMPTY',
		'EUDR_COMMODITIES_SPECIES_INFORMATION_COMMON_NAME_EMPTY',
	]);
});

test('GeoJSON: decodable, accepted types, coordinates in range, closed rings', async () => {
	expect(await refused({ producers: [Buffer.from('not json').toString('base64')] })).toEqual([
		'EUDR_COMMODITIES_PRODUCER_GEO_INVALID',
	]);
	expect(
		await refused({
			producers: [
				geo({
					type: 'LineString',
					coordinates: [
						[0, 0],
						[1, 1],
					],
				}),
			],
		}),
	).toEqual(['EUDR_COMMODITIES_PRODUCER_GEO_INVALID_GEOMETRY']);
	expect(await refused({ producers: [point(181, 0)] })).toEqual([
		'EUDR_COMMODITIES_PRODUCER_GEO_LONGITUDE_INVALID',
	]);
	expect(await refused({ producers: [point(0, -91)] })).toEqual([
		'EUDR_COMMODITIES_PRODUCER_GEO_LATITUDE_INVALID',
	]);
	expect(
		await refused({
			producers: [
				geo({
					type: 'Polygon',
					coordinates: [
						[
							[0, 0],
							[1, 0],
							[1, 1],
							[0, 0.5],
						],
					],
				}),
			],
		}),
	).toEqual(['EUDR_COMMODITIES_PRODUCER_GEO_INVALID_GEOMETRY']);
	const fc = geo({
		type: 'FeatureCollection',
		features: [
			{
				type: 'Feature',
				properties: { ProducerName: 'A' },
				geometry: { type: 'Point', coordinates: [10, 10] },
			},
		],
	});
	expect(await refused({ producers: [fc] })).toEqual([]);
	expect(await refused({ producers: [] })).toEqual(['EUDR_COMMODITIES_PRODUCER_GEO_EMPTY']);
});

test('a point’s Area: 0.0001–4 ha, over 4 only for cattle (pack §6)', async () => {
	const withArea = (area: unknown) =>
		geo({
			type: 'Feature',
			properties: { Area: area },
			geometry: { type: 'Point', coordinates: [10, 10] },
		});
	expect(await refused({ producers: [withArea(3.5)] })).toEqual([]);
	expect(await refused({ producers: [withArea(12)] })).toEqual([
		'EUDR_COMMODITIES_PRODUCER_GEO_AREA_INVALID',
	]);
	expect(await refused({ producers: [withArea('4')] })).toEqual([
		'EUDR_COMMODITIES_PRODUCER_GEO_AREA_INVALID',
	]);
	expect(await refused({ hs: '0201', producers: [withArea(12)] })).toEqual([]);
});

test('at most 10 000 producers per statement (checked on the statement, below the schema)', () => {
	const producer = `<dds:producers><dds:country>BR</dds:country><dds:geometryGeojson>${point(1, 1)}</dds:geometryGeojson></dds:producers>`;
	const commodity = `<dds:commodities><dds:descriptors><eudrCommon:descriptionOfGoods>x</eudrCommon:descriptionOfGoods><eudrCommon:goodsMeasure><eudrCommon:netWeight>1</eudrCommon:netWeight></eudrCommon:goodsMeasure></dds:descriptors><dds:hsHeading>1801</dds:hsHeading>${producer.repeat(1000)}</dds:commodities>`;
	const xml = `<dds:statement xmlns:dds="${DDS_NS}" xmlns:eudrCommon="${COMMON_NS}"><dds:activityType>IMPORT</dds:activityType>${commodity.repeat(11)}<dds:geoLocationConfidential>false</dds:geoLocationConfidential></dds:statement>`;
	const errors = statementRuleErrors(parseDocument(xml), 'OPERATOR', eu.users[0]);
	expect(errors.map((e) => e.id)).toEqual(['EUDR_MAXIMUM_GEO_SIZE_REACHED']);
	expect(
		statementRuleErrors(parseDocument(xml.replace(commodity, '')), 'OPERATOR', eu.users[0]),
	).toEqual([]);
});

test('producer country: an assigned ISO 3166-1 alpha-2 code, not any two letters ([VR] "a valid country", GEO item 12)', async () => {
	const withCountry = (country: string) =>
		submitBody({}).replace(
			'<dds:country>BR</dds:country>',
			`<dds:country>${country}</dds:country>`,
		);
	const read = await request(eu, 'submitDds', withCountry('ZZ'));
	expect(read.fault?.errors.map((e) => [e.id, e.field])).toEqual([
		['EUDR_COMMODITITY_PRODUCER_COUNTRY_CODE_INVALID', 'commodities[1].producers[1].country'],
	]);
	// letter case is not stated: the XSD allows small letters, and so does the fake
	expect((await request(eu, 'submitDds', withCountry('ci'))).status).toBe(200);
});

test('at most 1000 producers per commodity', async () => {
	const many = Array.from({ length: 1001 }, () => point(10, 10));
	// the XSD caps producers at 1000 per commodity, so this is a schema violation before any rule
	const read = await request(eu, 'submitDds', submitBody({ producers: many }));
	expect(read.fault?.string).toMatch(/Unmarshalling Error/);
});

test('operator profile: EORI for IMPORT/EXPORT, non-EU operators IMPORT only, representative needs the represented operator', async () => {
	expect(await refused({}, { username: 'no-eori', key: 'k2' })).toEqual([
		'EUDR_OPERATOR_EORI_FOR_ACTIVITY_MISSING',
	]);
	expect(
		await refused(
			{ activity: 'DOMESTIC', measure: { percentage: '0' } },
			{ username: 'no-eori', key: 'k2' },
		),
	).toEqual([]);
	expect(await refused({ activity: 'EXPORT' }, { username: 'non-eu', key: 'k3' })).toEqual([
		'EUDR_ACTIVITY_TYPE_NOT_ALLOWED_FOR_NON_EU_OPERATOR',
	]);
	expect(await refused({ role: 'REPRESENTATIVE_OPERATOR' })).toEqual([
		'EUDR_BEHALF_OPERATOR_NOT_PROVIDED',
	]);
	expect(await refused({ role: 'REPRESENTATIVE_OPERATOR', represented: true })).toEqual([]);
});

test('every problem of a statement in one fault, each with its field', async () => {
	const read = await request(
		eu,
		'submitDds',
		submitBody({ hs: '8471', producers: [point(200, 0)] }),
	);
	expect(read.fault?.errors).toEqual([
		{
			id: 'EUDR_COMMODITIES_HS_CODE_INVALID',
			message: expect.any(String),
			field: 'commodities[1].hsHeading',
		},
		{
			id: 'EUDR_COMMODITIES_PRODUCER_GEO_LONGITUDE_INVALID',
			message: expect.any(String),
			field: 'commodities[1].producers[1].geometryGeojson',
		},
	]);
});
