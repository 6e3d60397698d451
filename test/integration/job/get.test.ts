import { runNode } from '../../helpers/engine';
import { fake, storeWithApiKey, useFakeService } from '../../helpers/fakeService';

/** Job → Get through the n8n engine, against the fake over loopback HTTP. */
describe('Job → Get checks every item before any request', () => {
	useFakeService();
	const store = () => storeWithApiKey(fake);

	it('sends nothing when a later item has no job id, naming the item and the field', async () => {
		fake.reset();
		const [jobId] = fake.seedJobs('alice', 1);
		const { error } = await runNode({
			parameters: { resource: 'job', operation: 'get', jobId: '={{ $json.id }}' },
			input: [{ id: jobId }, { id: '' }],
			store: store(),
		});
		expect(error?.message).toBe(
			'Item 1, field "Job IDs": no job id was given. Map the job_id of the job, e.g. {{ $json.job_id }}.',
		);
		expect(fake.log.count({ path: /^\/jobs\/job\// })).toBe(0);
	});

	it('with Continue On Fail, gets the good items and marks the bad one', async () => {
		fake.reset();
		const [jobId] = fake.seedJobs('alice', 1);
		const { items } = await runNode({
			parameters: { resource: 'job', operation: 'get', jobId: '={{ $json.id }}' },
			input: [{ id: 'x/y' }, { id: jobId }],
			store: store(),
			continueOnFail: true,
		});
		expect(items.map((i) => [i.pairedItem, i.json.error ?? i.json.job_id])).toEqual([
			[
				{ item: 0 },
				'Item 0, field "Job IDs": "x/y" is not a job id: it contains "/", which cannot be part of an id. Give the job_id only, e.g. 7001.',
			],
			[{ item: 1 }, jobId],
		]);
	});
});
