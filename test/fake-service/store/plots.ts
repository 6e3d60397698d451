/** Plots: POST /plots/make_plot, GET /plots/plot/{id}, GET /plots, and fast seeding for tests. */
import type { Feature, MultiPolygon, Polygon } from 'geojson';
import type { FakeClock } from '../clock';
import { lookupCountry } from '../data';
import { areaHa, centre, GeometryError, normalizeGeometry, round } from '../geo';
import { badRequest, forbiddenEntity, notFound } from '../http-error';
import { DEFAULT_VARIANT, idFor, type FakeVariant } from '../variant';
import { checkCommodity, checkCrs, checkDate, checkKeys, fmtTs, isObj } from './common';
import { paginate } from './pagination';

export const MAX_FEATURES_PER_PLOT_REQUEST = 20;

export interface PlotRec {
	num: number;
	plot_id: string;
	username: string;
	plot_name: string;
	country: string;
	state: string;
	notes: string;
	geojson_features: Feature[];
	harvest_dates: string[];
	commodity: string | null;
	lat: string;
	lon: string;
	area_ha: number;
	tokens_cost: number;
	createdMs: number;
	updatedMs: number;
	analysis_image: string | null;
	additional_info: Record<string, unknown>;
	analysis: Record<string, unknown>;
	analysisGeometry: Polygon | MultiPolygon;
}

export class Plots {
	readonly byId = new Map<string, PlotRec>();
	// ids keep growing across reset() so that a long-running n8n never sees an id twice
	private nextId = 100001;

	/** `settle` brings the job engine up to the fake clock's now before plots are read. */
	constructor(
		private readonly clock: FakeClock,
		private readonly baseUrl: () => string,
		private readonly settle: () => void,
		private readonly variant: FakeVariant = DEFAULT_VARIANT,
	) {}

	reset(): void {
		this.byId.clear();
	}

	imageUrl(plotId: string): string {
		return `${this.baseUrl()}/__fake/images/${plotId}.png`;
	}

	view(p: PlotRec): Record<string, unknown> {
		return {
			plot_id: p.plot_id,
			plot_name: p.plot_name,
			username: p.username,
			country: p.country,
			state: p.state,
			notes: p.notes,
			geojson_features: p.geojson_features,
			harvest_dates: p.harvest_dates,
			commodity: p.commodity,
			lat: p.lat,
			lon: p.lon,
			area_ha: p.area_ha,
			tokens_cost: p.tokens_cost,
			created_at: fmtTs(p.createdMs),
			updated_at: fmtTs(p.updatedMs),
			analysis_image: p.analysis_image,
			additional_info: p.additional_info,
			analysis: p.analysis,
			// deprecated extras the real service still sends
			company_id: null,
			geohashes: [],
		};
	}

	lite(p: PlotRec): Record<string, unknown> {
		return {
			plot_id: p.plot_id,
			plot_name: p.plot_name,
			commodity: p.commodity,
			area_ha: p.area_ha,
			created_at: fmtTs(p.createdMs),
			country: p.country,
		};
	}

	/** Creates a plot from an already validated geometry. */
	private insert(
		username: string,
		feature: Feature,
		norm: ReturnType<typeof normalizeGeometry>,
		f: {
			name?: string;
			commodity?: string;
			harvestDate?: string;
			notes?: string;
			additional_info?: Record<string, unknown>;
		},
		createdMs: number,
	): PlotRec {
		const num = this.nextId++;
		const plot_id = idFor(this.variant, 'plot', num);
		const a = areaHa(norm.analysisGeometry);
		const [lon, lat] = centre(norm.analysisGeometry);
		const { country, state } = lookupCountry(lon, lat);
		const storedFeature: Feature = {
			type: 'Feature',
			geometry: norm.storedGeometry,
			properties: { ...(feature.properties ?? {}) },
		};
		const rec: PlotRec = {
			num,
			plot_id,
			username,
			plot_name: f.name ?? `Plot ${plot_id}`,
			country,
			state,
			notes: f.notes ?? '',
			geojson_features: [storedFeature],
			harvest_dates: f.harvestDate ? [f.harvestDate] : [],
			commodity: f.commodity ?? null,
			lat: lat.toFixed(6),
			lon: lon.toFixed(6),
			area_ha: round(a),
			tokens_cost: Math.max(1, Math.ceil(a - 1e-9)),
			createdMs,
			updatedMs: createdMs,
			analysis_image: null,
			additional_info: f.additional_info ?? {},
			analysis: {},
			analysisGeometry: norm.analysisGeometry,
		};
		this.byId.set(plot_id, rec);
		return rec;
	}

