import { readFileSync, readdirSync } from 'fs';
import { join } from 'path';

import * as input from '../../../nodes/shared/input';
import { fieldProblem } from '../../../nodes/shared/input';

describe('fieldProblem', () => {
	it('names the item and the field before the reason', () => {
		expect(fieldProblem(3, 'Plot IDs', 'no plot id was given. Map the plot_id.')).toBe(
			'Item 3, field "Plot IDs": no plot id was given. Map the plot_id.',
		);
		expect(fieldProblem(0, 'Harvest Date', 'x')).toBe('Item 0, field "Harvest Date": x');
	});
});

describe('the input layer', () => {
	it('exports exactly its public API from index.ts', () => {
		expect(Object.keys(input).sort()).toEqual(
			[
				'COMMODITIES',
				'COMMODITY_OPTIONS',
				'DATE_ORDERS',
				'DATE_ORDER_OPTIONS',
				'MAX_JSON_DEPTH',
				'commodityName',
				'copyOwn',
				'countryCodeProblem',
				'fieldProblem',
				'idPath',
				'missingIdReason',
				'pathDeeperThan',
				'readCommodity',
				'readCountry',
				'readDate',
				'readDateOrder',
				'readHectares',
				'readId',
				'readIdList',
				'readJsonObject',
				'readKeyValuePairs',
				'readLooseNumber',
				'readNumber',
				'readText',
				'readTimestamp',
				'readXmlText',
				'setOwn',
				'showPath',
				'tooDeepReason',
				'xmlTextProblem',
			].sort(),
		);
	});

	it('imports nothing from n8n', () => {
		const dir = join(__dirname, '../../../nodes/shared/input');
		for (const file of readdirSync(dir)) {
			const source = readFileSync(join(dir, file), 'utf8');
			expect({ file, n8n: /from ['"]n8n-/.test(source) }).toEqual({ file, n8n: false });
			expect({ file, outside: /from ['"]\.\.\//.test(source) }).toEqual({
				file,
				outside: false,
			});
		}
	});
});
