/** Declaration → Verify in the EU Information System node's description. */
import type { INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

import { EuInformationSystem } from '../../../../nodes/EuInformationSystem/EuInformationSystem.node';
import { VERIFY_HINT } from '../../../../nodes/EuInformationSystem/v1/actions/declaration/verify.operation';

const v1 = new EuInformationSystem().nodeVersions[1].description as INodeTypeDescription;
const shownFor = (p: INodeProperties) => p.displayOptions?.show ?? {};

describe('Declaration → Verify', () => {
	it('is a resource of its own, listed first; Due Diligence Statement stays the default', () => {
		const resource = v1.properties.find((p) => p.name === 'resource')!;
		expect((resource.options as INodePropertyOptions[]).map((o) => [o.name, o.value])).toEqual([
			['Declaration', 'declaration'],
			['Due Diligence Record', 'dueDiligenceRecord'],
			['Due Diligence Statement', 'dueDiligenceStatement'],
			['Simplified Declaration', 'simplifiedDeclaration'],
		]);
		expect(resource.default).toBe('dueDiligenceStatement');
	});

	it('offers Verify with an action, and asks for both numbers', () => {
		const selector = v1.properties.find(
			(p) => p.name === 'operation' && shownFor(p).resource?.includes('declaration'),
		)!;
		expect(selector.default).toBe('verify');
		expect((selector.options as INodePropertyOptions[]).map((o) => [o.value, o.action])).toEqual([
			['verify', 'Verify a declaration'],
		]);
		// (the tool variant's Tool Description aside: test/unit/actions/euInformationSystem/toolGate.test.ts)
		const fields = v1.properties.filter(
			(p) => shownFor(p).operation?.includes('verify') && !shownFor(p)['@tool'],
		);
		expect(fields.map((p) => [p.name, p.type, p.required ?? false])).toEqual([
			['verifyNotice', 'notice', false],
			['referenceNumber', 'string', true],
			['verificationNumber', 'string', true],
		]);
		for (const p of fields) expect(shownFor(p).resource).toEqual(['declaration']);
		expect(VERIFY_HINT).toMatch(/is an answer \(NON_EXISTENT\), not an error/);
	});
});
