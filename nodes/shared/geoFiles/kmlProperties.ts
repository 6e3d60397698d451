/**
 * The properties of a KML Placemark, as @tmcw/togeojson 7 gave them (the reader Read File
 * used before; test/unit/geoFiles/xmlPaths.test.ts compares the two on every fixture):
 * name, address, visibility, open, phoneNumber, description (an HTML description in CDATA
 * as `{ "@type": "html", value }`), the style its `styleUrl` names (`stroke`, `fill-opacity`…)
 * and its inline style, ExtendedData (`Data` values; `SimpleData` typed by the `SimpleField`
 * of the file's Schema), TimeSpan and TimeStamp.
 *
 * Styles and schemas may be declared anywhere in the document, so a Placemark's
 * properties are noted as it is read (`notePlacemark`) and put together at the end
 * (`assemble`), once every Style, StyleMap and Schema is known. Every name a file gives
 * (a Data named `__proto__`, `constructor`, `toString`…) is set as an own property with
 * its value, never looked up on an object's prototype.
 */
import { setOwn } from '../input/json';

/** Sets an own property (plain assignment, except for `__proto__`, whose setter would drop it). */
const own = (props: Props, key: string, v: unknown) => {
	if (key === '__proto__') setOwn(props, key, v);
	else props[key] = v;
};
import type { XNode } from './xmlTree';
import { all, attribute, CData, first, firstOfEach, isNode, textAt, textOf } from './xmlTree';

type Props = Record<string, unknown>;

/** A SimpleData value, typed once the schema is known. */
class Simple {
	constructor(readonly raw: string) {}
}

/** Where the cascaded style of a `styleUrl` goes among a placemark's noted properties. */
const STYLE_SLOT = Symbol('style');

/** A placemark's properties as noted: key, value, key, value… */
export type Noted = unknown[];

const normalizeId = (id: string) => (id[0] === '#' ? id : `#${id}`);

function fixColor(v: string, prefix: string): Array<[string, unknown]> {
	const colorProp = prefix === 'stroke' || prefix === 'fill' ? prefix : `${prefix}-color`;
	if (v[0] === '#') v = v.substring(1);
	if (v.length === 6 || v.length === 3) return [[colorProp, `#${v}`]];
	if (v.length === 8)
		return [
			[`${prefix}-opacity`, Number.parseInt(v.substring(0, 2), 16) / 255],
			[colorProp, `#${v.substring(6, 8)}${v.substring(4, 6)}${v.substring(2, 4)}`],
		];
	return [];
}

function numeric(node: XNode, source: string, target: string): Array<[string, unknown]> {
	const v = Number.parseFloat(textAt(node, source));
	return Number.isNaN(v) ? [] : [[target, v]];
}

function color(node: XNode, prefix: string): Array<[string, unknown]> {
	const c = first(node, 'color');
	return c ? fixColor(textOf(c), prefix) : [];
}

function iconHref(node: XNode): Array<[string, unknown]> {
	const icon = first(node, 'Icon');
	const href = icon ? textAt(icon, 'href') : '';
	return href ? [['icon', href]] : [];
}

/** The style properties of a Style (or a Placemark's inline style), in togeojson's order. */
function styleOf(firsts: Map<string, XNode>): Array<[string, unknown]> {
	const out: Array<[string, unknown]> = [];
	const poly = firsts.get('PolyStyle');
	if (poly) {
		const c = first(poly, 'color');
		if (c) out.push(...fixColor(textOf(c), 'fill'));
		if (textAt(poly, 'fill') === '0') out.push(['fill-opacity', 0]);
		if (textAt(poly, 'outline') === '0') out.push(['stroke-opacity', 0]);
	}
	const line = firsts.get('LineStyle');
	if (line) out.push(...color(line, 'stroke'), ...numeric(line, 'width', 'stroke-width'));
	const label = firsts.get('LabelStyle');
	if (label) out.push(...color(label, 'label'), ...numeric(label, 'scale', 'label-scale'));
	const icon = firsts.get('IconStyle');
	if (icon) {
		out.push(
			...color(icon, 'icon'),
			...numeric(icon, 'scale', 'icon-scale'),
			...numeric(icon, 'heading', 'icon-heading'),
		);
		const hotspot = first(icon, 'hotSpot');
		if (hotspot) {
			const left = Number.parseFloat(attribute(hotspot, 'x') || '');
			const top = Number.parseFloat(attribute(hotspot, 'y') || '');
			if (!Number.isNaN(left) && !Number.isNaN(top))
				out.push(
					['icon-offset', [left, top]],
					[
						'icon-offset-units',
						[attribute(hotspot, 'xunits') || '', attribute(hotspot, 'yunits') || ''],
					],
				);
		}
		out.push(...iconHref(icon));
	}
	return out;
}

