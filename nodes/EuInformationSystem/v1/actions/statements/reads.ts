/**
 * The reads the Due Diligence Statement and the Simplified Declaration resources share, each
 * made for a resource from what differs (the lookup, the words): Get by UUIDs (every item's
 * UUIDs asked once, ≤ 100 per call), Get by Internal Reference, Get Content (by reference and
 * verification number). The operation files export what these return.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { OperationModule } from '../../../../shared/descriptions/operationModule';
import { optionsCollection } from '../../../../shared/descriptions/optionsCollection';
import type { SkippedOverviews } from '../../../../shared/dds/answers';
import { skippedOverviews } from '../../../../shared/dds/answers';
import type { StatementOverview } from '../../../../shared/dds/statement';
import { activeStatements, exactReferenceMatches } from '../../../../shared/dds/statementOutput';
import { readXmlText } from '../../../../shared/input';
import type { Batch, BatchOutput, Ready } from '../../../../shared/runner';
import { runItems } from '../../../../shared/runner';
import type { ServiceContext } from '../../../../shared/transport/serviceContext';
import { overviewJson, readSimplify, simplify } from './fields';
import type { RowPrefix } from './rowsOut';
import { outputAs, outputModeField, outputModeOf } from './rowsOut';

type Execute = OperationModule['execute'];
type Show = { show: { resource: string[]; operation: string[] } };

/** What Get asks for: a UUID, and (SD) a version. */
export interface Wanted {
	uuid: string;
	version?: number;
}

/**
 * What a read says when the EU listed statements whose UUID is not a UUID: they are left out
 * (nothing of them is output), counted, the first reasons shown.
 */
export function skippedNote(skipped: SkippedOverviews, nouns: string): string | undefined {
	if (skipped.count === 0) return undefined;
	const one = skipped.count === 1;
	return `The EU Information System's answer listed ${skipped.count} ${one ? nouns.replace(/s$/, '') : nouns} without a valid UUID; ${one ? 'it was' : 'they were'} left out (${skipped.reasons.join('; ')}). Check ${one ? 'it' : 'them'} in TRACES.`;
}

/** The note of skipped statements as a warning in the node's output pane. */
function warnSkipped(ctx: ThisParameterType<Execute>, skipped: SkippedOverviews, nouns: string) {
	const message = skippedNote(skipped, nouns);
	if (message !== undefined)
		ctx.addExecutionHints({ message, type: 'warning', location: 'outputPane' });
}

/**
 * Get's batches: the UUIDs (and versions) of all items, each asked once, at most `max` per
 * call; one output per overview found, an error for each item whose UUID was not found.
 */
export function uuidBatches<P extends { wanted: Wanted[]; simplify: boolean }>(
	ctx: ThisParameterType<Execute>,
	ready: Array<Ready<P>>,
	o: {
		max: number;
		fetch: (
			chunk: Wanted[],
			itemIndex: number,
			skipped: SkippedOverviews,
		) => Promise<StatementOverview[]>;
		/** "statement" / "declaration". */
		noun: string;
		/** The label of the UUID field, in the hint. */
		label: string;
		/** Whether the simplified output keeps the version (the SD's). */
		version?: boolean;
	},
): Batch[] {
	// The EU's UUIDs are case-insensitive: asked and answered are compared in lower case.
	const lower = (uuid: string) => uuid.toLowerCase();
	const key = (w: Wanted) =>
		w.version === undefined ? lower(w.uuid) : `${lower(w.uuid)}#${w.version}`;
	const askedBy = new Map<string, { wanted: Wanted; items: number[] }>();
	const simplifyOf = new Map(ready.map((r) => [r.itemIndex, r.value.simplify]));
	for (const { itemIndex, value } of ready)
		for (const wanted of value.wanted) {
			const asking = askedBy.get(key(wanted)) ?? { wanted, items: [] };
			if (!asking.items.includes(itemIndex)) asking.items.push(itemIndex);
			askedBy.set(key(wanted), asking);
		}
	const all = [...askedBy.values()];
	const batches: Batch[] = [];
	for (let at = 0; at < all.length; at += o.max) {
		const chunk = all.slice(at, at + o.max);
		const chunkItems = [...new Set(chunk.flatMap((c) => c.items))].sort((a, b) => a - b);
		batches.push({
			items: chunkItems,
			send: async () => {
				const skipped = skippedOverviews();
				const found = await o.fetch(
					chunk.map((c) => c.wanted),
					chunkItems[0],
					skipped,
				);
				warnSkipped(ctx, skipped, `${o.noun}s`);
				const also = skippedNote(skipped, `${o.noun}s`);
				const outputs: BatchOutput[] = [];
				for (const { wanted, items: asking } of chunk) {
					const overviews = found.filter(
						(f) =>
							lower(f.uuid) === lower(wanted.uuid) &&
							(wanted.version === undefined ||
								f.version === null ||
								f.version === String(wanted.version)),
					);
					if (overviews.length === 0) {
						const which = wanted.version === undefined ? '' : ` in version ${wanted.version}`;
						for (const item of asking)
							outputs.push({
								item,
								error: new NodeOperationError(
									ctx.getNode(),
									`No ${o.noun} with UUID ${wanted.uuid}${which} is visible to this account in the EU Information System`,
									{
										itemIndex: item,
										description: `Check the ${o.label} (the uuid Submit output)${wanted.version === undefined ? '' : ' and the version'} and that the credential is the one of the operator that filed it.${also ? ` ${also}` : ''}`,
									},
								),
							});
						continue;
					}
					for (const f of overviews)
						outputs.push({
							item: asking.length === 1 ? asking[0] : asking,
							json: overviewJson(f, simplifyOf.get(asking[0]) ?? true, o.version),
						});
				}
				return outputs;
			},
		});
	}
	return batches;
}

