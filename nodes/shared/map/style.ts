/*
 * The map's colours and words per outcome, its text sizes and the option limits: one place
 * for what svg.ts and png.ts both draw.
 */
import type { MapOutcome } from './types';
import { MAP_OUTCOMES } from './types';

/** Outline and fill colour per outcome (green / amber / red / grey; risk and invalid also dashed-free thick red). */
export const OUTCOME_COLOURS: Record<MapOutcome, string> = {
	valid: '#1b7f3b',
	negligible: '#1b7f3b',
	problem: '#c76a00',
	invalid: '#c0262d',
	risk: '#c0262d',
	unknown: '#6b7280',
};

/** The legend's words per outcome (MapOptions.legendLabels replaces any of them). */
export const OUTCOME_LABELS: Record<MapOutcome, string> = {
	valid: 'Valid',
	negligible: 'Negligible risk',
	problem: 'Problems to check',
	invalid: 'Invalid',
	risk: 'Not negligible: needs mitigation',
	unknown: 'No outcome',
};

/** Drawing order: the outcomes that need a look are drawn last, on top. */
export const OUTCOME_ORDER: Record<MapOutcome, number> = {
	valid: 0,
	negligible: 0,
	unknown: 1,
	problem: 2,
	invalid: 3,
	risk: 3,
};

export const MARK_COLOUR = '#b00020';
export const INK = '#1f2937';
export const GRID = '#c8ccd2';
export const PAPER = '#ffffff';
export const MAP_BACKGROUND = '#f4f6f8';

export const FILL_OPACITY = 0.28;
export const TEXT_SIZE = 12;
export const LABEL_SIZE = 11;
export const TITLE_SIZE = 15;

/** A text's width estimated for layout (average glyph of a sans-serif font; png.ts's font agrees). */
export const textWidth = (text: string, size: number) => text.length * size * 0.6;

export function readOutcome(value: unknown): MapOutcome {
	return typeof value === 'string' && (MAP_OUTCOMES as readonly string[]).includes(value)
		? (value as MapOutcome)
		: 'unknown';
}

/** Text shown on the picture: control characters removed, at most `max` characters. */
export function cleanText(value: unknown, max: number): string {
	if (typeof value !== 'string') return '';
	// eslint-disable-next-line no-control-regex
	const text = value.replace(/[\u0000-\u001f\u007f-\u009f\ufffe\uffff]/g, ' ').trim();
	const chars = Array.from(text);
	return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** A number option within [min, max], else its default (never throws: the caller checks inputs). */
export function option(value: unknown, fallback: number, min: number, max: number): number {
	return typeof value === 'number' && Number.isFinite(value)
		? Math.min(max, Math.max(min, value))
		: fallback;
}

export const DEFAULTS = {
	width: 960,
	height: 720,
	maxPlots: 10_000,
	maxVertices: 200_000,
	maxVerticesPerPlot: 20_000,
	maxInputVertices: 5_000_000,
	maxLabels: 40,
	maxMarks: 500,
	maxBytes: 4_000_000,
	minPixels: 0.75,
} as const;
