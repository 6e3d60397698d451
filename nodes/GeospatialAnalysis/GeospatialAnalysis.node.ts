import type { INodeTypeBaseDescription, IVersionedNodeType } from 'n8n-workflow';
import { VersionedNodeType } from 'n8n-workflow';

import { GeospatialAnalysisV1 } from './v1/GeospatialAnalysisV1.node';

export class GeospatialAnalysis extends VersionedNodeType {
	constructor() {
		const baseDescription: INodeTypeBaseDescription = {
			displayName: 'Geospatial Analysis',
			name: 'geospatialAnalysis',
			icon: {
				light: 'file:../../icons/geospatialAnalysis.svg',
				dark: 'file:../../icons/geospatialAnalysis.dark.svg',
			},
			group: ['transform'],
			subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
			description:
				'Register plots of land and run EUDR deforestation, protected-area, Indigenous-land, climate and site analyses on them',
			defaultVersion: 1,
		};

		const nodeVersions: IVersionedNodeType['nodeVersions'] = {
			1: new GeospatialAnalysisV1(baseDescription),
		};

		super(nodeVersions, baseDescription);
	}
}