/**
 * The statements a row's Internal Reference names (Output "Input Rows with Statement Fields"):
 * those with exactly this reference (the EU's search matches substrings, in any case); of
 * several, those that still stand (neither rejected nor withdrawn), when any.
 */
export function rowStatements(
	found: readonly StatementOverview[],
	reference: string,
): StatementOverview[] {
	const exact = exactReferenceMatches(found, reference);
	if (exact.length <= 1) return exact;
	const standing = activeStatements(exact);
	return standing.length > 0 ? standing : exact;
}

/** Get by Internal Reference for a resource: its field, Simplify, Exact Match Only, Output. */
export function internalReferenceRead(o: {
	show: Show;
	/** "statements" / "declarations". */
	nouns: string;
	lookup: (
		ctx: ServiceContext,
		reference: string,
		itemIndex: number,
		skipped: SkippedOverviews,
	) => Promise<StatementOverview[]>;
	/** Whether the simplified output keeps the version (the SD's). */
	version?: boolean;
	/** The prefix of the statement's fields on a row (Output "Input Rows with Statement Fields"). */
	prefix: RowPrefix;
}): OperationModule {
	const description: INodeProperties[] = updateDisplayOptions(o.show, [
		{
			displayName: 'Internal Reference',
			name: 'internalReference',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. PO-2026-0042',
			description: `The Internal Reference the ${o.nouns} were filed with. The EU Information System finds every ${o.nouns.replace(/s$/, '')} whose Internal Reference CONTAINS this text, in any case (3 to 50 characters); one item is output per ${o.nouns.replace(/s$/, '')}.`,
		},
		simplify,
		optionsCollection([
			{
				displayName: 'Exact Match Only',
				name: 'exactOnly',
				type: 'boolean',
				default: false,
				description: `Whether to output only the ${o.nouns} whose Internal Reference is exactly this text (same case), not every ${o.nouns.replace(/s$/, '')} that contains it`,
			},
		]),
		outputModeField(o.prefix, 'the items that asked for it'),
	]);
	const execute: Execute = async function (items) {
		const mode = outputModeOf(this);
		// each reference looked up once per run, whichever items name it
		const lookups = new Map<string, Promise<StatementOverview[]>>();
		const lookup = async (reference: string, i: number) => {
			const skipped = skippedOverviews();
			const found = await o.lookup(this, reference, i, skipped);
			warnSkipped(this, skipped, o.nouns);
			return found;
		};
		const output = await runItems(this, items, {
			prepare: (i, problems) => {
				const reference = problems.take(
					'Internal Reference',
					readXmlText(this.getNodeParameter('internalReference', i, '')),
					'no Internal Reference was given. Enter it, or map it, e.g. {{ $json.internalReference }}.',
				);
				if (reference !== undefined && (reference.length < 3 || reference.length > 50))
					problems.field(
						'Internal Reference',
						`"${reference}" has ${reference.length} characters; the EU Information System searches with 3 to 50.`,
					);
				const options = this.getNodeParameter('options', i, {}) as IDataObject;
				return {
					reference: reference ?? '',
					exactOnly: options.exactOnly === true,
					simplify: readSimplify(this, i),
				};
			},
			run: async (i, { reference, exactOnly, simplify: simplified }) => {
				const asked = lookups.get(reference) ?? lookup(reference, i);
				lookups.set(reference, asked);
				const found = await asked;
				const kept =
					mode === 'inputRows'
						? rowStatements(found, reference)
						: exactOnly
							? exactReferenceMatches(found, reference)
							: found;
				return kept.map((f) => overviewJson(f, simplified, o.version));
			},
		});
		return await outputAs(this, mode, o.prefix, items, output);
	};
	return { description, execute };
}

/** Get Content for a resource: Reference Number and Verification Number. */
export function contentRead(o: {
	show: Show;
	/** "statement" / "declaration". */
	noun: string;
	placeholder: string;
	content: (
		ctx: ServiceContext,
		referenceNumber: string,
		verificationNumber: string,
		itemIndex: number,
	) => Promise<Record<string, unknown>>;
}): OperationModule {
	const description: INodeProperties[] = updateDisplayOptions(o.show, [
		{
			displayName: 'Reference Number',
			name: 'referenceNumber',
			type: 'string',
			required: true,
			default: '',
			placeholder: o.placeholder,
			description: `The reference number of the ${o.noun} (shown once it is AVAILABLE)`,
		},
		{
			displayName: 'Verification Number',
			name: 'verificationNumber',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. K7R8LA90',
			description: 'The verification number that goes with the reference number',
		},
	]);
	const execute: Execute = async function (items) {
		return await runItems(this, items, {
			prepare: (i, problems) => ({
				referenceNumber:
					problems.take(
						'Reference Number',
						readXmlText(this.getNodeParameter('referenceNumber', i, '')),
						'no reference number was given. Map the referenceNumber Get output, e.g. {{ $json.referenceNumber }}.',
					) ?? '',
				verificationNumber:
					problems.take(
						'Verification Number',
						readXmlText(this.getNodeParameter('verificationNumber', i, '')),
						'no verification number was given. Map the verificationNumber Get output, e.g. {{ $json.verificationNumber }}.',
					) ?? '',
			}),
			run: async (i, { referenceNumber, verificationNumber }) => {
				const content = await o.content(this, referenceNumber, verificationNumber, i);
				return { referenceNumber, verificationNumber, ...content } as IDataObject;
			},
		});
	};
	return { description, execute };
}
