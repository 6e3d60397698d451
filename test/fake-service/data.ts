/** Built-in reference data of the fake: capabilities, protected areas, Indigenous lands, a coarse country lookup. */
import type { JsonSchema } from './schema';

export const COMMODITIES = [
	'wood',
	'soy',
	'cocoa',
	'coffee',
	'palm_oil',
	'beef',
	'rubber',
] as const;
export const LEGALITY_ORDER = ['prohibited', 'limited', 'unknown', 'permitted'] as const; // strictest first

export interface CostHint {
	model: 'per_ha' | 'per_plot';
	tokens_per_ha?: number;
	tokens_per_plot?: number;
	minimum_per_plot?: number;
	currency: 'tokens';
	note?: string;
	[k: string]: unknown;
}

/** A catalog entry as the fake keeps it (the public shape is produced by `publicCapability`). */
export interface Capability {
	name: string;
	label: string;
	description: string;
	input_schema?: JsonSchema;
	transport?: 'sync' | 'async';
	cost_hint?: CostHint;
	result_key?: string;
	/** long-form text returned with include=doc */
	methodology?: string;
	/** omitted from the default listing; returned with include=hidden */
	hidden?: boolean;
	group?: string;
}

const date = (description: string): JsonSchema => ({ type: 'string', format: 'date', description });
const year = (description: string, dflt?: number): JsonSchema => ({
	type: 'integer',
	minimum: 2001,
	maximum: 2025,
	description,
	...(dflt !== undefined ? { default: dflt } : {}),
});
const bufferM: JsonSchema = {
	type: 'integer',
	minimum: 0,
	maximum: 10000,
	default: 0,
	description: 'Buffer around the plot in metres',
};
const obj = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
	$schema: 'https://json-schema.org/draft/2020-12/schema',
	type: 'object',
	properties,
	...(required.length ? { required } : {}),
	additionalProperties: false,
});
const perHa = (n: number): CostHint => ({
	model: 'per_ha',
	tokens_per_ha: n,
	minimum_per_plot: n,
	currency: 'tokens',
});
const perPlot = (n: number): CostHint => ({
	model: 'per_plot',
	tokens_per_plot: n,
	currency: 'tokens',
});

type Def = [
	name: string,
	label: string,
	group: string,
	description: string,
	schema: JsonSchema,
	cost: CostHint,
	extra?: Partial<Capability>,
];

const C = 'compliance';
const E = 'environment';
const S = 'site';

