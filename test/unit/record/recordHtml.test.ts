/**
 * The record's HTML page: self-contained (no script, nothing fetched), every input text escaped
 * (a hostile plot name, rule or shipment shows as text), the map as a CSS background image (what
 * n8n's sanitising viewer keeps), and bounded (plot rows within their budget, the page within
 * MAX_HTML_BYTES).
 */
import { buildRecord } from '../../../nodes/shared/record/dueDiligenceRecord';
import {
	MAX_HTML_BYTES,
	MAX_MAP_BYTES,
	TABLE_BUDGET_BYTES,
	esc,
	recordHtml,
} from '../../../nodes/shared/record/recordHtml';
import type { PlotGeometry } from '../../../nodes/shared/geometry';
import { colourOf } from '../../../nodes/shared/record/recordColours';
import { recordMap } from '../../../nodes/shared/record/recordMap';
import { analysed, filed, input, row, square, validated } from './fixtures';

const HOSTILE = `<script>alert(1)</script><img src=x onerror=alert(2)>"'\`&</style></title><svg onload=alert(3)>`;

/** Every tag the page opens or closes. */
const tagsOf = (html: string) =>
	[...html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9]*)/g)].map((m) => m[1].toLowerCase());

/** Every attribute name of every tag. */
const attributesOf = (html: string) =>
	[...html.matchAll(/<[a-zA-Z][^>]*>/g)].flatMap((tag) =>
		[...tag[0].matchAll(/\s([a-zA-Z-]+)="[^"]*"/g)].map((m) => m[1].toLowerCase()),
	);

/** The text of the style element. */
const styleOf = (html: string) => /<style>([\s\S]*?)<\/style>/.exec(html)![1];

const ALLOWED_TAGS = new Set(['html', 'head', 'meta', 'title', 'style', 'body', 'header', 'h1', 'h2', 'p', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'span', 'br', 'div', 'figure', 'figcaption', 'section', 'footer']); // prettier-ignore

describe('recordHtml', () => {
	const hostileRecord = () =>
		buildRecord(
			input(
				[
					row(0, {
						geometry: square(1, 1),
						plot_name: HOSTILE,
						...validated(false, [HOSTILE]),
						...analysed('p0', HOSTILE, { risk_reason: HOSTILE, plot_name: HOSTILE }),
						...filed(HOSTILE, { dds_status: HOSTILE }),
					}),
				],
				{ shipment: HOSTILE, rule: HOSTILE },
			),
		);

	it('escapes every text from the input: a hostile label shows as text and runs nothing', () => {
		const html = recordHtml(hostileRecord(), { svg: '<svg xmlns="http://www.w3.org/2000/svg"/>', caption: HOSTILE });
		expect(tagsOf(html).filter((t) => !ALLOWED_TAGS.has(t))).toEqual([]);
		expect(new Set(attributesOf(html))).toEqual(new Set(['lang', 'charset', 'name', 'content', 'class', 'style', 'role', 'aria-label']));
		expect(html).not.toMatch(/<script|<img|<svg/i);
		expect(html).toContain(esc(HOSTILE));
		// one style element, its content ours: no input text can end it
		expect(html.match(/<\/style>/g)).toHaveLength(1);
		expect(esc(`<>&"'\``)).toBe('&lt;&gt;&amp;&quot;&#39;&#96;');
	}); // prettier-ignore

	it('fetches nothing: no external script, font, style sheet, image or tile', () => {
		const html = recordHtml(hostileRecord(), {
			svg: '<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0L1 1"/></svg>',
		});
		expect(attributesOf(html)).not.toContain('src');
		expect(attributesOf(html)).not.toContain('href');
		expect(styleOf(html)).not.toMatch(/@import|url\((?!"data:image\/svg\+xml;base64,)/i);
		expect(tagsOf(html)).not.toEqual(expect.arrayContaining(['link']));
		expect(html).not.toMatch(/<link|<script|<iframe|<object|<embed/i);
		// the map: the SVG as a base64 CSS background (n8n's viewer drops <svg> and data: src)
		const data = /url\("data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)"\)/.exec(html);
		expect(Buffer.from(data![1], 'base64').toString('utf8')).toContain('<path d="M0 0L1 1"/>');
		expect(html).toContain('class="map-picture"');
	});

	it('prints on A4: page size, table headers repeated, rows and the map never split', () => {
		const html = recordHtml(hostileRecord(), { svg: null, reason: 'no plots drawn' });
		expect(html).toContain('@page{size:A4');
		expect(html).toContain('thead{display:table-header-group}');
		expect(html).toMatch(/tr\{break-inside:avoid/);
		expect(html).toMatch(/figure\{[^}]*break-inside:avoid/);
		expect(html).toContain('print-color-adjust:exact');
		expect(html).toContain('No map: no plots drawn');
	});

	it('lists plot rows within their budget and counts the rest; the page stays under its cap', () => {
		const long = 'x'.repeat(5_000);
		const one = row(0, {
			geometry: square(1, 1),
			plot_name: long,
			...validated(false, [long, long, long]),
			...analysed('p', 'High', { risk_reason: long, plot_name: long, failed: true, failure_reason: long, protected_area_overlap: null, protected_area_overlap_reason: long }),
		}); // prettier-ignore
		const rows = Array.from({ length: 4_000 }, (_, i) => ({ ...one, item: i }));
		const record = buildRecord(input(rows));
		const bigMap = `<svg xmlns="http://www.w3.org/2000/svg">${' '.repeat(MAX_MAP_BYTES - 100)}</svg>`;
		const html = recordHtml(record, { svg: bigMap });
		expect(Buffer.byteLength(html, 'utf8')).toBeLessThanOrEqual(MAX_HTML_BYTES);
		const listed = (html.match(/<td class="num">/g) ?? []).length;
		expect(listed).toBeLessThan(4_000);
		expect(listed).toBeGreaterThan(TABLE_BUDGET_BYTES / 5_000);
		expect(html).toContain(`${(4_000 - listed).toLocaleString('en-US')} more plots are not listed here`);
		// a cell holds at most 300 characters of a text
		expect(html).not.toContain('x'.repeat(301));
		// a drawing over its cap is left out, with why
		expect(recordHtml(record, { svg: `${bigMap}${' '.repeat(200)}` })).toMatch(/No map: the drawing takes more than 4 MB/);
	}); // prettier-ignore
});

describe('recordMap', () => {
	it('draws the plots coloured by outcome (the map drawing of shared/map), simplified for drawing only', () => {
		const risks = ['Low', 'High', 'Medium'];
		const rows = risks.map((r, i) =>
			row(i, { geometry: square(-5.3 + i * 0.004, 6.8), ...validated(true), ...analysed(`p${i}`, r) }),
		);
		const record = buildRecord(input(rows));
		const shapes = rows.map((_, i) => [square(-5.3 + i * 0.004, 6.8) as PlotGeometry]);
		const map = recordMap(record, shapes);
		expect(map.svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
		if (map.svg === null) throw new Error('no map');
		// the table's colours are the map's
		for (const outcome of ['low risk', 'high risk', 'medium risk'] as const)
			expect(map.svg).toContain(colourOf(outcome));
		expect(map.caption).toMatch(/^3 of 3 plots drawn/);
		const html = recordHtml(record, map);
		expect(html).toMatch(/\.map-picture\{background-image:url\("data:image\/svg\+xml;base64,[^"]+"\);aspect-ratio:\d+\/\d+\}/);
		// a record without any readable geometry has no map, and says why
		const none = recordMap(buildRecord(input([row(0, { name: 'no geometry' })])), [[]]);
		expect(none).toEqual({ svg: null, reason: 'no plot of the record has a geometry that could be read' });
	}); // prettier-ignore
});
