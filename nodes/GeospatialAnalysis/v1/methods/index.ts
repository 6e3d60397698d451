import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

export const loadOptions: Record<string, (this: ILoadOptionsFunctions) => Promise<INodePropertyOptions[]>> = {};
