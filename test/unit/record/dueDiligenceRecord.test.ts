/**
 * The due-diligence record (shared/record/): what it keeps of each row (validation, analysis
 * with its data versions, the statement, the plot as filed), null with a reason for what the
 * rows do not give, secrets redacted, and its page: every input text escaped, bounded.
 */
import type { IDataObject } from 'n8n-workflow';

import { buildRecord } from '../../../nodes/shared/record/dueDiligenceRecord';
import { analysisOf, statementOf, validationOf } from '../../../nodes/shared/record/plotRecord';
import { redactSecrets } from '../../../nodes/shared/record/recordRedaction';
import { rowGeometry } from '../../../nodes/shared/record/recordGeometry';
import { analysed, filed, input, row, square, validated } from './fixtures';

describe('buildRecord', () => {
	it('keeps per plot its validation, analysis and statement, and the plot as filed (EU GeoJSON)', () => {
		const rows = [0, 1].map((i) =>
			row(i, {
				geometry: square(-5.3 + i * 0.01, 6.8),
				...validated(true),
				...analysed(`p${i}`, i ? 'High' : 'Low'),
				...filed('u-1'),
			}),
		);
		const record = buildRecord(input(rows));
		expect(record.record).toBe('EUDR due-diligence record');
		expect(record.shipment).toBe('PO-1');
		expect(record.decision).toEqual({
			risk: 'negligible',
			risk_reason: null,
			rule: 'Low risk, deforestation-free, no overlap',
			rule_reason: null,
		});
		expect(record.items).toEqual([0, 1]);
		expect(record.statements).toHaveLength(1);
		expect(record.statements[0]).toMatchObject({
			uuid: 'u-1',
			status: 'AVAILABLE',
			reference_number: '26FRXVV3VOAUD1',
			verification_number: 'KQ2ZB4ZJ',
			internal_reference: 'PO-1',
			filed_by: 'this run',
			status_date: '2026-05-20T10:20:01.000Z',
			environment: 'acceptance',
			items: [0, 1],
			filed_at: null,
		});
		expect(record.statements[0].filed_at_reason).toMatch(/status_date/);
		const [low, high] = record.plots;
		expect(low).toMatchObject({ plot_id: 'p0', outcome: 'low risk', statement_uuid: 'u-1' });
		expect(high.outcome).toBe('high risk');
		expect(low.validation).toMatchObject({ valid: true, problem_count: 0 });
		expect(low.analysis).toMatchObject({
			risk_level: 'Low',
			deforestation_free: true,
			analysis_end: '2026-05-01',
			analysis_version: '2026-04-15',
		});
		// the plot as Submit files it: ProducerCountry, six decimals, counter-clockwise
		expect(low.eu_geojson).toEqual({
			type: 'FeatureCollection',
			features: [
				{
					type: 'Feature',
					properties: { ProducerCountry: 'CI' },
					geometry: {
						type: 'Polygon',
						coordinates: [
							[
								[-5.3, 6.8],
								[-5.297, 6.8],
								[-5.297, 6.803],
								[-5.3, 6.803],
								[-5.3, 6.8],
							].map(([x, y]) => [Number(x.toFixed(6)), Number(y.toFixed(6))]),
						],
					},
				},
			],
		});
		expect(record.summary).toMatchObject({
			plots: 2,
			valid: 2,
			analysed: 2,
			risk_levels: { Low: 1, High: 1 },
			not_deforestation_free: 1,
			eu_features: 2,
		});
		expect(record.summary.by_outcome).toMatchObject({ 'low risk': 1, 'high risk': 1 });
	});

	it('says why a part is null instead of inventing it: no decision, rule, statement, validation or analysis', () => {
		const record = buildRecord(
			input([row(0, { latitude: 6.8, longitude: -5.3 }, 'CI')], {
				shipment: null,
				decision: null,
				rule: null,
			}),
		);
		expect(record.shipment_reason).toMatch(/every input item/);
		expect(record.decision.risk).toBeNull();
		expect(record.decision.risk_reason).toMatch(/no risk decision/);
		expect(record.decision.rule_reason).toMatch(/no rule/);
		expect(record.statements).toEqual([]);
		expect(record.statement_reason).toMatch(/nothing filed/);
		const [plot] = record.plots;
		expect(plot.validation).toBeNull();
		expect(plot.validation_reason).toMatch(/Plot → Validate/);
		expect(plot.analysis).toBeNull();
		expect(plot.analysis_reason).toMatch(/Wait for Completion/);
		expect(plot.outcome).toBe('not known');
		// a point without an area is not what the EU takes: not written, with why
		expect(plot.eu_geojson).toBeNull();
		expect(plot.eu_geojson_reason).toMatch(/without an area/);
	});

	it("names the statement fields the rows did not give, and takes the later rows' numbers", () => {
		const first = filed('u-9', {
			dds_status: 'SUBMITTED',
			dds_reference_number: null,
			dds_verification_number: null,
			dds_environment: undefined,
			dds_updated_at: '2026-05-20T09:55:01.000Z',
		});
		const record = buildRecord(
			input([
				row(0, { geometry: square(1, 1), ...first }),
				row(1, { geometry: square(2, 1), ...filed('u-9', { dds_environment: undefined }) }),
			]),
		);
		expect(record.statements).toHaveLength(1);
		const [s] = record.statements;
		// the first row's status stays; the numbers come from the second row
		expect(s.status).toBe('SUBMITTED');
		expect(s.reference_number).toBe('26FRXVV3VOAUD1');
		expect(s.filed_at).toBe('2026-05-20T09:55:01.000Z');
		expect(s.environment).toBeNull();
		expect(s.not_in_input).toEqual(['environment']);
	});

	it("reads the EU node's own statement item, and a simplified declaration's sd_ fields", () => {
		expect(
			statementOf({
				status: 'AVAILABLE',
				referenceNumber: '26FR1',
				verificationNumber: 'V1',
				uuid: 'u-2',
				internalReferenceNumber: 'PO-2',
				date: '2026-05-20T10:20:01.000Z',
				filedBy: 'an earlier run',
			}),
		).toMatchObject({
			kind: 'due diligence statement',
			uuid: 'u-2',
			reference_number: '26FR1',
			status_date: '2026-05-20T10:20:01.000Z',
			filed_by: 'an earlier run',
			environment: null,
		});
		expect(statementOf({ sd_uuid: 'u-3', sd_status: 'AVAILABLE' })).toMatchObject({
			kind: 'simplified declaration',
			uuid: 'u-3',
		});
		// an analysis row's status and uuid-less fields are no statement
		expect(statementOf(analysed('p1', 'Low'))).toBeUndefined();
		expect(statementOf({ uuid: 'x', status: 'analysed' })).toBeUndefined();
	});

	it('reads a raw analysis (Simplify off) with its data sources and their versions', () => {
		const raw: IDataObject = {
			plot_id: 'p7',
			plot_name: 'Raw plot',
			job_id: 'job-7',
			job_status: 'done',
			failed: false,
			failure_reason: null,
			analysis: {
				job_id: 'job-7',
				risk_level: 'Medium',
				analysis_start: '2020-12-31',
				analysis_end: '2026-05-01',
				version: '2026-04-15',
				protected_areas: {
					protected_area_overlap_summary: { protected_area_overlap: false },
					sources: [{ source_name: 'WDPA', data_version: '2026-03' }],
				},
				indigenous_land: {
					indigenous_land_overlap_summary: { indigenous_land_overlap: true },
					sources: [{ source_name: 'LandMark', data_version: 'v9' }],
				},
			},
		};
		const { analysis } = analysisOf(raw);
		expect(analysis).toMatchObject({
			risk_level: 'Medium',
			analysis_start: '2020-12-31',
			analysis_end: '2026-05-01',
			analysis_version: '2026-04-15',
			protected_area_overlap: false,
			indigenous_land_overlap: true,
			data_sources: [
				{ check: 'protected_areas', source_name: 'WDPA', data_version: '2026-03' },
				{ check: 'indigenous_land', source_name: 'LandMark', data_version: 'v9' },
			],
		});
		expect(analysis!.not_in_input).not.toContain('data_sources');
	});

	it('keeps at most 20 problems a plot, counting the rest', () => {
		const problems = Array.from({ length: 25 }, (_, i) => `problem ${i}`);
		const { validation } = validationOf(validated(false, problems));
		expect(validation!.problems).toHaveLength(20);
		expect(validation!.not_listed).toBe(5);
		expect(validation!.problem_count).toBe(25);
	});

	it('marks an invalid plot and a failed analysis as such (the worst outcome known)', () => {
		const record = buildRecord(
			input([
				row(0, { geometry: square(1, 1), ...validated(false, ['ring not closed']), ...analysed('a', 'Low') }),
				row(1, { geometry: square(2, 1), ...validated(true), ...analysed('b', 'Low', { failed: true, failure_reason: 'timeout', status: 'failed' }) }),
			]),
		); // prettier-ignore
		expect(record.plots.map((p) => p.outcome)).toEqual(['invalid', 'analysis failed']);
		expect(record.summary).toMatchObject({ invalid: 1, analysis_failed: 1 });
	});

	it('redacts secrets in every string and drops credential keys', () => {
		const record = buildRecord(
			input([
				row(0, {
					geometry: square(1, 1),
					...analysed('p', 'Low', {
						risk_reason: 'see https://user:hunter22@example.com/x?token=abc123456&plot=1',
						image_url: 'https://img.example.com/p.png?X-Amz-Signature=deadbeef00&X-Amz-Credential=AKIA1234',
						failure_reason: 'Bearer service_live_0123456789abcdef refused; jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig_part',
					}),
				}),
			], { rule: 'key service_live_ABCDEFGH1234 in rule' }),
		); // prettier-ignore
		const text = JSON.stringify(record);
		for (const secret of ['hunter22', 'abc123456', 'deadbeef00', 'AKIA1234', '0123456789abcdef', 'eyJhbGciOiJIUzI1NiJ9', 'ABCDEFGH1234'])
			expect(text).not.toContain(secret); // prettier-ignore
		expect(record.plots[0].analysis!.risk_reason).toBe(
			'see https://***@example.com/x?token=***&plot=1',
		);
		expect(redactSecrets('plain text, no secret')).toBe('plain text, no secret');
	});
});

