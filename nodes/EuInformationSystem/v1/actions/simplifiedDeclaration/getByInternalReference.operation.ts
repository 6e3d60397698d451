import { declarationsByInternalReference } from '../../../../shared/dds/sdReads';
import { internalReferenceRead } from '../statements/reads';

const show = {
	show: { resource: ['simplifiedDeclaration'], operation: ['getByInternalReference'] },
};

export const { description, execute } = internalReferenceRead({
	show,
	nouns: 'declarations',
	prefix: 'sd',
	lookup: declarationsByInternalReference,
	version: true,
});
