/**
 * The due-diligence record as one self-contained HTML page: no script, no external font,
 * image, style sheet or map tile; A4 print styles (page margins, table headers repeated on each
 * page, rows never split, colours printed). Every text from the input is HTML-escaped (`esc`),
 * so a hostile plot name or reason shows as text and never runs.
 *
 * n8n's binary viewer (1.x and 2.x) shows an HTML file in an iframe after sanitize-html with
 * its own options: `<style>` is kept as written, but `<svg>` elements and `data:` URLs in `src`
 * attributes are removed. So the map drawing (an SVG) is placed as a CSS background image
 * (`data:image/svg+xml;base64,…` inside the `<style>` block): the one way it shows in n8n's
 * viewer and in a browser alike; base64 holds no character that could end the style element.
 *
 * Bounded: the plot table lists rows while they fit TABLE_BUDGET_BYTES (the rest counted, and
 * all of them are in record.json), a cell at most MAX_CELL_CHARS, a map drawing of at most
 * MAX_MAP_BYTES; the page is at most MAX_HTML_BYTES. Pure: no n8n imports.
 */
import type { DueDiligenceRecord, PlotEntry, StatementEntry } from './dueDiligenceRecord';
import { colourOf } from './recordColours';

/** The largest page: the plot table's budget, the map's, and the fixed parts. */
export const MAX_HTML_BYTES = 12_000_000;
/** Bytes of plot rows listed in the page (all plots are in record.json). */
export const TABLE_BUDGET_BYTES = 5_000_000;
/** The largest map drawing (SVG bytes, before base64) the page holds. */
export const MAX_MAP_BYTES = 4_000_000;
/** Characters of one table cell (a longer text is cut, with "…"; record.json has it whole). */
export const MAX_CELL_CHARS = 300;
/** Statements and data sources listed (the rest counted). */
const MAX_LISTED = 200;

const ESCAPES: Record<string, string> = {
	'&': '&amp;',
	'<': '&lt;',
	'>': '&gt;',
	'"': '&quot;',
	"'": '&#39;',
	'`': '&#96;',
};

