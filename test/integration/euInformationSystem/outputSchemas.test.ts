/**
 * The `__schema__` files of the EU Information System node (as
 * test/integration/descriptions/outputSchemas.test.ts does for the action node): the outputs
 * of each operation at its defaults, through n8n's engine against the EU fake, recorded with
 * UPDATE_OUTPUT_SCHEMAS=1 (`npm run schemas`), else compared with the committed files.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'fs';
import { dirname, join } from 'path';

import type { IDataObject, IExecuteFunctions, INodeParameters } from 'n8n-workflow';

import { readSubmitAnswer } from '../../../nodes/shared/dds/answers';
import { submitDdsBody } from '../../../nodes/shared/dds/requests';
import type { Statement } from '../../../nodes/shared/dds/statement';
import { soapRequest } from '../../../nodes/shared/transport/soapRequest';
import { useFakeEu } from '../../helpers/fakeEu';
import type { OutputSchema } from '../../helpers/outputSchema';
import { misfits, schemaOfOutputs } from '../../helpers/outputSchema';
import { plainHttp } from '../../helpers/plainHttp';
import { euStore, runEu } from './helpers';

const SCHEMA_DIR = join(__dirname, '../../../nodes/EuInformationSystem/__schema__/v1.0.0');
const UPDATE = process.env.UPDATE_OUTPUT_SCHEMAS === '1';

/**
 * Version 1.1 runs version 1's operations (the same execute code: only where a few statement
 * fields are read differs), so its outputs are version 1's: the editor asks for
 * `v1.1.0/<resource>/<operation>.json`, written from the same outputs.
 */
const VERSION_DIRS = ['v1.0.0', 'v1.1.0'];

function checkSchemaFile(v1File: string, outputs: IDataObject[]): void {
	expect(outputs.length).toBeGreaterThan(0);
	const generated = schemaOfOutputs(outputs);
	for (const file of VERSION_DIRS.map((v) => v1File.replace('/v1.0.0/', `/${v}/`))) {
		if (UPDATE) {
			mkdirSync(dirname(file), { recursive: true });
			writeFileSync(file, JSON.stringify(generated, null, '\t') + '\n');
		}
		expect(existsSync(file)).toBe(true);
		const committed = JSON.parse(readFileSync(file, 'utf8')) as OutputSchema;
		expect(committed.type).toBe('object');
		expect(outputs.flatMap((json) => misfits(json, committed))).toEqual([]);
		expect(committed).toEqual(generated);
	}
}

/** One plot row for Submit and Amend (a point of 2 ha). */
const plotRow = {
	internal_reference: 'SCHEMA-0002',
	country: 'CI',
	latitude: 6.812345,
	longitude: -5.212345,
};

const statement: Statement = {
	internalReferenceNumber: 'SCHEMA-0001',
	activityType: 'IMPORT',
	commodities: [
		{
			descriptors: { descriptionOfGoods: 'Soy beans', goodsMeasure: { netWeight: '300' } },
			hsHeading: '1201',
			producers: [
				{
					country: 'BR',
					name: 'Fazenda Boa Vista',
					geometryGeojson: JSON.stringify({
						type: 'FeatureCollection',
						features: [
							{
								type: 'Feature',
								properties: { ProducerCountry: 'BR', Area: 2 },
								geometry: { type: 'Point', coordinates: [-55.512345, -6.712345] },
							},
						],
					}),
				},
			],
		},
	],
	geoLocationConfidential: false,
};

