/**
 * Tolerant readers for values in service answers, whose exact field types the contract
 * does not always show (pure; shared by the per-plot, plot and protected-area flatteners).
 */
import type { IDataObject } from 'n8n-workflow';

export function isObject(v: unknown): v is IDataObject {
	return !!v && typeof v === 'object' && !Array.isArray(v);
}

/** A finite number, or a numeric string as a number; otherwise null. */
export function num(v: unknown): number | null {
	if (typeof v === 'number' && Number.isFinite(v)) return v;
	if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
	return null;
}

/** A string, or a number/boolean as text; otherwise null. */
export function str(v: unknown): string | null {
	if (typeof v === 'string') return v;
	if (typeof v === 'number' || typeof v === 'boolean') return String(v);
	return null;
}

/** A boolean, or "true"/"false"; otherwise null. */
export function bool(v: unknown): boolean | null {
	if (typeof v === 'boolean') return v;
	if (v === 'true') return true;
	if (v === 'false') return false;
	return null;
}