const DEFS: Def[] = [
	[
		'eudr',
		'EUDR',
		C,
		'EUDR bundle: deforestation since the 2020 cut-off, protected-area and Indigenous-land overlap, with a risk level.',
		obj({
			cutoff_date: { ...date('Deforestation cut-off date'), default: '2020-12-31' },
			include_protected_areas: { type: 'boolean', default: true },
			include_indigenous_land: { type: 'boolean', default: true },
			deforestation_dataset: {
				type: 'string',
				enum: ['gfw', 'jrc', 'combined'],
				default: 'combined',
			},
		}),
		perHa(1),
	],
	[
		'deforestation',
		'Deforestation',
		C,
		'Tree-cover loss inside the plot per year since the cut-off date.',
		obj({
			start_year: year('First year', 2021),
			end_year: year('Last year'),
			dataset: { type: 'string', enum: ['gfw', 'jrc', 'combined'], default: 'combined' },
			min_patch_ha: { type: 'number', minimum: 0, maximum: 10, default: 0.5 },
		}),
		perHa(1),
	],
	[
		'protected_area',
		'Protected Area',
		C,
		'Overlap with protected areas, IUCN category and whether extractive activity is legal.',
		obj({
			buffer_m: bufferM,
			iucn_categories: {
				type: 'array',
				items: { type: 'string', enum: ['Ia', 'Ib', 'II', 'III', 'IV', 'V', 'VI'] },
				uniqueItems: true,
			},
		}),
		perPlot(1),
		{ result_key: 'protected_areas' },
	],
	[
		'indigenous_land',
		'Indigenous Land',
		C,
		'Overlap with Indigenous territories, acknowledged or claimed.',
		obj({ buffer_m: bufferM, include_unacknowledged: { type: 'boolean', default: true } }),
		perPlot(1),
	],
	[
		'deforestation_risk',
		'Deforestation Risk',
		C,
		'Modelled probability of future deforestation around the plot.',
		obj({ horizon_years: { type: 'integer', minimum: 1, maximum: 10, default: 5 } }),
		perHa(1),
	],
	[
		'forest_loss_by_year',
		'Forest Loss By Year',
		C,
		'Hectares of forest lost per calendar year.',
		obj({ start_year: year('First year', 2001), end_year: year('Last year') }),
		perHa(1),
	],
	[
		'compliance_verification_pack',
		'Compliance Verification Pack',
		C,
		'Evidence pack for a due-diligence statement: EUDR results, imagery and provenance.',
		obj({
			commodity: { type: 'string', enum: [...COMMODITIES] },
			include_visual: { type: 'boolean', default: true },
			language: { type: 'string', enum: ['en', 'fr', 'pt', 'es', 'id'], default: 'en' },
		}),
		perHa(4),
	],
	[
		'property_due_diligence',
		'Property Due Diligence',
		C,
		'Land-status and hazard summary of a property.',
		obj({
			buffer_m: bufferM,
			report_format: { type: 'string', enum: ['json', 'pdf'], default: 'json' },
		}),
		perPlot(5),
	],
	[
		'supplier_site_risk_screen',
		'Supplier Site Risk',
		C,
		'Screens a supplier site across several risk dimensions.',
		obj({
			risk_dimensions: {
				type: 'array',
				minItems: 1,
				uniqueItems: true,
				items: {
					type: 'string',
					enum: ['deforestation', 'protected_areas', 'indigenous_land', 'water', 'fire', 'flood'],
				},
			},
		}),
		perPlot(2),
	],
	[
		'canopy_condition',
		'Canopy Condition',
		E,
		'Vegetation-index time series of the canopy.',
		obj({
			start_date: date('Start of the period'),
			end_date: date('End of the period'),
			index: { type: 'string', enum: ['ndvi', 'evi', 'lai'], default: 'ndvi' },
		}),
		perHa(1),
	],
	[
		'soil_moisture',
		'Soil Moisture',
		E,
		'Soil moisture at a depth over a period.',
		obj({
			depth_cm: { type: 'integer', enum: [5, 10, 30, 100], default: 10 },
			start_date: date('Start'),
			end_date: date('End'),
		}),
		perHa(1),
	],
	[
		'productivity_trend',
		'Productivity Trend',
		E,
		'Trend of vegetation productivity over the years.',
		obj({ years: { type: 'integer', minimum: 1, maximum: 20, default: 5 } }),
		perHa(1),
	],
	[
		'farm_portfolio_health',
		'Farm Portfolio Health',
		E,
		'Health score of a farm compared with its portfolio.',
		obj({ weighting: { type: 'string', enum: ['area', 'equal'], default: 'area' } }),
		perPlot(1),
	],
	[
		'agricultural_drought_stress',
		'Agricultural Drought Stress',
		E,
		'Drought stress of the crop in the growing season.',
		obj({
			crop: { type: 'string', enum: ['maize', 'soy', 'wheat', 'coffee', 'cocoa', 'rice'] },
			season_start_month: { type: 'integer', minimum: 1, maximum: 12 },
		}),
		perHa(1),
	],
	[
		'agricultural_climate_aridity',
		'Agricultural Climate Aridity',
		E,
		'Aridity index against a climate baseline.',
		obj({
			baseline_period: { type: 'string', enum: ['1981-2010', '1991-2020'], default: '1991-2020' },
		}),
		perPlot(1),
	],
	[
		'enso_teleconnection',
		'El Niño Climate Sensitivity',
		E,
		'How strongly the site responds to El Niño and La Niña.',
		obj({ phase: { type: 'string', enum: ['el_nino', 'la_nina', 'both'], default: 'both' } }),
		perPlot(1),
	],
	[
		'enso_seasonal_outlook',
		'El Niño Seasonal Stress',
		E,
		'Seasonal stress outlook under the current ENSO phase.',
		obj({ lead_months: { type: 'integer', minimum: 1, maximum: 6, default: 3 } }),
		perPlot(1),
	],
	[
		'surface_temperature',
		'Surface Temperature',
		E,
		'Land surface temperature statistics.',
		obj({
			start_date: date('Start'),
			end_date: date('End'),
			statistic: { type: 'string', enum: ['mean', 'max', 'min'], default: 'mean' },
		}),
		perHa(1),
	],
	[
		'flood_outlook',
		'Flood · Outlook',
		E,
		'Flood probability over the coming weeks.',
		obj({ horizon_weeks: { type: 'integer', minimum: 1, maximum: 5, default: 5 } }),
		perPlot(2),
	],
	[
		'flood_structural',
		'Flood · Structural Exposure',
		E,
		'Long-term flood exposure for a return period.',
		obj({ return_period_years: { type: 'integer', enum: [10, 25, 50, 100, 500], default: 100 } }),
		perPlot(2),
	],
	[
		'fire_outlook',
		'Fire · Outlook',
		E,
		'Fire danger over the coming weeks.',
		obj({ horizon_weeks: { type: 'integer', minimum: 1, maximum: 5, default: 5 } }),
		perPlot(2),
	],
	[
		'fire_structural',
		'Fire · Structural Exposure',
		E,
		'Long-term fire exposure from burn history.',
		obj({ lookback_years: { type: 'integer', minimum: 1, maximum: 25, default: 10 } }),
		perPlot(2),
	],
	[
		'coastal_structural',
		'Coastal Flood · Structural Exposure',
		E,
		'Coastal flood exposure under a sea-level scenario.',
		obj({
			sea_level_scenario: {
				type: 'string',
				enum: ['ssp126', 'ssp245', 'ssp585'],
				default: 'ssp245',
			},
			year: { type: 'integer', enum: [2030, 2050, 2100], default: 2050 },
		}),
		perPlot(2),
	],
	[
		'solar_site_suitability',
		'Solar Site Suitability',
		S,
		'Suitability of the site for a solar farm.',
		obj({
			panel_type: { type: 'string', enum: ['monocrystalline', 'polycrystalline', 'thin_film'] },
			max_slope_deg: { type: 'number', minimum: 0, maximum: 45, default: 10 },
		}),
		perHa(2),
	],
	[
		'vineyard_site_suitability',
		'Vineyard Site Suitability',
		S,
		'Suitability of the site for a vineyard.',
		obj({
			grape_variety: { type: 'string', minLength: 1, maxLength: 64 },
			min_elevation_m: { type: 'number', minimum: -100, maximum: 4000 },
		}),
		perHa(2),
	],
	[
		'data_center_site_suitability',
		'Data Center Site Suitability',
		S,
		'Suitability of the site for a data centre of a given power.',
		obj(
			{
				power_mw: {
					type: 'number',
					exclusiveMinimum: 0,
					maximum: 2000,
					description: 'Planned IT load in MW (required)',
				},
				cooling: { type: 'string', enum: ['air', 'liquid', 'hybrid'], default: 'air' },
			},
			['power_mw'],
		),
		perPlot(5),
	],
	[
		'asset_inspection_priority',
		'Asset Inspection Priority',
		S,
		'Which assets to inspect first, from hazards and condition.',
		obj({
			asset_type: {
				type: 'string',
				enum: ['pipeline', 'powerline', 'road', 'building'],
				default: 'building',
			},
			max_priority: { type: 'integer', minimum: 1, maximum: 5, default: 5 },
		}),
		perPlot(1),
	],
	[
		'visual_verification',
		'Visual Verification',
		S,
		'Recent high-resolution imagery of the plot for visual checks.',
		obj({
			image_date: date('Preferred image date'),
			resolution: { type: 'string', enum: ['high', 'medium'], default: 'medium' },
			cloud_cover_max: { type: 'number', minimum: 0, maximum: 100, default: 20 },
		}),
		perPlot(3),
	],
	// hidden (from the older listing); returned only with include=hidden
	[
		'precipitation',
		'Precipitation',
		E,
		'Rainfall totals over a period.',
		obj({ start_date: date('Start'), end_date: date('End') }),
		perPlot(1),
		{ hidden: true },
	],
	[
		'water_detection',
		'Water Detection',
		E,
		'Open water detected inside the plot.',
		obj({ date: date('Image date') }),
		perPlot(1),
		{ hidden: true },
	],
	[
		'land_cover',
		'Land Cover',
		E,
		'Land-cover classes inside the plot.',
		obj({ year: year('Year', 2024) }),
		perHa(1),
		{ hidden: true },
	],
	[
		'fire_damage',
		'Fire Damage',
		E,
		'Burn severity after a fire.',
		obj({ event_date: date('Fire date') }),
		perPlot(1),
		{ hidden: true },
	],
	[
		'flood_water_history',
		'Flood Water History',
		E,
		'Past flood extents over the plot.',
		obj({ lookback_years: { type: 'integer', minimum: 1, maximum: 30, default: 10 } }),
		perPlot(1),
		{ hidden: true },
	],
];

