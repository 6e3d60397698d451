/**
 * Tolerant readers for values whose exact types are not known: service answers (the contract
 * does not always show a field's type), parsed files and mapped-in parameters. Pure; the one
 * object guard and the one number reader of the package.
 */
import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from '../input/internal';

/**
 * Whether `v` is a plain object (`{}`, `Object.create(null)`, also from another realm such as
 * n8n's expression sandbox): not null, a list, a Date, a Map or a Luxon DateTime. The input
 * layer's own guard (it imports nothing from outside its folder), the one of the package.
 */
export function isObject(v: unknown): v is IDataObject {
	return isPlainObject(v);
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
