import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { forEachItem } from '../../../../shared/helpers/items';
import { apiRequest } from '../../../../shared/transport/request';

export const description: INodeProperties[] = [];

/** Reads a number out of the balance body under any of the given keys. */
function pick(body: IDataObject, keys: string[]): number | undefined {
	for (const key of keys) {
		const value = body[key];
		if (typeof value === 'number') return value;
		if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)))
			return Number(value);
	}
	return undefined;
}

/**
 * The service answers `{"Token balance": 100, "Reserved Tokens": 22, "Free Tokens": 78}`
 * (keys with spaces); we expose `total`, `reserved` and `free` and keep the raw fields.
 */
export function normaliseBalance(raw: unknown): IDataObject {
	const body: IDataObject =
		raw && typeof raw === 'object' && !Array.isArray(raw)
			? (raw as IDataObject)
			: { value: raw as string };
	const total = pick(body, ['Token balance', 'Token Balance', 'total', 'balance', 'token_balance']);
	const reserved = pick(body, [
		'Reserved Tokens',
		'Reserved tokens',
		'reserved',
		'reserved_tokens',
	]);
	let free = pick(body, ['Free Tokens', 'Free tokens', 'free', 'free_tokens']);
	if (free === undefined && total !== undefined && reserved !== undefined) free = total - reserved;
	return { total: total ?? null, reserved: reserved ?? null, free: free ?? null, ...body };
}

export async function getTokenBalance(
	this: IExecuteFunctions | import('n8n-workflow').IPollFunctions,
) {
	return normaliseBalance(await apiRequest.call(this, 'GET', '/users/check_tokens'));
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem(this, items, async () => await getTokenBalance.call(this));
}