export function builtInCapabilities(): Capability[] {
	return DEFS.map(([name, label, group, description, input_schema, cost_hint, extra]) => ({
		name,
		label,
		description,
		input_schema,
		transport: 'sync',
		cost_hint,
		group,
		methodology:
			`${label}: ${description} Method (fake): inputs are the plot geometry and the check config; ` +
			`results are derived deterministically from the geometry, so repeated runs give identical output. ` +
			`Sources: Hansen GFC v1.12, JRC TMF 2024, WDPA 2025-06, LandMark 2025.`,
		...extra,
	}));
}

/** Public catalog shape: result_key only when it differs from name; methodology only with include=doc. */
export function publicCapability(c: Capability, withDoc: boolean): Record<string, unknown> {
	const out: Record<string, unknown> = {
		name: c.name,
		label: c.label,
		description: c.description,
		input_schema: c.input_schema ?? { type: 'object', additionalProperties: true },
		transport: c.transport ?? 'sync',
		cost_hint: c.cost_hint ?? perPlot(1),
	};
	if (c.result_key && c.result_key !== c.name) out.result_key = c.result_key;
	if (withDoc) out.methodology = c.methodology ?? `${c.label}: ${c.description}`;
	return out;
}

export function resultKeyOf(c: Capability): string {
	return c.result_key ?? c.name;
}

