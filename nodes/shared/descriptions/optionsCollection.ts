import type { INodeProperties } from 'n8n-workflow';

/**
 * The Options collection of an operation (every operation names it `options`, with the
 * placeholder "Add option"), holding `options`. Where it shows is set by the operation file
 * (`updateDisplayOptions`).
 */
export function optionsCollection(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options,
	};
}
