import { runNode } from '../../helpers/engine';
import { describeGetManyChecksEveryItemFirst } from '../../helpers/getManyChecks';
import { create, fake, listJobs, seed, store, useJobService } from './helpers';

/** Job → Get Many through the n8n engine, against the fake over loopback HTTP. */
describe('Job resource (through the n8n engine, against the fake)', () => {
	useJobService();

	it('Get Many honours Limit and created_at filters', async () => {
		for (let i = 0; i < 3; i++) {
			await create(seed(1));
			fake.clock.advance(60_000);
		}
		const limited = await runNode({
			parameters: { resource: 'job', operation: 'getMany', limit: 2 },
			store,
		});
		expect(limited.items).toHaveLength(2);
		const all = await listJobs();
		const oldest = all[2].created_at as string;
		const filtered = await runNode({
			parameters: {
				resource: 'job',
				operation: 'getMany',
				returnAll: true,
				filters: { createdAtUntil: oldest },
			},
			store,
		});
		expect(filtered.items.map((i) => i.json.job_id)).toEqual([all[2].job_id]);
	});
});

describeGetManyChecksEveryItemFirst('job', '/jobs');