/** Tokens one check costs for a plot of `plotTokens` (= max(1, ceil(area_ha))). */
export function checkTokens(c: Capability, plotTokens: number): number {
	const h = c.cost_hint ?? perPlot(1);
	if (h.model === 'per_ha')
		return Math.max(h.minimum_per_plot ?? 1, plotTokens * (h.tokens_per_ha ?? 1));
	return h.tokens_per_plot ?? 1;
}

// ---------- protected areas and Indigenous lands ----------

export interface ProtectedArea {
	area_id: string;
	area_name: string;
	local_name: string;
	country: string;
	source_name: string;
	iucn_category: 'Ia' | 'Ib' | 'II' | 'III' | 'IV' | 'V' | 'VI';
	type: string;
	extractive_activity_legality: 'prohibited' | 'limited' | 'permitted' | 'unknown';
	extractive_activity_conditions: string;
	regulation_names: string[];
	regulation_urls: string[];
	status_year: number;
	ring: [number, number][];
}

const ring = (pts: [number, number][]): [number, number][] => [...pts, pts[0]];

export const PROTECTED_AREAS: ProtectedArea[] = [
	{
		area_id: '351814',
		area_name: 'Jamanxim National Forest',
		local_name: 'Floresta Nacional do Jamanxim',
		country: 'Brazil',
		source_name: 'WDPA',
		iucn_category: 'VI',
		type: 'National Forest',
		extractive_activity_legality: 'limited',
		extractive_activity_conditions:
			'Sustainable timber and non-timber extraction only under an approved forest management plan.',
		regulation_names: ['Lei nº 9.985/2000 (SNUC)', 'Decreto s/n de 13 de fevereiro de 2006'],
		regulation_urls: ['https://www.planalto.gov.br/ccivil_03/leis/l9985.htm'],
		status_year: 2006,
		ring: ring([
			[-56.2, -7.2],
			[-55.0, -7.3],
			[-54.9, -6.2],
			[-55.6, -5.9],
			[-56.3, -6.4],
		]),
	},
	{
		area_id: '59',
		area_name: 'Amazônia National Park',
		local_name: 'Parque Nacional da Amazônia',
		country: 'Brazil',
		source_name: 'WDPA',
		iucn_category: 'II',
		type: 'National Park',
		extractive_activity_legality: 'prohibited',
		extractive_activity_conditions: 'No extractive activity is permitted.',
		regulation_names: ['Lei nº 9.985/2000 (SNUC)', 'Decreto nº 73.683/1974'],
		regulation_urls: ['https://www.planalto.gov.br/ccivil_03/leis/l9985.htm'],
		status_year: 1974,
		ring: ring([
			[-57.6, -4.9],
			[-56.4, -4.9],
			[-56.4, -3.9],
			[-57.6, -3.9],
		]),
	},
	{
		area_id: '721',
		area_name: 'Taï National Park',
		local_name: 'Parc National de Taï',
		country: "Côte d'Ivoire",
		source_name: 'WDPA',
		iucn_category: 'II',
		type: 'National Park',
		extractive_activity_legality: 'prohibited',
		extractive_activity_conditions:
			'No extractive activity is permitted; cocoa farming inside the park is illegal.',
		regulation_names: ['Loi n° 2002-102 relative aux parcs nationaux et réserves naturelles'],
		regulation_urls: ['https://www.oipr.ci/'],
		status_year: 1972,
		ring: ring([
			[-7.6, 5.2],
			[-6.9, 5.3],
			[-6.9, 6.1],
			[-7.3, 6.2],
			[-7.6, 5.8],
		]),
	},
	{
		area_id: '29058',
		area_name: 'Haut-Sassandra Classified Forest',
		local_name: 'Forêt Classée du Haut-Sassandra',
		country: "Côte d'Ivoire",
		source_name: 'WDPA',
		iucn_category: 'VI',
		type: 'Classified Forest',
		extractive_activity_legality: 'limited',
		extractive_activity_conditions:
			'Agroforestry and selective logging only under a SODEFOR management contract.',
		regulation_names: ['Loi n° 2019-675 portant Code forestier'],
		regulation_urls: ['https://www.sodefor.ci/'],
		status_year: 1974,
		ring: ring([
			[-7.0, 6.6],
			[-6.6, 6.6],
			[-6.6, 7.2],
			[-7.0, 7.2],
		]),
	},
	{
		area_id: '555549012',
		area_name: 'Tesso Nilo National Park',
		local_name: 'Taman Nasional Tesso Nilo',
		country: 'Indonesia',
		source_name: 'WDPA',
		iucn_category: 'II',
		type: 'National Park',
		extractive_activity_legality: 'prohibited',
		extractive_activity_conditions:
			'No extractive activity is permitted; oil-palm plantations inside are illegal.',
		regulation_names: ['UU No. 5/1990 tentang Konservasi Sumber Daya Alam Hayati dan Ekosistemnya'],
		regulation_urls: ['https://peraturan.bpk.go.id/Details/46710'],
		status_year: 2004,
		ring: ring([
			[101.6, -0.4],
			[102.0, -0.4],
			[102.0, 0.0],
			[101.6, 0.0],
		]),
	},
	{
		area_id: '555549021',
		area_name: 'Rimbang Baling Wildlife Reserve',
		local_name: 'Suaka Margasatwa Rimbang Baling',
		country: 'Indonesia',
		source_name: 'WDPA',
		iucn_category: 'IV',
		type: 'Wildlife Reserve',
		extractive_activity_legality: 'unknown',
		extractive_activity_conditions: 'Not determined.',
		regulation_names: [],
		regulation_urls: [],
		status_year: 1982,
		ring: ring([
			[101.0, -0.5],
			[101.4, -0.5],
			[101.4, -0.1],
			[101.0, -0.1],
		]),
	},
	{
		area_id: '555549030',
		area_name: 'Bukit Tigapuluh Buffer Zone',
		local_name: 'Zona Penyangga Bukit Tigapuluh',
		country: 'Indonesia',
		source_name: 'WDPA',
		iucn_category: 'V',
		type: 'Protected Landscape',
		extractive_activity_legality: 'permitted',
		extractive_activity_conditions: 'Smallholder agriculture permitted.',
		regulation_names: ['PP No. 28/2011'],
		regulation_urls: ['https://peraturan.bpk.go.id/'],
		status_year: 2002,
		ring: ring([
			[102.0, -1.0],
			[102.4, -1.0],
			[102.4, -0.6],
			[102.0, -0.6],
		]),
	},
];