	/** POST /plots/make_plot */
	make(username: string, body: unknown): unknown {
		if (!isObj(body)) throw badRequest('Unable to process JSON');
		const common = ['plot_name', 'commodity', 'harvest_date', 'notes', 'additional_info'];
		let fc: unknown;
		if (body.type === 'FeatureCollection') {
			checkKeys(body, [...common, 'type', 'features', 'crs', 'bbox', 'name']);
			fc = body;
		} else {
			checkKeys(body, [...common, 'geojson']);
			if (body.geojson === undefined)
				throw badRequest('geojson is required: a GeoJSON FeatureCollection');
			fc = body.geojson;
		}
		if (!isObj(fc) || fc.type !== 'FeatureCollection')
			throw new GeometryError(
				`Invalid Geometry in GeoJSON: expected a FeatureCollection, got ${isObj(fc) ? `'${String(fc.type)}'` : typeof fc}`,
			);
		checkCrs(fc.crs);
		if (!Array.isArray(fc.features) || fc.features.length === 0)
			throw new GeometryError('Invalid Geometry in GeoJSON: the FeatureCollection has no features');
		if (fc.features.length > MAX_FEATURES_PER_PLOT_REQUEST)
			throw badRequest(
				`Too many features: ${fc.features.length}. At most ${MAX_FEATURES_PER_PLOT_REQUEST} features can be registered per request.`,
			);
		const commodity = checkCommodity(body.commodity);
		const harvestDate = checkDate(body.harvest_date, 'harvest_date');
		if (body.notes !== undefined && body.notes !== null && typeof body.notes !== 'string')
			throw badRequest('notes must be a string');
		if (
			body.plot_name !== undefined &&
			body.plot_name !== null &&
			typeof body.plot_name !== 'string'
		)
			throw badRequest('plot_name must be a string');
		if (
			body.additional_info !== undefined &&
			body.additional_info !== null &&
			!isObj(body.additional_info)
		)
			throw badRequest('additional_info must be an object');
		const n = fc.features.length;
		const prepared = (fc.features as unknown[]).map((f, i) => {
			const where = `feature ${i}`;
			if (!isObj(f) || f.type !== 'Feature')
				throw new GeometryError(`Invalid Geometry in GeoJSON: ${where}: type must be 'Feature'`);
			if (f.properties !== undefined && f.properties !== null && !isObj(f.properties))
				throw new GeometryError(
					`Invalid Geometry in GeoJSON: ${where}: properties must be an object`,
				);
			const props = (f.properties ?? {}) as Record<string, unknown>;
			const norm = normalizeGeometry(f.geometry, props, where);
			const fCommodity = checkCommodity(props.commodity) ?? commodity;
			const fHarvest = checkDate(props.harvest_date, 'harvest_date') ?? harvestDate;
			const propName =
				typeof props.plot_name === 'string'
					? props.plot_name
					: typeof props.name === 'string'
						? props.name
						: undefined;
			const baseName =
				typeof body.plot_name === 'string' && body.plot_name ? body.plot_name : undefined;
			const name = propName ?? (baseName ? (n > 1 ? `${baseName} ${i + 1}` : baseName) : undefined);
			return {
				feature: f as unknown as Feature,
				norm,
				commodity: fCommodity,
				harvestDate: fHarvest,
				name,
			};
		});
		const now = this.clock.nowMs();
		const created = prepared.map((p) =>
			this.insert(
				username,
				p.feature,
				p.norm,
				{
					name: p.name,
					commodity: p.commodity,
					harvestDate: p.harvestDate,
					// both checked above: a string / an object, or absent
					notes: (body.notes as string | null | undefined) ?? undefined,
					additional_info:
						(body.additional_info as Record<string, unknown> | null | undefined) ?? undefined,
				},
				now,
			),
		);
		if (n === 1) return this.view(created[0]);
		return { plots: created.map((p) => this.view(p)) };
	}

	/** Fast seeding for tests: n small square plots for a user. createdMs defaults to now - (n - i) seconds. */
	seed(
		username: string,
		count: number,
		opts: { createdAt?: (i: number) => Date; namePrefix?: string; commodity?: string | null } = {},
	): string[] {
		const ids: string[] = [];
		const now = this.clock.nowMs();
		for (let i = 0; i < count; i++) {
			const lon = -55 + (i % 100) * 0.01;
			const lat = -8 - Math.floor(i / 100) * 0.01;
			const d = 0.002;
			const g: Polygon = {
				type: 'Polygon',
				coordinates: [
					[
						[lon, lat],
						[lon + d, lat],
						[lon + d, lat + d],
						[lon, lat + d],
						[lon, lat],
					],
				],
			};
			const created = opts.createdAt ? opts.createdAt(i).getTime() : now - (count - i) * 1000;
			const rec = this.insert(
				username,
				{ type: 'Feature', geometry: g, properties: {} },
				{ analysisGeometry: g, storedGeometry: g, wasPoint: false },
				{
					name: `${opts.namePrefix ?? 'Seeded plot'} ${i + 1}`,
					commodity: opts.commodity === null ? undefined : (opts.commodity ?? 'cocoa'),
				},
				created,
			);
			ids.push(rec.plot_id);
		}
		return ids;
	}

	/** The user's plot `id`: 404 when there is none, 403 when it is another user's. */
	owned(username: string, id: string): PlotRec {
		this.settle();
		const p = this.byId.get(id);
		if (!p) throw notFound();
		if (p.username !== username) throw forbiddenEntity();
		return p;
	}

	/** GET /plots */
	list(username: string, q: Record<string, string>): unknown {
		this.settle();
		const mine = [...this.byId.values()].filter((p) => p.username === username);
		const { page, meta } = paginate(mine, q, 'plots');
		const lite = String(q.lite ?? '').toLowerCase() === 'true';
		return { plots: page.map((p) => (lite ? this.lite(p) : this.view(p))), meta };
	}
}
