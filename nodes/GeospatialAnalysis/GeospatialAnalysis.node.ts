import type { INodeTypeBaseDescription, IVersionedNodeType } from 'n8n-workflow';
import { VersionedNodeType } from 'n8n-workflow';

import { GeospatialAnalysisV1 } from './v1/GeospatialAnalysisV1.node';

export class GeospatialAnalysis extends VersionedNodeType {
	constructor() {
		const v1 = new GeospatialAnalysisV1();
		// The node's name, icon and texts are those of its default version.
		const { displayName, name, icon, group, subtitle, description } = v1.description;
		const baseDescription: INodeTypeBaseDescription = {
			displayName,
			name,
			icon,
			group,
			subtitle,
			description,
			defaultVersion: 1,
		};

		const nodeVersions: IVersionedNodeType['nodeVersions'] = {
			1: v1,
		};

		super(nodeVersions, baseDescription);
	}
}