export interface IndigenousLand {
	id: string;
	name: string;
	government_acknowledged: boolean;
	land_status: string;
	source_name: string;
	ring: [number, number][];
}

export const INDIGENOUS_LANDS: IndigenousLand[] = [
	{
		id: 'BR-TI-0042',
		name: 'Terra Indígena Baú',
		government_acknowledged: true,
		land_status: 'Regularizada',
		source_name: 'FUNAI',
		ring: ring([
			[-55.5, -7.6],
			[-54.5, -7.6],
			[-54.5, -6.6],
			[-55.5, -6.6],
		]),
	},
	{
		id: 'ID-WA-0117',
		name: 'Wilayah Adat Talang Mamak',
		government_acknowledged: false,
		land_status: 'Registered (BRWA)',
		source_name: 'LandMark',
		ring: ring([
			[101.9, -0.7],
			[102.3, -0.7],
			[102.3, -0.3],
			[101.9, -0.3],
		]),
	},
];

export const PA_SOURCES = [{ source_name: 'WDPA', data_version: '2025-06' }];
export const IL_SOURCES = [
	{ source_name: 'FUNAI', data_version: '2025-03' },
	{ source_name: 'LandMark', data_version: '2025-01' },
];

// ---------- coarse country / state lookup (first match wins) ----------

