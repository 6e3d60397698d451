/** Validate's messages in the user's terms (nodes/shared/plots/userTerms.ts). */
import {
	columnOfExpression,
	fieldName,
	inUserTerms,
	plainSentence,
} from '../../nodes/shared/plots/userTerms';

describe('userTerms', () => {
	it('reads the column of a plain $json expression, nothing else', () => {
		expect(columnOfExpression('={{ $json.latitude }}')).toBe('latitude');
		expect(columnOfExpression('={{$json.area_ha}}')).toBe('area_ha');
		expect(columnOfExpression('={{ $json["Point area"] }}')).toBe('Point area');
		expect(columnOfExpression("={{ $json['lat'] }}")).toBe('lat');
		expect(columnOfExpression('={{ $json.a.b }}')).toBeUndefined();
		expect(columnOfExpression('={{ $json.lat * 1 }}')).toBeUndefined();
		expect(columnOfExpression("={{ $('Read').item.json.lat }}")).toBeUndefined();
		expect(columnOfExpression('6.5')).toBeUndefined();
		expect(columnOfExpression(6.5)).toBeUndefined();
	});

	it('names a field by its column, with the label when they differ', () => {
		const terms = { columns: { Latitude: 'latitude', 'Point Area (Ha)': 'area_ha' } };
		expect(fieldName('Latitude', terms)).toBe('latitude');
		expect(fieldName('Point Area (Ha)', terms)).toBe('area_ha (Point Area (Ha))');
		expect(fieldName('Commodity', terms)).toBe('Commodity');
	});

	it('a plain sentence first, the technical message after it; a field reason after the field', () => {
		const terms = { source: 'latLon', columns: { Latitude: 'lat', Longitude: 'lon' } };
		const where = { feature: 0 };
		expect(inUserTerms({ code: 'swapped_lat_lon', message: 'technical.', where }, terms)).toBe(
			'lat (Latitude) and lon (Longitude) look swapped: swap the two values. Detail: technical.',
		);
		expect(
			inUserTerms(
				{ code: 'invalid_field', message: 'reason.', where: { feature: null, field: 'Latitude' } },
				terms,
			),
		).toBe('lat (Latitude): reason.');
		expect(inUserTerms({ code: 'not_geojson', message: 'as is.', where }, terms)).toBe('as is.');
		expect(
			plainSentence({ code: 'point_requires_polygon', message: '', where, pointHa: 4.5 }, {}),
		).toBe(
			'Point Area (Ha) is 4.5 ha: a plot of more than 4 ha needs its boundary (a polygon), not a single point.',
		);
		expect(
			plainSentence({ code: 'swapped_lat_lon', message: '', where }, { source: 'geoJson' }),
		).toMatch(/^Latitude and longitude look swapped in the geometry/);
	});
});
