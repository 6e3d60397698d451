import type {
	INodeCredentialDescription,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { description as drawMapDescription } from '../../v1/actions/plot/drawMap.operation';
import { drawMapOption } from '../../v1/actions/plot/index';
import type { VersionDescription } from '../../v1/actions/versionDescription';
import { OPERATIONS_WITHOUT_REQUESTS } from '../../v1/actions/versionDescription';

/**
 * Plot → Draw Map, added in version 3 (a new operation: versions 1 and 2 keep the descriptions
 * their saved workflows know): its option in the Plot operation list (version 2's short
 * action; its Tool Description, shown in the tool variant only, says what it costs and
 * returns), its fields, and no credential for it (it sends nothing).
 */

/** The operations of version 3 that send no request (no credential shown for them). */
export const OPERATIONS_WITHOUT_REQUESTS_V3 = [...OPERATIONS_WITHOUT_REQUESTS, 'drawMap'];

const isPlotSelector = (p: INodeProperties) =>
	p.name === 'operation' &&
	p.type === 'options' &&
	(p.displayOptions?.show?.resource as string[] | undefined)?.[0] === 'plot';

const byName = (a: INodePropertyOptions, b: INodePropertyOptions) => a.name.localeCompare(b.name);

/** The Plot selector with Draw Map among its options (in name order, as n8n's lint wants). */
function withDrawMap(selector: INodeProperties): INodeProperties {
	const option: INodePropertyOptions = { ...drawMapOption, action: 'Draw a map of plots' };
	return {
		...selector,
		options: [...((selector.options ?? []) as INodePropertyOptions[]), option].sort(byName),
	};
}

/** The Tool Description of Draw Map (as version 2 gives every operation one). */
function toolDescription(like: INodeProperties | undefined): INodeProperties[] {
	if (!like) return [];
	return [
		{
			...like,
			default: `${drawMapOption.action} in Geospatial Analysis`,
			displayOptions: {
				show: { '@tool': [true], resource: ['plot'], operation: ['drawMap'] },
			},
		},
	];
}

/** Version 2's properties with Draw Map's option, tool description and fields after the selector. */
export function addDrawMap(properties: INodeProperties[]): INodeProperties[] {
	const like = properties.find((p) => p.name === 'toolDescription');
	return properties.flatMap((p) =>
		isPlotSelector(p) ? [withDrawMap(p), ...toolDescription(like), ...drawMapDescription] : [p],
	);
}

const hideWithoutRequests = { operation: OPERATIONS_WITHOUT_REQUESTS_V3 };

/** No credential (and no Authentication choice) for the operations that send nothing. */
export function withoutCredentialForDrawMap(v2: VersionDescription): {
	credentials: INodeCredentialDescription[];
	authentication: (p: INodeProperties) => INodeProperties;
} {
	return {
		credentials: (v2.credentials ?? []).map((c) => ({
			...c,
			displayOptions: { ...c.displayOptions, hide: hideWithoutRequests },
		})),
		authentication: (p) =>
			p.name === 'authentication' ? { ...p, displayOptions: { hide: hideWithoutRequests } } : p,
	};
}
