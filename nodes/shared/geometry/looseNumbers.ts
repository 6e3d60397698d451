/**
 * Numbers in geometry input. `readLooseNumber` (numbers typed by people) lives in the input
 * layer and is re-exported here for the geometry code and its other importers.
 */
export { readLooseNumber } from '../input/numbers';

/**
 * Whether `n` has at least `places` digits after the decimal point. Numbers with more
 * than `places - 1` decimals are recognised without building a string (the common case
 * for GPS coordinates); only the others go through `decimalPlaces`.
 */
export function hasDecimalPlaces(n: number, places: number): boolean {
	if (!Number.isFinite(n)) return false;
	const scale = 10 ** (places - 1);
	if (Math.round(n * scale) / scale !== n) return true;
	return decimalPlaces(n) >= places;
}

/** Number of digits after the decimal point in the shortest representation of `n`. */
export function decimalPlaces(n: number): number {
	if (!Number.isFinite(n)) return 0;
	const text = String(Math.abs(n));
	const e = text.indexOf('e');
	if (e === -1) {
		const dot = text.indexOf('.');
		return dot === -1 ? 0 : text.length - dot - 1;
	}
	const mantissa = text.slice(0, e);
	const exponent = Number(text.slice(e + 1));
	const dot = mantissa.indexOf('.');
	const mantissaDecimals = dot === -1 ? 0 : mantissa.length - dot - 1;
	return Math.max(0, mantissaDecimals - exponent);
}