describe('rowGeometry', () => {
	const options = { country: 'BR', pointHa: { kind: 'missing' as const }, pointHaField: 'Area' };

	it("writes a point with its area, keeps an EU feature's own properties, says why not otherwise", () => {
		const point = rowGeometry(
			'latLon',
			{ latitude: '-6.5', longitude: '-52.9' },
			{
				...options,
				pointHa: { kind: 'value', value: 2 },
			},
		);
		expect(point.eu.geojson).toMatchObject({
			features: [{ properties: { ProducerCountry: 'BR', Area: 2 }, geometry: { type: 'Point', coordinates: [-52.9, -6.5] } }],
		}); // prettier-ignore
		const exported = {
			type: 'FeatureCollection',
			features: [{ type: 'Feature', properties: { ProducerName: 'Coop', ProducerCountry: 'GH', ProductionPlace: 'Asante' }, geometry: square(-1.5, 6.6) }],
		}; // prettier-ignore
		const kept = rowGeometry('geoJson', { geoJson: exported }, options);
		expect((kept.eu.geojson!.features as IDataObject[])[0].properties).toEqual({
			ProducerName: 'Coop',
			ProducerCountry: 'GH',
			ProductionPlace: 'Asante',
		});
		const holed = rowGeometry('geoJson', {
			geoJson: { type: 'Polygon', coordinates: [...square(0, 0, 1).coordinates, [[0.2, 0.2], [0.2, 0.4], [0.4, 0.4], [0.2, 0.2]]] },
		}, options); // prettier-ignore
		expect(holed.eu.geojson).toBeNull();
		expect(holed.shapes).toHaveLength(1);
		const none = rowGeometry('item', { item: { name: 'no geometry' } }, options);
		expect(none.eu).toMatchObject({
			geojson: null,
			reason: expect.stringMatching(/could not be read: the item has no geometry/),
		});
		const noCountry = rowGeometry(
			'item',
			{ item: { geometry: square(1, 1) } },
			{ ...options, country: undefined },
		);
		expect(noCountry.eu).toMatchObject({
			geojson: null,
			reason: expect.stringMatching(/no Producer Country/),
		});
	});

	it('never simplifies the data: a 100,000-vertex plot is kept whole', () => {
		const n = 100_000;
		const ring = Array.from({ length: n }, (_, i) => {
			const a = (2 * Math.PI * i) / n;
			return [-5.3 + 0.01 * Math.cos(a), 6.8 + 0.01 * Math.sin(a)];
		});
		ring.push(ring[0]);
		const big = rowGeometry(
			'geoJson',
			{ geoJson: { type: 'Polygon', coordinates: [ring] } },
			options,
		);
		const features = big.eu.geojson!.features as Array<{ geometry: { coordinates: number[][][] } }>;
		expect(features[0].geometry.coordinates[0]).toHaveLength(n + 1);
	});
});

describe('validationOf', () => {
	it("reads versions 1 and 2's full reports as version 3 words them (the sentence and the place)", () => {
		const { validation } = validationOf({
			valid: false,
			problem_count: 1,
			problem_summary: 'The ring is not closed.',
			validation: {
				problems: [
					{
						code: 'ring_not_closed',
						message: 'The ring is not closed. Detail: first and last position differ.',
						where: { feature: 0, ring: 0 },
					},
				],
				warnings: [{ code: 'few_decimals', message: 'Fewer than six decimals.', where: {} }],
			},
		});
		expect(validation!.problems).toEqual(['The ring is not closed. (feature 0, ring 0)']);
		expect(validation!.warnings).toEqual(['Fewer than six decimals.']);
	});
});
