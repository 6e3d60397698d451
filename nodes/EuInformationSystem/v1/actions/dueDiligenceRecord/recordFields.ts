/**
 * Due Diligence Record → Create: its fields (Shipment, Decision, Rule, where each row's plot is,
 * where Validate's, the analysis' and the statement's fields are) and the readers of the two
 * the user decides (Decision, Rule). The fields show for this resource only; the node's
 * credential is hidden for it (versionDescription.ts): it sends nothing.
 */
import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	geometrySourceFields,
	withItemGeometrySource,
} from '../../../../shared/descriptions/geometrySourceFields';
import { noticeField } from '../../../../shared/descriptions/noticeField';
import { optionsCollection } from '../../../../shared/descriptions/optionsCollection';
import type { Reading } from '../../../../shared/input';
import { readText } from '../../../../shared/input';
import type { RiskDecision } from '../../../../shared/record/dueDiligenceRecord';

export const RECORD_AREA_FIELD = 'Area of Points (Hectares)';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['dueDiligenceRecord'], operation: ['create'] } },
	[
		noticeField(
			'recordNotice',
			'Makes one record per shipment from the input rows (JSON, and an HTML page with a map): nothing is sent, no credential, no tokens',
		),
		{
			displayName: 'Shipment',
			name: 'shipment',
			type: 'string',
			default: '',
			placeholder: '{{ $json.dds_internal_reference }}',
			description:
				'Items with the same value make one record, e.g. the internal reference of the statement. Empty: all input items make one record.',
		},
		{
			displayName: 'Decision',
			name: 'riskDecision',
			type: 'options',
			options: [
				{
					name: 'Not Stated',
					value: 'notStated',
					description: 'The record says that the workflow gave no decision',
				},
				{
					name: 'Negligible Risk',
					value: 'negligible',
					description: 'The risk was found negligible: the statement may be filed',
				},
				{
					name: 'Needs Mitigation',
					value: 'needsMitigation',
					description: 'The risk is not negligible: mitigate it before filing anything',
				},
			],
			default: 'notStated',
			description:
				'Your risk decision for the shipment, as the record keeps it. An expression may give "negligible" or "needs mitigation", e.g. from the IF node that decided. Every item of a shipment must give the same.',
		},
		{
			displayName: 'Rule',
			name: 'riskRule',
			type: 'string',
			default: '',
			typeOptions: { rows: 2 },
			placeholder:
				'Negligible when every plot is valid, risk level Low, deforestation-free, with no protected-area or Indigenous-land overlap',
			description:
				'The rule that made the decision, in your words (kept in the record as written). Every item of a shipment must give the same.',
		},
		...geometrySourceFields().map((p) =>
			p.name === 'geometrySource' && p.type === 'options'
				? {
						...withItemGeometrySource(p),
						description:
							"Where each row's plot is: the record keeps it as filed, in the EU Information System's GeoJSON",
					}
				: p,
		),
		{
			displayName: 'Producer Country',
			name: 'producerCountry',
			type: 'string',
			default: '={{ $json.country }}',
			description:
				"Country of production of the row's plot (a name or an ISO code), written as ProducerCountry. Features that carry a ProducerCountry already (from Plot → Export) keep theirs.",
		},
		{
			displayName: 'Producer Name',
			name: 'producerName',
			type: 'string',
			default: '',
			description: 'Name of the producer of the plot, kept in the record',
		},
		{
			displayName: RECORD_AREA_FIELD,
			name: 'pointArea',
			type: 'string',
			default: '',
			description:
				"Area of a plot given as a point, in hectares (up to 4). When empty, the point's own point_ha, Area or area_ha property.",
		},
		optionsCollection([
			{
				displayName: 'Analysis Data',
				name: 'analysisData',
				type: 'json',
				default: '',
				description:
					"Where the plot's analysis fields are (risk_level, deforestation_free, …, as Job → Wait for Completion outputs them). Empty: the input item itself; or an expression giving an object, such as the paired row of another node.",
				placeholder: "{{ $('Wait for Results').item.json }}",
			},
			{
				displayName: 'File Name',
				name: 'fileName',
				type: 'string',
				default: '',
				placeholder: 'record',
				description:
					'Name of the files, without extension. Empty: "record", or "record-" and the shipment.',
			},
			{
				displayName: 'HTML Media Type',
				name: 'htmlMimeType',
				type: 'options',
				options: [
					{
						name: 'Text (N8n Shows the Page)',
						value: 'text/plain',
						description:
							'The binary viewer of n8n offers View only for the media types on its list, which has no text/html',
					},
					{
						name: 'HTML',
						value: 'text/html',
						description:
							'For a storage that serves the page to browsers as a web page; n8n offers it for download only',
					},
				],
				default: 'text/plain',
			},
			{
				displayName: 'Put HTML Page in Field',
				name: 'htmlField',
				type: 'string',
				default: 'html',
				description: 'The name of the output binary field to put the HTML page in',
			},
			{
				displayName: 'Put JSON in Field',
				name: 'jsonField',
				type: 'string',
				default: 'json',
				description: 'The name of the output binary field to put the record as JSON in',
			},
			{
				displayName: 'Statement Data',
				name: 'statementData',
				type: 'json',
				default: '',
				description:
					"Where the statement's fields are (dds_uuid, dds_status, …, as Submit and Get put them on input rows, or a statement item of this node). Empty: the input item itself; or an expression giving an object, such as the paired row of another node.",
				placeholder: "{{ $('Get Statement').item.json }}",
			},
			{
				displayName: 'Validation Data',
				name: 'validationData',
				type: 'json',
				default: '',
				description:
					"Where Plot → Validate's fields are (valid, problem_count, problem_summary, validation). Empty: the input item itself; or an expression giving an object, such as the paired row of another node.",
				placeholder: "{{ $('Validate Plots').item.json }}",
			},
		]),
	],
);

/** Decision as set or as an expression gave it: negligible, needs mitigation, or not stated (null). */
export function readDecision(value: unknown): Reading<RiskDecision | null> {
	const read = readText(value);
	if (read.kind === 'missing') return { kind: 'value', value: null };
	if (read.kind === 'invalid') return read;
	const v = read.value.toLowerCase().replace(/[\s_-]+/g, ' ');
	if (v === 'notstated' || v === 'not stated') return { kind: 'value', value: null };
	if (v === 'negligible' || v === 'negligible risk') return { kind: 'value', value: 'negligible' };
	if (['needsmitigation', 'needs mitigation', 'mitigation', 'not negligible'].includes(v))
		return { kind: 'value', value: 'needs mitigation' };
	return {
		kind: 'invalid',
		reason: `"${read.value}" is not a decision. Choose Negligible Risk or Needs Mitigation, or give "negligible" or "needs mitigation" from an expression.`,
	};
}
