import { runNode } from '../../helpers/engine';
import { create, fake, seed, store, useJobService } from './helpers';

/**
 * Job → Get Results through the n8n engine, against the fake over loopback HTTP. (Get Results
 * of a done-with-errors job is checked next to Wait for Completion's per-plot output, in
 * waitForCompletion.test.ts.)
 */
describe('Job resource (through the n8n engine, against the fake)', () => {
	useJobService();

	it('downloads visualisations as binary data', async () => {
		const job = await create(seed(2));
		fake.clock.advance(10_000);
		const { items, error } = await runNode({
			parameters: {
				resource: 'job',
				operation: 'getResults',
				jobId: job.job_id,
				downloadImages: true,
			},
			store,
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		for (const item of items) {
			expect(item.binary?.data).toBeDefined();
			expect(item.binary?.data.mimeType).toBe('image/png');
		}
	});

	it('Put Image in Field is read by the input layer: empty means "data", a list is refused naming the field before any request', async () => {
		const job = await create(seed(1));
		fake.clock.advance(10_000);
		const empty = await runNode({
			parameters: {
				resource: 'job',
				operation: 'getResults',
				jobId: job.job_id,
				downloadImages: true,
				binaryPropertyName: '  ',
			},
			store,
		});
		expect(empty.error).toBeUndefined();
		expect(empty.items[0].binary?.data).toBeDefined();
		const requestsBefore = fake.log.count();
		const list = await runNode({
			parameters: {
				resource: 'job',
				operation: 'getResults',
				jobId: job.job_id,
				downloadImages: true,
				binaryPropertyName: '={{ ["a", "b"] }}',
			},
			store,
		});
		expect(list.error?.message).toMatch(/Item 0, field "Put Image in Field": it is a list/);
		expect(fake.log.count()).toBe(requestsBefore);
	});

	it('Get Results refuses a job that is still running, and Get returns it', async () => {
		const job = await create(seed(1));
		const results = await runNode({
			parameters: { resource: 'job', operation: 'getResults', jobId: job.job_id },
			store,
		});
		expect(results.error?.message).toMatch(/has not finished yet \(status: creating\)/);
		const got = await runNode({
			parameters: { resource: 'job', operation: 'get', jobId: job.job_id },
			store,
		});
		expect(got.items[0].json).toMatchObject({ job_id: job.job_id, status: 'creating' });
	});
});