const toNumber = (x: string) => {
	const n = Number(x);
	return Number.isNaN(n) ? x : n;
};
const CONVERTERS = new Map<string, (x: string) => unknown>([
	['int', toNumber],
	['uint', toNumber],
	['short', toNumber],
	['ushort', toNumber],
	['float', toNumber],
	['double', toNumber],
	// as GDAL reads a KML bool: 1/true and 0/false; anything else kept as written
	['bool', (x) => (/^\s*(1|true)\s*$/i.test(x) ? true : /^\s*(0|false)\s*$/i.test(x) ? false : x)],
]);

/** The Styles, StyleMaps and Schemas of one document, gathered as they are read. */
export class KmlStyles {
	private readonly styles: XNode[] = [];
	private readonly maps: XNode[] = [];
	private readonly fields: XNode[] = [];
	private styleMap: Map<string, Array<[string, unknown]>> | null = null;
	private schema: Map<string, (x: string) => unknown> | null = null;

	/** A Style, StyleMap or Schema read outside a Placemark, or the ones inside a Placemark's tree. */
	add(node: XNode, parent: XNode | null = null): void {
		if (node.name === 'Style') this.styles.push(parent?.name === 'CascadingStyle' ? parent : node);
		else if (node.name === 'StyleMap') this.maps.push(node);
		else if (node.name === 'SimpleField') this.fields.push(node);
		for (const child of node.children)
			if (isNode(child) && child.name !== 'coordinates') this.add(child, node);
	}

	private resolve(): void {
		const styleMap = new Map<string, Array<[string, unknown]>>();
		for (const node of this.styles) {
			// a Style inside a CascadingStyle takes that element's id
			const style = node.name === 'CascadingStyle' ? (first(node, 'Style') ?? node) : node;
			let id = attribute(style, 'id');
			if (!id && node !== style) id = attribute(node, 'kml:id') || attribute(node, 'id');
			styleMap.set(normalizeId(id || ''), styleOf(firstOfEach(style)));
		}
		for (const map of this.maps) {
			const id = normalizeId(attribute(map, 'id') || '');
			const url = textAt(map, 'styleUrl');
			const target = url ? styleMap.get(normalizeId(url)) : undefined;
			if (target) styleMap.set(id, target);
		}
		const schema = new Map<string, (x: string) => unknown>();
		for (const field of this.fields)
			schema.set(
				attribute(field, 'name') || '',
				CONVERTERS.get(attribute(field, 'type') || '') ?? String,
			);
		this.styleMap = styleMap;
		this.schema = schema;
	}

	/** The properties noted for a placemark, put together (call once the document is read). */
	assemble(noted: Noted): Props {
		if (!this.styleMap) this.resolve();
		const props: Props = {};
		for (let i = 0; i < noted.length; i += 2) {
			const key = noted[i];
			const value = noted[i + 1];
			if (key === STYLE_SLOT) {
				own(props, 'styleUrl', value);
				for (const [k, v] of this.styleMap!.get(value as string) ?? []) own(props, k, v);
			} else if (value instanceof Simple) {
				own(props, key as string, (this.schema!.get(key as string) ?? String)(value.raw));
			} else own(props, key as string, value);
		}
		if (Object.prototype.hasOwnProperty.call(props, 'visibility'))
			props.visibility = props.visibility !== '0';
		return props;
	}
}

const HEAD = ['name', 'address', 'visibility', 'open', 'phoneNumber', 'description'];

/** Notes the properties of a Placemark (its tree, its geometry's times) for `assemble`. */
export function notePlacemark(node: XNode, coordTimes: string[][]): Noted {
	const noted: Noted = [];
	const firsts = firstOfEach(node);
	for (const key of HEAD) {
		const v = textOf(firsts.get(key));
		if (v) noted.push(key, v);
	}
	const html = firsts.get('description')?.children.find((c): c is CData => c instanceof CData);
	if (html) noted.push('description', { '@type': 'html', value: html.text });
	const styleUrl = textOf(firsts.get('styleUrl'));
	if (styleUrl) noted.push(STYLE_SLOT, normalizeId(styleUrl));
	for (const [k, v] of styleOf(firsts)) noted.push(k, v);
	const extended = firsts.get('ExtendedData');
	if (extended) {
		for (const data of all(extended, 'Data'))
			noted.push(attribute(data, 'name') || '', textAt(data, 'value'));
		for (const simple of all(extended, 'SimpleData'))
			noted.push(attribute(simple, 'name') || '', new Simple(textOf(simple)));
	}
	const span = firsts.get('TimeSpan');
	if (span) noted.push('timespan', { begin: textAt(span, 'begin'), end: textAt(span, 'end') });
	const stamp = firsts.get('TimeStamp');
	if (stamp) noted.push('timestamp', textAt(stamp, 'when'));
	if (coordTimes.length)
		noted.push('coordinateProperties', {
			times: coordTimes.length === 1 ? coordTimes[0] : coordTimes,
		});
	return noted;
}
