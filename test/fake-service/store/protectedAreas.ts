/** Protected areas: POST /protected-areas/checks (paid per item) and GET /protected-areas[/areas]/{id}. */
import type { Feature, Geometry, MultiPolygon, Polygon } from 'geojson';
import type { FakeClock } from '../clock';
import { PA_SOURCES, PROTECTED_AREAS } from '../data';
import { areaHa, GeometryError, normalizeGeometry, protectedAreaOverlap, round } from '../geo';
import { apiError, badRequest, forbiddenEntity, notFound, plainStringError } from '../http-error';
import { DEFAULT_VARIANT, isIdShape, shapeOverlap, type FakeVariant } from '../variant';
import { checkCrs, checkKeys, fmtTs, isObj } from './common';
import type { Plots } from './plots';
import type { Tokens } from './tokens';

export const PROTECTED_AREA_BATCH_LIMIT = 100;
export const PROTECTED_AREA_TOKENS_PER_ITEM = 1;

export class ProtectedAreas {
	constructor(
		private readonly clock: FakeClock,
		private readonly plots: Plots,
		private readonly tokens: Tokens,
		private readonly variant: FakeVariant = DEFAULT_VARIANT,
	) {}

	/** POST /protected-areas/checks */
	check(username: string, body: unknown): unknown {
		if (!isObj(body)) throw badRequest('Unable to process JSON');
		checkKeys(body, ['plot_ids', 'geojson']);
		const hasIds = body.plot_ids !== undefined && body.plot_ids !== null;
		const hasGeo = body.geojson !== undefined && body.geojson !== null;
		if (!hasIds && !hasGeo) throw badRequest('At least one of plot_ids or geojson is required');
		const ids: string[] = [];
		if (hasIds) {
			if (!Array.isArray(body.plot_ids)) throw badRequest('plot_ids must be an array of strings');
			for (const v of body.plot_ids) {
				if (typeof v !== 'string' && typeof v !== 'number')
					throw badRequest('plot_ids must be an array of strings');
				ids.push(String(v));
			}
		}
		let feats: Feature[] = [];
		if (hasGeo) {
			const g = body.geojson;
			if (!isObj(g))
				throw new GeometryError(
					'Invalid Geometry in GeoJSON: geojson must be a Feature, a FeatureCollection or a geometry',
				);
			if (g.type === 'FeatureCollection') {
				checkCrs(g.crs);
				if (!Array.isArray(g.features))
					throw new GeometryError('Invalid Geometry in GeoJSON: features must be an array');
				feats = g.features as Feature[];
			} else if (g.type === 'Feature') feats = [g as unknown as Feature];
			// a bare geometry; normalizeGeometry validates it like any feature's geometry
			else feats = [{ type: 'Feature', geometry: g as unknown as Geometry, properties: {} }];
		}
		const n = ids.length + feats.length;
		if (n === 0) throw badRequest('At least one of plot_ids or geojson is required');
		if (n > PROTECTED_AREA_BATCH_LIMIT)
			throw badRequest(
				`Batch too large: ${n} items. At most ${PROTECTED_AREA_BATCH_LIMIT} plot_ids and geometries together per request.`,
			);
		const items: { geometry: Polygon | MultiPolygon; props: Record<string, unknown> }[] = [];
		for (const id of ids) {
			if (!isIdShape(this.variant, id) || !this.plots.byId.has(id))
				throw apiError(404, `Plot not found: ${id}`);
			const p = this.plots.byId.get(id)!;
			if (p.username !== username) throw forbiddenEntity();
			items.push({
				geometry: p.analysisGeometry,
				props: { input_type: 'plot', plot_id: p.plot_id, plot_name: p.plot_name },
			});
		}
		feats.forEach((f, i) => {
			if (!isObj(f) || f.type !== 'Feature')
				throw new GeometryError(
					`Invalid Geometry in GeoJSON: feature ${i}: type must be 'Feature'`,
				);
			const props = (isObj(f.properties) ? f.properties : {}) as Record<string, unknown>;
			const norm = normalizeGeometry(f.geometry, props, `feature ${i}`);
			items.push({
				geometry: norm.analysisGeometry,
				props: { input_type: 'geojson', geojson_index: i, input_properties: props },
			});
		});
		const cost = n * PROTECTED_AREA_TOKENS_PER_ITEM;
		const bal = this.tokens.get(username);
		const free = bal?.free ?? 0;
		if (!bal || free < cost)
			throw plainStringError(400, `Insufficient tokens: ${cost} required, ${free} available`);
		this.tokens.charge(username, cost);
		return {
			type: 'FeatureCollection',
			features: items.map((it, input_index) => {
				const a = areaHa(it.geometry);
				const r = protectedAreaOverlap(it.geometry, a);
				return {
					type: 'Feature',
					geometry: it.geometry,
					properties: shapeOverlap(this.variant, {
						input_index,
						...it.props,
						area_ha: round(a),
						protected_area_overlap_summary: r.protected_area_overlap_summary,
						protected_area_details: r.protected_area_details,
					}),
				};
			}),
			sources: PA_SOURCES,
			metadata: {
				checked: n,
				tokens_charged: cost,
				batch_limit: PROTECTED_AREA_BATCH_LIMIT,
				checked_at: fmtTs(this.clock.nowMs()),
			},
		};
	}

	/** GET /protected-areas/{id} and GET /protected-areas/areas/{id} */
	area(id: string): unknown {
		const pa = PROTECTED_AREAS.find((a) => a.area_id === id);
		if (!pa) throw notFound();
		const { ring, ...props } = pa;
		return {
			type: 'FeatureCollection',
			features: [
				{
					type: 'Feature',
					id: pa.area_id,
					geometry: { type: 'Polygon', coordinates: [ring] },
					properties: {
						...props,
						area_ha: round(areaHa({ type: 'Polygon', coordinates: [ring] }), 1),
					},
				},
			],
			sources: PA_SOURCES,
		};
	}
}
