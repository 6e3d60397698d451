import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { runItems } from '../../../nodes/shared/runner';
import { forToolUse } from '../../../nodes/shared/runner/preflight';

const ctx = (
	parameters: INode['parameters'],
	type = 'n8n-nodes-geospatial-analysis.geospatialAnalysis',
) => ({
	getNode: () => ({ parameters, type }) as INode,
});

const line =
	'Item 0, field "Plot IDs": no plot id was given. Map the plot_id of the plot, e.g. {{ $json.plot_id }}.';

describe('pre-flight problems when the node runs as an AI Agent tool', () => {
	it('in a workflow, the line is left as it is (written for the author)', () => {
		expect(forToolUse(ctx({ plotIds: '={{ $json.plot_id }}' }), [line])).toEqual([line]);
	});

	it('as a tool, the line also names the tool input the model must supply', () => {
		const parameters = {
			resource: 'protectedArea',
			operation: 'check',
			plotIds: "={{ $fromAI('plot_ids', 'IDs of the plots to check', 'string') }}",
		};
		expect(forToolUse(ctx(parameters), [line])).toEqual([
			`${line} (as a tool: supply the tool input "plot_ids")`,
		]);
	});

	it('a field without its own tool input lists the inputs there are', () => {
		const parameters = { jobId: '={{ $fromAI("job") }}', plotIds: '' };
		expect(forToolUse(ctx(parameters, 'x.geospatialAnalysisTool'), [line])).toEqual([
			`${line} (as a tool: check the tool inputs "job")`,
		]);
	});

	it('singular and plural labels find their parameter (Plot ID → plotId, Job IDs → jobId)', () => {
		const parameters = { jobId: "={{ $fromAI('job_ids') }}" };
		expect(forToolUse(ctx(parameters), ['Item 2, field "Job IDs": bad.'])).toEqual([
			'Item 2, field "Job IDs": bad. (as a tool: supply the tool input "job_ids")',
		]);
	});

	it('with Continue On Fail, the error item the model reads names the tool input too', async () => {
		const parameters = { plotIds: "={{ $fromAI('plotIds', 'IDs of the plots', 'string') }}" };
		const node = { ...ctx(parameters, 'x.geospatialAnalysisTool'), continueOnFail: () => true };
		let sent = 0;
		const out = await runItems(node as unknown as IExecuteFunctions, [{ json: {} }], {
			prepare: (_item, problems) => problems.field('Plot IDs', 'no plot id was given.'),
			run: async () => ({ sent: ++sent }),
		});
		expect(sent).toBe(0);
		expect(out).toEqual([
			{
				json: {
					error:
						'Item 0, field "Plot IDs": no plot id was given. (as a tool: supply the tool input "plotIds")',
					description: 'Nothing was sent for this item. Fix the input and run again.',
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	it('a setting only the author may change keeps its line as it is, with or without Continue On Fail (the model cannot fix it)', async () => {
		const parameters = {
			allowFilingStatements: "={{ $fromAI('allowFilingStatements', '', 'boolean') }}",
			uuid: "={{ $fromAI('uuid') }}",
		};
		const reason = 'it is set by an expression.';
		const expected = `Item 0, field "Allow Filing Statements": ${reason}`;
		for (const continueOnFail of [true, false]) {
			const node = {
				...ctx(parameters, 'x.euInformationSystemTool'),
				continueOnFail: () => continueOnFail,
			};
			const run = runItems(node as unknown as IExecuteFunctions, [{ json: {} }], {
				prepare: (_item, problems) => problems.setting('Allow Filing Statements', reason),
				run: async () => ({}),
			});
			if (continueOnFail) expect((await run)[0].json.error).toBe(expected);
			else await expect(run).rejects.toMatchObject({ message: expected });
		}
		// the same line from field() would ask the model for the input
		expect(forToolUse(ctx(parameters, 'x.euInformationSystemTool'), [expected])).toEqual([
			`${expected} (as a tool: supply the tool input "allowFilingStatements")`,
		]);
	});
});
