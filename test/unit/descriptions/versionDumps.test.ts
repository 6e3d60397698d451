/**
 * Saved workflows store only the parameters that differ from their defaults, so a saved
 * version-1 or version-2 node means what it meant only while its version's description is
 * unchanged. The descriptions of versions 1 and 2 as built are kept in
 * test/fixtures/descriptions/version<N>.json, and must stay byte-identical: a new default,
 * field place or option belongs in a new version (v3/actions/versionDescription.ts).
 *
 * A change that may be made without a version (a label, a description, a placeholder: n8n
 * stores none of them) is written back with
 *   UPDATE_DESCRIPTION_DUMPS=1 npx jest test/unit/descriptions/versionDumps.test.ts
 * and the diff of the fixture reviewed in the commit: it shows only such texts.
 */
import { readFileSync, writeFileSync } from 'fs';
import { join } from 'path';

import { GeospatialAnalysis } from '../../../nodes/GeospatialAnalysis/GeospatialAnalysis.node';

const node = new GeospatialAnalysis();
const fixture = (version: number) =>
	join(__dirname, '../../fixtures/descriptions', `version${version}.json`);

describe('the built descriptions of saved versions stay as they are', () => {
	it.each([1, 2])('version %i is byte-identical to its dump', (version) => {
		const built = `${JSON.stringify(node.nodeVersions[version].description, null, '\t')}\n`;
		if (process.env.UPDATE_DESCRIPTION_DUMPS === '1') writeFileSync(fixture(version), built);
		expect(built).toBe(readFileSync(fixture(version), 'utf8'));
	});
});
