/**
 * Approximate bounding boxes ([west, south, east, north], WGS84 degrees) of
 * countries that commonly produce EUDR commodities (cattle, cocoa, coffee, oil
 * palm, rubber, soya, wood), plus a few EU wood producers. Used only to spot
 * swapped latitude/longitude, so a coarse box is enough. Boxes cover the
 * mainland and the main islands; remote overseas territories are left out.
 */
import { readCountry } from '../input';

export interface CountryBox {
	iso2: string;
	iso3: string;
	name: string;
	bbox: [number, number, number, number];
}

export const COUNTRY_BOXES: readonly CountryBox[] = [
	// South America
	{
		iso2: 'BR',
		iso3: 'BRA',
		name: 'Brazil',
		bbox: [-74.0, -33.8, -34.7, 5.3],
	},
	{ iso2: 'AR', iso3: 'ARG', name: 'Argentina', bbox: [-73.6, -55.1, -53.6, -21.8] },
	{
		iso2: 'BO',
		iso3: 'BOL',
		name: 'Bolivia',
		bbox: [-69.7, -22.9, -57.5, -9.7],
	},
	{ iso2: 'CO', iso3: 'COL', name: 'Colombia', bbox: [-79.1, -4.3, -66.8, 12.5] },
	{ iso2: 'EC', iso3: 'ECU', name: 'Ecuador', bbox: [-92.1, -5.1, -75.2, 1.7] },
	{ iso2: 'GY', iso3: 'GUY', name: 'Guyana', bbox: [-61.4, 1.1, -56.4, 8.6] },
	{ iso2: 'PY', iso3: 'PRY', name: 'Paraguay', bbox: [-62.7, -27.6, -54.2, -19.2] },
	{ iso2: 'PE', iso3: 'PER', name: 'Peru', bbox: [-81.4, -18.4, -68.6, -0.0] },
	{ iso2: 'SR', iso3: 'SUR', name: 'Suriname', bbox: [-58.1, 1.8, -53.9, 6.1] },
	{ iso2: 'UY', iso3: 'URY', name: 'Uruguay', bbox: [-58.5, -35.0, -53.1, -30.1] },
	{ iso2: 'VE', iso3: 'VEN', name: 'Venezuela', bbox: [-73.4, 0.6, -59.8, 12.2] },
	// Central America and the Caribbean
	{
		iso2: 'MX',
		iso3: 'MEX',
		name: 'Mexico',
		bbox: [-117.2, 14.5, -86.7, 32.8],
	},
	{ iso2: 'GT', iso3: 'GTM', name: 'Guatemala', bbox: [-92.3, 13.7, -88.2, 17.9] },
	{ iso2: 'HN', iso3: 'HND', name: 'Honduras', bbox: [-89.4, 12.9, -83.1, 17.5] },
	{ iso2: 'SV', iso3: 'SLV', name: 'El Salvador', bbox: [-90.2, 13.1, -87.6, 14.5] },
	{ iso2: 'NI', iso3: 'NIC', name: 'Nicaragua', bbox: [-87.7, 10.7, -82.7, 15.1] },
	{ iso2: 'CR', iso3: 'CRI', name: 'Costa Rica', bbox: [-87.1, 5.5, -82.5, 11.3] },
	{ iso2: 'PA', iso3: 'PAN', name: 'Panama', bbox: [-83.1, 7.2, -77.2, 9.7] },
	{ iso2: 'DO', iso3: 'DOM', name: 'Dominican Republic', bbox: [-72.0, 17.5, -68.3, 19.95] },
	{ iso2: 'JM', iso3: 'JAM', name: 'Jamaica', bbox: [-78.4, 17.7, -76.2, 18.6] },
	// West and Central Africa
	{
		iso2: 'CI',
		iso3: 'CIV',
		name: "Côte d'Ivoire",
		bbox: [-8.6, 4.3, -2.5, 10.8],
	},
	{ iso2: 'GH', iso3: 'GHA', name: 'Ghana', bbox: [-3.3, 4.7, 1.2, 11.2] },
	{ iso2: 'NG', iso3: 'NGA', name: 'Nigeria', bbox: [2.7, 4.2, 14.7, 13.9] },
	{
		iso2: 'CM',
		iso3: 'CMR',
		name: 'Cameroon',
		bbox: [8.4, 1.6, 16.2, 13.1],
	},
	{ iso2: 'LR', iso3: 'LBR', name: 'Liberia', bbox: [-11.5, 4.3, -7.4, 8.6] },
	{ iso2: 'SL', iso3: 'SLE', name: 'Sierra Leone', bbox: [-13.3, 6.9, -10.2, 10.0] },
	{ iso2: 'GN', iso3: 'GIN', name: 'Guinea', bbox: [-15.1, 7.2, -7.6, 12.7] },
	{ iso2: 'TG', iso3: 'TGO', name: 'Togo', bbox: [-0.2, 6.0, 1.9, 11.2] },
	{ iso2: 'BJ', iso3: 'BEN', name: 'Benin', bbox: [0.7, 6.1, 3.9, 12.5] },
	{ iso2: 'GA', iso3: 'GAB', name: 'Gabon', bbox: [8.6, -4.0, 14.6, 2.4] },
	{
		iso2: 'CG',
		iso3: 'COG',
		name: 'Republic of the Congo',
		bbox: [11.1, -5.1, 18.7, 3.8],
	},
	{
		iso2: 'CD',
		iso3: 'COD',
		name: 'Democratic Republic of the Congo',
		bbox: [12.1, -13.5, 31.4, 5.4],
	},
	{ iso2: 'CF', iso3: 'CAF', name: 'Central African Republic', bbox: [14.4, 2.2, 27.5, 11.1] },
	{ iso2: 'GQ', iso3: 'GNQ', name: 'Equatorial Guinea', bbox: [5.6, -1.5, 11.4, 3.8] },
	// East Africa
	{ iso2: 'ET', iso3: 'ETH', name: 'Ethiopia', bbox: [32.9, 3.4, 48.0, 15.0] },
	{ iso2: 'KE', iso3: 'KEN', name: 'Kenya', bbox: [33.9, -4.8, 41.9, 5.1] },
	{ iso2: 'UG', iso3: 'UGA', name: 'Uganda', bbox: [29.5, -1.5, 35.1, 4.3] },
	{
		iso2: 'TZ',
		iso3: 'TZA',
		name: 'Tanzania',
		bbox: [29.3, -11.8, 40.5, -0.9],
	},
	{ iso2: 'RW', iso3: 'RWA', name: 'Rwanda', bbox: [28.8, -2.9, 30.9, -1.0] },
	{ iso2: 'BI', iso3: 'BDI', name: 'Burundi', bbox: [29.0, -4.5, 30.9, -2.3] },
	{ iso2: 'MG', iso3: 'MDG', name: 'Madagascar', bbox: [43.2, -25.7, 50.5, -11.9] },
	// Asia and Oceania
	{ iso2: 'ID', iso3: 'IDN', name: 'Indonesia', bbox: [95.0, -11.1, 141.1, 6.1] },
	{ iso2: 'MY', iso3: 'MYS', name: 'Malaysia', bbox: [99.6, 0.8, 119.3, 7.4] },
	{ iso2: 'TH', iso3: 'THA', name: 'Thailand', bbox: [97.3, 5.6, 105.7, 20.5] },
	{
		iso2: 'VN',
		iso3: 'VNM',
		name: 'Vietnam',
		bbox: [102.1, 8.4, 109.5, 23.4],
	},
	{
		iso2: 'LA',
		iso3: 'LAO',
		name: 'Laos',
		bbox: [100.0, 13.9, 107.7, 22.5],
	},
	{ iso2: 'KH', iso3: 'KHM', name: 'Cambodia', bbox: [102.3, 9.9, 107.7, 14.7] },
	{ iso2: 'MM', iso3: 'MMR', name: 'Myanmar', bbox: [92.1, 9.6, 101.2, 28.6] },
	{ iso2: 'PH', iso3: 'PHL', name: 'Philippines', bbox: [116.9, 4.5, 126.7, 21.2] },
	{ iso2: 'IN', iso3: 'IND', name: 'India', bbox: [68.1, 6.7, 97.5, 35.7] },
	{ iso2: 'LK', iso3: 'LKA', name: 'Sri Lanka', bbox: [79.6, 5.9, 81.9, 9.9] },
	{ iso2: 'CN', iso3: 'CHN', name: 'China', bbox: [73.5, 18.1, 134.8, 53.6] },
	{ iso2: 'PG', iso3: 'PNG', name: 'Papua New Guinea', bbox: [140.8, -11.7, 159.5, -0.8] },
	{ iso2: 'AU', iso3: 'AUS', name: 'Australia', bbox: [112.9, -43.7, 153.7, -10.6] },
	// Europe (wood)
	{ iso2: 'SE', iso3: 'SWE', name: 'Sweden', bbox: [11.0, 55.3, 24.2, 69.1] },
	{ iso2: 'FI', iso3: 'FIN', name: 'Finland', bbox: [20.5, 59.7, 31.6, 70.1] },
	{
		iso2: 'DE',
		iso3: 'DEU',
		name: 'Germany',
		bbox: [5.8, 47.2, 15.1, 55.1],
	},
	{ iso2: 'PL', iso3: 'POL', name: 'Poland', bbox: [14.1, 49.0, 24.2, 54.9] },
	{ iso2: 'RO', iso3: 'ROU', name: 'Romania', bbox: [20.2, 43.6, 29.8, 48.3] },
	{ iso2: 'FR', iso3: 'FRA', name: 'France', bbox: [-5.2, 41.3, 9.6, 51.1] },
	{ iso2: 'ES', iso3: 'ESP', name: 'Spain', bbox: [-18.2, 27.6, 4.4, 43.8] },
	{ iso2: 'PT', iso3: 'PRT', name: 'Portugal', bbox: [-31.3, 32.6, -6.2, 42.2] },
];

let byCode: Map<string, CountryBox> | undefined;

/**
 * The box of a country given by name, ISO2 or ISO3 code, read as every country field reads it
 * (the input layer's `readCountry`); undefined for a country without a box or no country.
 */
export function findCountry(country: string): CountryBox | undefined {
	byCode ??= new Map(COUNTRY_BOXES.map((entry) => [entry.iso2, entry]));
	const read = readCountry(country);
	return read.kind === 'value' ? byCode.get(read.value) : undefined;
}

/** Tolerance around the boxes, in degrees, so that border plots are not flagged. */
const MARGIN = 0.25;

export function isInBox(box: CountryBox, lon: number, lat: number): boolean {
	const [west, south, east, north] = box.bbox;
	return (
		lon >= west - MARGIN && lon <= east + MARGIN && lat >= south - MARGIN && lat <= north + MARGIN
	);
}
