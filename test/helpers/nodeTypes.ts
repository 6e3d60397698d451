/** n8n's node-type registry for unit tests that build a Workflow (subtitles, expressions): the given types by name. */
import type { INodeType, INodeTypes, IVersionedNodeType } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

export class NodeTypesOf implements INodeTypes {
	constructor(private readonly types: Record<string, INodeType | IVersionedNodeType>) {}

	getByName(name: string) {
		return this.types[name];
	}

	getByNameAndVersion(name: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.types[name], version);
	}

	getKnownTypes() {
		return {};
	}
}
