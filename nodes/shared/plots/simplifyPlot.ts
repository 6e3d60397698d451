/**
 * The flat row of Plot → Get / Get Many with Simplify on: one spreadsheet-ready row per
 * plot. The analysis figures come from `results/flatten.ts` (the one place per-plot rows
 * are built); this adds the plot's own fields and drops the job columns, which a plot
 * read outside a job does not have.
 */
import type { IDataObject } from 'n8n-workflow';

import { num, str } from '../values/answerValues';
import { simplifyPlotResult } from '../results/flatten';

const JOB_COLUMNS = ['job_id', 'job_name', 'job_status'];

/** id, name, commodity, country, state, area, lat, lon, dates, risk level and the main analysis figures. */
export function simplifyPlot(plot: IDataObject): IDataObject {
	const analysisRow = simplifyPlotResult(plot, {});
	for (const key of JOB_COLUMNS) delete analysisRow[key];
	const harvest = Array.isArray(plot.harvest_dates)
		? plot.harvest_dates.filter((d) => typeof d === 'string')
		: [];
	const { plot_id, plot_name, commodity, country, area_ha, ...analysis } = analysisRow;
	return {
		plot_id,
		plot_name,
		commodity,
		country,
		state: str(plot.state),
		area_ha: area_ha ?? null,
		lat: num(plot.lat),
		lon: num(plot.lon),
		harvest_date: harvest.length > 0 ? harvest.join(', ') : null,
		tokens_cost: num(plot.tokens_cost),
		created_at: str(plot.created_at),
		updated_at: str(plot.updated_at),
		...analysis,
	};
}