describe('EU Information System output schemas (__schema__), from outputs at the defaults', () => {
	const eu = useFakeEu({ availableAfterMs: 1000, ratePerSecond: 0 });

	it('records Submit, Get, Get by Internal Reference, Get Content, Verify, Amend and Withdraw', async () => {
		const user = eu.fake.users[0];
		const store = euStore(eu.fake.url, user);
		const { httpRequest } = plainHttp();
		const ctx = {
			helpers: { httpRequest },
			getNode: () => ({ name: 'EU', type: 'eu', typeVersion: 1, position: [0, 0], parameters: {} }),
			getNodeParameter: (_n: string, _i: number, fallback: unknown) => fallback,
			getCredentials: async () => store.data.euInformationSystemApi,
		} as unknown as IExecuteFunctions;
		const ok = await soapRequest.call(ctx, {
			service: 'dds',
			operation: 'submitDds',
			body: submitDdsBody('OPERATOR', statement),
			idempotent: false,
		});
		const { uuid } = readSubmitAnswer(ok.element);
		eu.fake.clock.advance(2000);

		const run = async (parameters: INodeParameters) => {
			const { items, error } = await runEu({ parameters, store });
			if (error) throw new Error(`${String(parameters.operation)}: ${error.message}`);
			return items.map((i) => i.json);
		};
		const got = await run({ operation: 'get', uuids: uuid });
		expect(got[0]).toMatchObject({ uuid, status: 'AVAILABLE' });
		checkSchemaFile(join(SCHEMA_DIR, 'dueDiligenceStatement/get.json'), got);
		checkSchemaFile(
			join(SCHEMA_DIR, 'dueDiligenceStatement/getByInternalReference.json'),
			await run({ operation: 'getByInternalReference', internalReference: 'SCHEMA-0001' }),
		);
		checkSchemaFile(
			join(SCHEMA_DIR, 'dueDiligenceStatement/getContent.json'),
			await run({
				operation: 'getContent',
				referenceNumber: String(got[0].referenceNumber),
				verificationNumber: String(got[0].verificationNumber),
			}),
		);
		// Declaration → Verify: the numbers of the statement Get found (usable, with a status)
		checkSchemaFile(
			join(SCHEMA_DIR, 'declaration/verify.json'),
			await run({
				resource: 'declaration',
				operation: 'verify',
				referenceNumber: String(got[0].referenceNumber),
				verificationNumber: String(got[0].verificationNumber),
			}),
		);
		const submitted = await runEu({
			parameters: {
				operation: 'submit',
				hsHeading: '1801',
				descriptionOfGoods: 'Cocoa beans',
				netWeight: '1200',
				pointArea: '2',
			},
			input: [plotRow],
			store,
		});
		if (submitted.error) throw new Error(`submit: ${submitted.error.message}`);
		checkSchemaFile(
			join(SCHEMA_DIR, 'dueDiligenceStatement/submit.json'),
			submitted.items.map((i) => i.json),
		);
		// Amend: the statement Submit filed above, once AVAILABLE, with the same fields
		const filed = submitted.items[0].json;
		eu.fake.clock.advance(2000);
		const amended = await runEu({
			parameters: {
				operation: 'amend',
				uuid: String(filed.uuid),
				hsHeading: '1801',
				descriptionOfGoods: 'Cocoa beans',
				netWeight: '1100',
				pointArea: '2',
			},
			input: [plotRow],
			store,
		});
		if (amended.error) throw new Error(`amend: ${amended.error.message}`);
		checkSchemaFile(
			join(SCHEMA_DIR, 'dueDiligenceStatement/amend.json'),
			amended.items.map((i) => i.json),
		);
		checkSchemaFile(
			join(SCHEMA_DIR, 'dueDiligenceStatement/withdraw.json'),
			await run({ operation: 'withdraw', uuid }),
		);
	});

	it('records the Simplified Declaration: Submit, Get, Get by Internal Reference, Get Content, Update and Withdraw', async () => {
		const store = euStore(eu.fake.url, eu.fake.users[0]);
		const sdRun = async (parameters: INodeParameters, input?: IDataObject[]) => {
			const { items, error } = await runEu({
				parameters: { resource: 'simplifiedDeclaration', ...parameters },
				input,
				store,
			});
			if (error) throw new Error(`SD ${String(parameters.operation)}: ${error.message}`);
			return items.map((i) => i.json);
		};
		const fields = {
			internalReference: 'SCHEMA-SD-1',
			activityType: 'DOMESTIC',
			countryOfActivity: 'FR',
			commodity: 'coffee',
			hsHeading: '0901',
			descriptionOfGoods: 'Green coffee',
			netWeight: '1200',
			pointArea: '2',
		};
		const row = { country: 'FR', latitude: 44.512345, longitude: 2.512345 };
		const submitted = await sdRun({ operation: 'submit', ...fields }, [row]);
		checkSchemaFile(join(SCHEMA_DIR, 'simplifiedDeclaration/submit.json'), submitted);
		const uuid = String(submitted[0].uuid);
		eu.fake.clock.advance(2000);
		const got = await sdRun({ operation: 'get', uuids: uuid });
		expect(got[0]).toMatchObject({ uuid, status: 'AVAILABLE' });
		checkSchemaFile(join(SCHEMA_DIR, 'simplifiedDeclaration/get.json'), got);
		checkSchemaFile(
			join(SCHEMA_DIR, 'simplifiedDeclaration/getByInternalReference.json'),
			await sdRun({ operation: 'getByInternalReference', internalReference: 'SCHEMA-SD-1' }),
		);
		checkSchemaFile(
			join(SCHEMA_DIR, 'simplifiedDeclaration/getContent.json'),
			await sdRun({
				operation: 'getContent',
				referenceNumber: String(got[0].referenceNumber),
				verificationNumber: String(got[0].verificationNumber),
			}),
		);
		checkSchemaFile(
			join(SCHEMA_DIR, 'simplifiedDeclaration/update.json'),
			await sdRun({ operation: 'update', uuid, ...fields, netWeight: '1100' }, [row]),
		);
		checkSchemaFile(
			join(SCHEMA_DIR, 'simplifiedDeclaration/withdraw.json'),
			await sdRun({ operation: 'withdraw', uuid }),
		);
	});
});
