/** A square plot for tests (unit and integration tests, the fakes' setups). */

/** A square polygon of `side` degrees (0.003: about 330 m) from (x, y): a polygon the fakes accept. */
export const squarePlot = (x: number, y: number, side = 0.003) => ({
	type: 'Polygon',
	coordinates: [
		[
			[x, y],
			[x + side, y],
			[x + side, y + side],
			[x, y + side],
			[x, y],
		],
	],
});
