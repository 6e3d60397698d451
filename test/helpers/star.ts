/** Worst-case outlines for the crossing check (unit and integration tests, and the bench). */
import type { Position } from '../../nodes/shared/geometry';

/** A star polygon of n vertices: each vertex joined to the one about n/2 further round (n/2 - 1 steps, coprime with n). */
export function star(n: number, lon = -47.88, lat = -15.79, radius = 0.01): Position[] {
	const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
	let step = Math.floor(n / 2) - 1;
	while (gcd(n, step) !== 1) step--;
	const ring: Position[] = [];
	for (let i = 0; i < n; i++) {
		const angle = (2 * Math.PI * ((i * step) % n)) / n;
		ring.push([
			Math.round((lon + radius * Math.cos(angle)) * 1e7) / 1e7,
			Math.round((lat + radius * Math.sin(angle)) * 1e7) / 1e7,
		]);
	}
	ring.push([...ring[0]]);
	return ring;
}

/**
 * A saw of `teeth` long thin teeth side by side: it does not cross itself, but every tooth
 * overlaps every other one along the sweep, so a sweep compares each edge with all before it.
 */
export function saw(teeth: number): Position[] {
	const ring: Position[] = [];
	for (let i = 0; i < teeth; i++) ring.push([i % 2 ? -47.89 : -47.9, -15.8 + i * 1e-7]);
	const top = ring[ring.length - 1][1];
	ring.push([-47.88, top], [-47.88, -15.8 - 1e-7], [-47.9, -15.8 - 1e-7], [...ring[0]]);
	return ring;
}
