import type { INodeProperties } from 'n8n-workflow';

/** A notice at the top of an operation (e.g. that it sends nothing), named `name`. */
export function noticeField(name: string, text: string): INodeProperties {
	return { displayName: text, name, type: 'notice', default: '' };
}
