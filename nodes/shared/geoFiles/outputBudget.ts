/**
 * What one file may give, decided from Maximum File Size before the work: every reader
 * counts the positions (coordinate pairs) it builds here and stops with a clear refusal
 * once the file gives more than its budget, so that a small file that inflates or repeats
 * (a KMZ of 249 MB of coordinates, a .dbf claiming millions of rows) can never build an
 * output, or a heap, far past what the user allowed.
 *
 * The budget: `POSITIONS_PER_MB` positions per megabyte of Maximum File Size (50 MB → 2.5
 * million positions). A position in GeoJSON text takes at least about 20 bytes
 * (`[-47.88278,-15.79389],`), so a file within Maximum File Size that is not compressed
 * never meets this limit; only packed or repeated data does.
 */
import type { GeoFileOptions } from './geoFileTypes';
import { GeoFileError, MB } from './geoFileTypes';

/** Positions one file may give per megabyte of Maximum File Size. */
export const POSITIONS_PER_MB = 50_000;

/** The positions a file may give under these options. */
export function positionLimit(options: Pick<GeoFileOptions, 'maxFileBytes'>): number {
	return Math.max(1, Math.floor((options.maxFileBytes / MB) * POSITIONS_PER_MB));
}

/** Counts what one file's readers build; throws GeoFileError naming the limit when over. */
export class OutputBudget {
	private positions = 0;
	readonly maxPositions: number;

	constructor(
		readonly fileName: string,
		options: Pick<GeoFileOptions, 'maxFileBytes'>,
	) {
		this.maxPositions = positionLimit(options);
	}

	/** Counts `n` more positions. */
	takePositions(n: number): void {
		this.positions += n;
		if (this.positions > this.maxPositions) {
			throw new GeoFileError(
				`"${this.fileName}" gives more than ${this.maxPositions.toLocaleString('en-US')} coordinate positions, over what this node builds from one file (${POSITIONS_PER_MB.toLocaleString('en-US')} per MB of Maximum File Size): refused, nothing past the limit was built`,
				'A plot file holds a few thousand positions per plot at most. Check that this is the intended file; for a genuinely large layer, simplify it (e.g. in QGIS) or split it, or raise Maximum File Size (MB).',
			);
		}
	}

	/** Positions counted so far. */
	get used(): number {
		return this.positions;
	}
}