/** Text for HTML content and quoted attributes: every character that means something escaped. */
export function esc(value: unknown): string {
	const text = value === null || value === undefined ? '' : String(value);
	return text.replace(/[&<>"'`]/g, (c) => ESCAPES[c]);
}

/** A cell's text, cut to MAX_CELL_CHARS, escaped. */
function cell(value: unknown): string {
	const text = value === null || value === undefined ? '' : String(value);
	const chars = [...text];
	return esc(chars.length > MAX_CELL_CHARS ? `${chars.slice(0, MAX_CELL_CHARS).join('')}…` : text);
}

/** A value or "—" with why it is missing (as small text). */
function shown(value: unknown, why?: string | null): string {
	if (value === null || value === undefined || value === '')
		return `<span class="none">not given</span>${why ? ` <span class="why">${cell(why)}</span>` : ''}`;
	if (typeof value === 'boolean') return value ? 'yes' : 'no';
	return cell(value);
}

const CSS = `
:root{color-scheme:light}
*{box-sizing:border-box;-webkit-print-color-adjust:exact;print-color-adjust:exact}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;font-size:13px;line-height:1.4;color:#1a1a1a;margin:24px;max-width:1100px}
h1{font-size:22px;margin:0 0 4px}
h2{font-size:16px;margin:22px 0 8px;border-bottom:1px solid #ccc;padding-bottom:3px}
.sub{color:#555;margin:0 0 12px}
table{border-collapse:collapse;width:100%;margin:6px 0}
th,td{border:1px solid #d0d0d0;padding:3px 6px;text-align:left;vertical-align:top;overflow-wrap:break-word}
th{background:#f2f2f2;font-weight:600}
table.kv th{width:28%}
thead{display:table-header-group}
tr{break-inside:avoid;page-break-inside:avoid}
.none{color:#888;font-style:italic}
.why{color:#777;font-size:11px}
.badge{display:inline-block;padding:1px 7px;border-radius:9px;color:#fff;font-weight:600;font-size:12px}
.decision-negligible{background:#2e7d32}
.decision-mitigation{background:#c62828}
.decision-none{background:#757575}
.swatch{display:inline-block;width:11px;height:11px;border-radius:2px;margin-right:4px;vertical-align:-1px}
figure{margin:0;break-inside:avoid;page-break-inside:avoid}
.map-picture{width:100%;aspect-ratio:4/3;border:1px solid #ccc;background-color:#fbfbf8;background-repeat:no-repeat;background-position:center;background-size:contain}
figcaption{color:#555;font-size:12px;margin-top:4px}
.note{color:#555;font-size:12px}
footer{margin-top:24px;color:#666;font-size:11px;border-top:1px solid #ccc;padding-top:6px}
td.num{text-align:right;white-space:nowrap}
.wide{overflow-x:auto}
.wide table{min-width:760px}
.plots{break-before:page;page-break-before:always}
@page{size:A4;margin:14mm 12mm}
@media print{body{margin:0;max-width:none;font-size:10.5px}.wide{overflow:visible}.wide table{min-width:0}.map-picture{max-height:200mm}h2{break-after:avoid;page-break-after:avoid}}
`;

function decisionBadge(risk: DueDiligenceRecord['decision']['risk']): string {
	if (risk === 'negligible')
		return '<span class="badge decision-negligible">Negligible risk</span>';
	if (risk === 'needs mitigation')
		return '<span class="badge decision-mitigation">Needs mitigation</span>';
	return '<span class="badge decision-none">Not stated</span>';
}

function kv(rows: Array<[string, string]>): string {
	return `<table class="kv"><tbody>${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${v}</td></tr>`).join('')}</tbody></table>`;
}

function statementTable(s: StatementEntry): string {
	return kv([
		['Kind', cell(s.kind)],
		['UUID', shown(s.uuid)],
		['Status', shown(s.status)],
		['Reference number', shown(s.reference_number)],
		['Verification number', shown(s.verification_number)],
		['Internal reference', shown(s.internal_reference)],
		['Filed by', shown(s.filed_by)],
		['Status date', shown(s.status_date)],
		['Filed at', shown(s.filed_at, s.filed_at_reason)],
		[
			'Environment',
			shown(
				s.environment,
				s.environment === null
					? 'the input does not say whether this is the Acceptance or the Production environment'
					: null,
			),
		],
		...(s.rejection_reason !== null
			? ([['Rejection reason', cell(s.rejection_reason)]] as Array<[string, string]>)
			: []),
		...(s.note !== null ? ([['Note', cell(s.note)]] as Array<[string, string]>) : []),
		['Input items', cell(s.items.join(', '))],
	]);
}

function overlap(value: unknown, why: unknown): string {
	if (value === true) return 'yes';
	if (value === false) return 'no';
	return shown(null, typeof why === 'string' ? why : null);
}

/** "Polygon", "2 × Point", … of a plot's FeatureCollection. */
function geometryTypes(fc: Record<string, unknown>): string {
	const counts = new Map<string, number>();
	for (const f of Array.isArray(fc.features)
		? (fc.features as Array<{ geometry?: { type?: unknown } }>)
		: []) {
		const type = String(f?.geometry?.type ?? 'Feature');
		counts.set(type, (counts.get(type) ?? 0) + 1);
	}
	return [...counts].map(([t, n]) => (n === 1 ? t : `${n} × ${t}`)).join(', ');
}

function plotRow(p: PlotEntry, n: number): string {
	const a = p.analysis;
	const v = p.validation;
	const problems = v ? (v.problem_summary ?? v.problems.slice(0, 3).join(' · ')) : null;
	const analysed = a
		? [a.analysis_end, a.analysis_version ? `version ${String(a.analysis_version)}` : null]
				.filter(Boolean)
				.join(', ')
		: '';
	return `<tr><td class="num">${n}</td><td>${shown(p.plot_name)}<br><span class="why">${cell(p.plot_id ?? '')}</span></td><td><span class="swatch" style="background:${colourOf(p.outcome)}"></span>${esc(p.outcome)}</td><td>${v ? shown(v.valid) : shown(null, p.validation_reason)}${problems ? `<br><span class="why">${cell(problems)}</span>` : ''}</td><td>${a ? shown(a.risk_level) : shown(null, p.analysis_reason)}${a && a.risk_reason ? `<br><span class="why">${cell(a.risk_reason)}</span>` : ''}${a && a.failed === true ? `<br><span class="why">failed: ${cell(a.failure_reason)}</span>` : ''}</td><td>${a ? shown(a.deforestation_free) : ''}</td><td>${a ? overlap(a.protected_area_overlap, a.protected_area_overlap_reason) : ''}</td><td>${a ? overlap(a.indigenous_land_overlap, a.indigenous_land_overlap_reason) : ''}</td><td>${a ? shown(analysed || null) : ''}</td><td>${p.eu_geojson ? cell(geometryTypes(p.eu_geojson)) : shown(null, p.eu_geojson_reason)}</td></tr>`;
}

function plotTable(plots: readonly PlotEntry[]): string {
	const head =
		'<thead><tr><th>#</th><th>Plot</th><th>Outcome</th><th>Valid</th><th>Risk level</th><th>Deforestation-free</th><th>Protected area</th><th>Indigenous land</th><th>Analysis (end, version)</th><th>Geolocation as filed</th></tr></thead>';
	const rows: string[] = [];
	let bytes = 0;
	for (const [i, p] of plots.entries()) {
		const row = plotRow(p, i + 1);
		bytes += Buffer.byteLength(row, 'utf8');
		if (bytes > TABLE_BUDGET_BYTES) break;
		rows.push(row);
	}
	const left = plots.length - rows.length;
	const more =
		left > 0
			? `<p class="note">${left.toLocaleString('en-US')} more plots are not listed here (the page lists at most ${(TABLE_BUDGET_BYTES / 1e6).toLocaleString('en-US')} MB of rows); every plot is in record.json.</p>`
			: '';
	return `<div class="wide"><table>${head}<tbody>${rows.join('')}</tbody></table></div>${more}`;
}

function sourcesTable(plots: readonly PlotEntry[]): string {
	const counts = new Map<string, { check: string; name: string; version: string; n: number }>();
	let unknown = 0;
	for (const p of plots) {
		const sources = p.analysis?.data_sources;
		if (!sources) {
			if (p.analysis) unknown++;
			continue;
		}
		for (const s of sources) {
			const key = `${s.check}\u0000${s.source_name}\u0000${s.data_version}`;
			const known = counts.get(key);
			if (known) known.n++;
			else
				counts.set(key, {
					check: s.check,
					name: s.source_name ?? '',
					version: s.data_version ?? '',
					n: 1,
				});
		}
	}
	const list = [...counts.values()];
	const rows = list
		.slice(0, MAX_LISTED)
		.map(
			(s) =>
				`<tr><td>${cell(s.check)}</td><td>${shown(s.name || null)}</td><td>${shown(s.version || null)}</td><td class="num">${s.n}</td></tr>`,
		)
		.join('');
	const notes = [
		list.length > MAX_LISTED ? `${list.length - MAX_LISTED} more sources are in record.json.` : '',
		unknown > 0
			? `${unknown} plot${unknown === 1 ? '' : 's'}: the input names no data sources (the simplified analysis rows do not carry them; Wait for Completion with Simplify off does).`
			: '',
	].filter(Boolean);
	return `${list.length ? `<table><thead><tr><th>Result</th><th>Source</th><th>Data version</th><th>Plots</th></tr></thead><tbody>${rows}</tbody></table>` : ''}${notes.map((n) => `<p class="note">${esc(n)}</p>`).join('')}`;
}

/** The map drawing of the plots, or why there is none. */
export type RecordMap =
	| { svg: string; width?: number; height?: number; caption?: string }
	| { svg: null; reason: string };

/** The drawing's own proportions (width and height in pixels), when given. */
function ratio(map: { width?: number; height?: number }): string {
	const ok = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n > 0;
	return ok(map.width) && ok(map.height)
		? `;aspect-ratio:${Math.round(map.width)}/${Math.round(map.height)}`
		: '';
}

function mapSection(map: RecordMap): { css: string; html: string } {
	if (map.svg === null || Buffer.byteLength(map.svg, 'utf8') > MAX_MAP_BYTES) {
		const why =
			map.svg === null ? map.reason : `the drawing takes more than ${MAX_MAP_BYTES / 1e6} MB`;
		return { css: '', html: `<p class="note">No map: ${esc(why)}</p>` };
	}
	const data = Buffer.from(map.svg, 'utf8').toString('base64');
	return {
		css: `.map-picture{background-image:url("data:image/svg+xml;base64,${data}")${ratio(map)}}`,
		html: `<figure><div class="map-picture" role="img" aria-label="Map of the plots, coloured by outcome"></div><figcaption>${esc(map.caption ?? 'The outlines are simplified for drawing; the geolocation as filed is in record.json.')}</figcaption></figure>`,
	};
}

/** The record as a self-contained HTML page (at most MAX_HTML_BYTES). */
export function recordHtml(record: DueDiligenceRecord, map: RecordMap): string {
	const title = `Due-diligence record${record.shipment !== null ? ` — ${record.shipment}` : ''}`;
	const m = mapSection(map);
	const s = record.summary;
	const by = record.made_by;
	const statements =
		record.statements.length === 0
			? `<p class="note">${esc(record.statement_reason)}</p>`
			: record.statements.slice(0, MAX_LISTED).map(statementTable).join('') +
				(record.statements.length > MAX_LISTED
					? `<p class="note">${record.statements.length - MAX_LISTED} more statements are in record.json.</p>`
					: '');
	const risks = Object.entries(s.risk_levels)
		.map(([k, n]) => `${k}: ${n}`)
		.join(', ');
	const body = [
		`<header><h1>${esc(title)}</h1><p class="sub">EUDR (Regulation (EU) 2023/1115): what was collected, how the risk was assessed and decided, and what was filed, as the workflow's input gave it.</p></header>`,
		kv([
			['Shipment', shown(record.shipment, record.shipment_reason)],
			['Record made at', cell(record.made_at)],
			[
				'Made by',
				cell(
					[
						by.workflow_name ? `workflow "${by.workflow_name}"` : null,
						by.workflow_id ? `(id ${by.workflow_id})` : null,
						by.execution_id ? `execution ${by.execution_id}` : null,
						`node "${by.node}"`,
					]
						.filter(Boolean)
						.join(', '),
				),
			],
			['Plots', cell(s.plots)],
		]),
		'<h2>Risk decision</h2>',
		kv([
			[
				'Decision',
				`${decisionBadge(record.decision.risk)}${record.decision.risk_reason ? ` <span class="why">${cell(record.decision.risk_reason)}</span>` : ''}`,
			],
			['Rule applied', shown(record.decision.rule, record.decision.rule_reason)],
		]),
		'<h2>Statement</h2>',
		statements,
		'<h2>Summary</h2>',
		kv([
			['Validation', cell(`${s.valid} valid, ${s.invalid} invalid, ${s.validation_not_known} not known`)],
			['Analysis', cell(`${s.analysed} analysed, ${s.analysis_failed} failed, ${s.analysis_not_known} not known`)],
			['Risk levels', risks ? cell(risks) : shown(null, 'no plot has a risk level in the input')],
			['Not deforestation-free', cell(s.not_deforestation_free)],
			['Protected-area overlap', cell(s.protected_area_overlaps)],
			['Indigenous-land overlap', cell(s.indigenous_land_overlaps)],
			['Geolocation as filed', cell(`${s.eu_features} features, ${s.eu_geojson_bytes.toLocaleString('en-US')} bytes of EU GeoJSON (in record.json)`)],
		]), // prettier-ignore
		'<h2>Map</h2>',
		m.html,
		`<section class="plots"><h2>Plots</h2>${plotTable(record.plots)}</section>`,
		'<h2>Data sources</h2>',
		sourcesTable(record.plots),
		`<footer>${esc(record.record)}, format ${record.record_format}. The complete record, with each plot's geolocation as filed, is record.json. No claim here goes beyond what the workflow's input said.</footer>`,
	].join('\n');
	const html = `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>${esc(title)}</title>\n<style>${CSS}${m.css}</style>\n</head>\n<body>\n${body}\n</body>\n</html>\n`;
	if (Buffer.byteLength(html, 'utf8') > MAX_HTML_BYTES)
		throw new RangeError(`the record's page would take more than ${MAX_HTML_BYTES} bytes`);
	return html;
}
