import type { INodeProperties } from 'n8n-workflow';

import type { ResourceModule } from '../operation';

// Operations of this resource are added by their own issue; see CONTRIBUTING.md.
export const operations: ResourceModule['operations'] = {};

export const description: INodeProperties[] = [];
