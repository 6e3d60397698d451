/**
 * Submit of the Due Diligence Statement and of the Simplified Declaration: the rows grouped into
 * statements by Internal Reference, every statement checked before anything is sent
 * (statementChecks.ts: references that differ only in letter case refused there), then each
 * filed exactly once (submitOnce.ts: remembered, looked up first — the run's statements by
 * their common prefixes, referenceLookups.ts —, never sent twice), SUBMIT_CONCURRENCY side by
 * side. What differs is the kind (its rules, its service), its body and its words.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { OperationModule } from '../../../../shared/descriptions/operationModule';
import { optionsCollection } from '../../../../shared/descriptions/optionsCollection';
import { submitDdsBody } from '../../../../shared/dds/requests';
import { submitSdBody } from '../../../../shared/dds/sdRequests';
import type { SdRole } from '../../../../shared/dds/simplified';
import type { OperatorRole } from '../../../../shared/dds/statement';
import type { Filing, IfAlreadyFiled } from '../../../../shared/dds/submitOnce';
import { RunLookups } from '../../../../shared/dds/referenceLookups';
import { DDS_FILING, SD_FILING, submitOnce } from '../../../../shared/dds/submitOnce';
import { submitTiming } from '../../../../shared/dds/submitTiming';
import { runItems } from '../../../../shared/runner';
import { EU_CALLS_PER_SECOND } from '../../../../shared/transport/euRateLimit';
import { readSimplify, simplify } from './fields';
import { outputAs, outputModeField, outputModeOf } from './rowsOut';
import { SD_KIND, toDeclaration } from './sdDeclaration';
import type { DeclarationKind, GroupedStatement } from './statementChecks';
import { DDS_KIND, statementBatches } from './statementChecks';
import type { DeclarationType } from './statementFields';
import { readStatementRow } from './statementFields';

const KINDS: Record<
	DeclarationType,
	{ kind: DeclarationKind; filing: Filing; bodyOf: (g: GroupedStatement) => string; Noun: string }
> = {
	dds: {
		kind: DDS_KIND,
		filing: DDS_FILING,
		bodyOf: (g) => submitDdsBody(g.role as OperatorRole, g.statement),
		Noun: 'Statement',
	},
	sd: {
		kind: SD_KIND,
		filing: SD_FILING,
		bodyOf: (g) => submitSdBody(g.role as SdRole, toDeclaration(g).declaration),
		Noun: 'Declaration',
	},
};

/**
 * Statements filed side by side: as many as the EU's calls a second, so that the limiter (not
 * each call's latency) sets the pace. Each is still looked up before it is sent, a reference
 * once per run (the pre-flight refuses references that differ only in letter case).
 */
export const SUBMIT_CONCURRENCY = EU_CALLS_PER_SECOND;

interface Prepared {
	row: ReturnType<typeof readStatementRow>;
	ifAlreadyFiled: IfAlreadyFiled;
	simplify: boolean;
}

function readIfAlreadyFiled(value: unknown): IfAlreadyFiled | undefined {
	if (value === undefined || value === null || value === '' || value === 'returnExisting')
		return 'returnExisting';
	return value === 'fail' ? 'fail' : undefined;
}

/** The choices of If Already Filed, in the words of the DDS or the SD. */
function alreadyFiledChoices(Noun: string, noun: string) {
	return [
		{
			name: `Return the Existing ${Noun}`,
			value: 'returnExisting',
			description: `Output the ${noun} filed before with this Internal Reference; send nothing`,
		},
		{
			name: 'Fail',
			value: 'fail',
			description: `Stop with an error naming the ${noun} already filed; send nothing`,
		},
	];
}

/** Submit for the DDS or the SD. */
export function submitOperation(type: DeclarationType, show: object): OperationModule {
	const { kind, filing, bodyOf, Noun } = KINDS[type];
	const noun = filing.noun;
	const description: INodeProperties[] = updateDisplayOptions(show, [
		simplify,
		optionsCollection([
			{
				displayName: 'If Already Filed',
				name: 'ifAlreadyFiled',
				type: 'options',
				options: alreadyFiledChoices(Noun, noun),
				default: 'returnExisting',
				description: `What to do when a ${noun} with the same Internal Reference is already filed and neither rejected nor withdrawn. The node looks it up before every submission, so a ${noun} is never filed twice.`,
			},
		]),
		outputModeField(type, 'the rows it was filed from'),
	]);
	const execute: OperationModule['execute'] = async function (items) {
		const mode = outputModeOf(this);
		const statements = await runItems<Prepared>(this, items, {
			prepare: (i, problems) => {
				const options = this.getNodeParameter('options', i, {}) as IDataObject;
				const ifAlreadyFiled = readIfAlreadyFiled(options.ifAlreadyFiled);
				if (ifAlreadyFiled === undefined)
					problems.field(
						'If Already Filed',
						`choose "Return the Existing ${Noun}" or "Fail" from the list.`,
					);
				return {
					row: readStatementRow(this, i, problems, 'submit'),
					ifAlreadyFiled: ifAlreadyFiled ?? 'returnExisting',
					simplify: readSimplify(this, i),
				};
			},
			// Every statement is checked (rules, size) before anything is sent, lookups included;
			// the lookups of the run's statements share searches of their common prefixes.
			plan: async (ready) => {
				let lookups: RunLookups | undefined;
				const batches = await statementBatches(this, ready, {
					kind,
					bodyOf,
					requireReference: true,
					checked: (statements) => {
						lookups = new RunLookups(
							statements.map((s) => s.internalReference),
							() => submitTiming().now(),
						);
					},
					send: async (s, first) => {
						const outputs = await submitOnce(this, {
							filing,
							internalReference: s.internalReference,
							body: s.body,
							itemIndex: s.items[0],
							ifAlreadyFiled: first.ifAlreadyFiled,
							simplify: first.simplify,
							itemsLabel: s.itemsLabel,
							lookups,
						});
						return outputs.map((json) => ({ item: s.items, json: json as IDataObject }));
					},
				});
				return batches;
			},
			// statements side by side, paced by the process-wide limit of 5 calls a second
			concurrency: SUBMIT_CONCURRENCY,
			alreadyDone: (succeeded) => {
				if (succeeded.length === 0) return undefined;
				return `${Noun}s already handled in this run (filed or found filed) for items ${succeeded
					.flatMap((b) => b.items)
					.join(
						', ',
					)}: running the workflow again does not file them twice, because the node looks up each Internal Reference before submitting.`;
			},
		});
		return await outputAs(this, mode, type, items, statements);
	};
	return { description, execute };
}