type Box = [
	country: string,
	state: string,
	minLon: number,
	minLat: number,
	maxLon: number,
	maxLat: number,
];
const BOXES: Box[] = [
	['Brazil', 'Pará', -58.9, -9.9, -46.0, 2.6],
	['Brazil', 'Mato Grosso', -61.6, -18.0, -50.2, -7.3],
	['Brazil', 'Amazonas', -73.8, -9.8, -56.1, 2.2],
	['Brazil', 'Rondônia', -66.8, -13.7, -59.8, -7.9],
	['Brazil', 'Bahia', -46.6, -18.3, -37.3, -8.5],
	['Brazil', 'Minas Gerais', -51.0, -22.9, -39.9, -14.2],
	['Brazil', 'São Paulo', -53.1, -25.3, -44.2, -19.8],
	['Brazil', '', -74.0, -33.8, -34.8, 5.3],
	["Côte d'Ivoire", 'Bas-Sassandra', -7.6, 4.3, -5.8, 6.2],
	["Côte d'Ivoire", 'Montagnes', -8.6, 6.2, -6.7, 8.1],
	["Côte d'Ivoire", 'Sassandra-Marahoué', -6.7, 6.2, -5.5, 7.5],
	["Côte d'Ivoire", '', -8.6, 4.3, -2.5, 10.7],
	['Ghana', '', -3.3, 4.7, 1.2, 11.2],
	['Indonesia', 'Riau', 100.0, -1.2, 103.8, 1.0],
	['Indonesia', 'Jambi', 101.1, -2.8, 104.5, -1.2],
	['Indonesia', 'Kalimantan Barat', 108.0, -3.1, 114.2, 2.1],
	['Indonesia', 'Sumatera Utara', 97.0, 1.0, 100.4, 4.3],
	['Malaysia', 'Sabah', 115.3, 4.0, 119.3, 7.4],
	['Malaysia', 'Peninsular Malaysia', 99.6, 1.2, 104.5, 6.7],
	['Indonesia', '', 95.0, -11.0, 141.0, 6.0],
	['Colombia', '', -79.0, -4.2, -66.9, 12.5],
	['Peru', '', -81.3, -18.4, -68.7, 0.0],
	['Vietnam', '', 102.1, 8.6, 109.5, 23.4],
	['Ethiopia', '', 33.0, 3.4, 48.0, 14.9],
	['Cameroon', '', 8.5, 1.6, 16.2, 13.1],
	['Nigeria', '', 2.7, 4.2, 14.7, 13.9],
	['Uganda', '', 29.6, -1.5, 35.0, 4.2],
	['Honduras', '', -89.4, 12.9, -83.1, 16.5],
	['Guatemala', '', -92.3, 13.7, -88.2, 17.8],
	['Paraguay', '', -62.7, -27.6, -54.3, -19.3],
	['Argentina', '', -73.6, -55.1, -53.6, -21.8],
	['Netherlands', '', 3.3, 50.7, 7.2, 53.6],
	['Germany', '', 5.9, 47.3, 15.0, 55.1],
	['France', '', -5.1, 41.3, 9.6, 51.1],
	['United States', '', -125.0, 24.5, -66.9, 49.4],
];

export function lookupCountry(lon: number, lat: number): { country: string; state: string } {
	for (const [country, state, a, b, c, d] of BOXES) {
		if (lon >= a && lon <= c && lat >= b && lat <= d) return { country, state };
	}
	return { country: 'Unknown', state: '' };
}
