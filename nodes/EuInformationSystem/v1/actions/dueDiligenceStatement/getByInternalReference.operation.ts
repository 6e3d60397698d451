import { statementsByInternalReference } from '../../../../shared/dds/euReads';
import { internalReferenceRead } from '../statements/reads';

const show = {
	show: { resource: ['dueDiligenceStatement'], operation: ['getByInternalReference'] },
};

export const { description, execute } = internalReferenceRead({
	show,
	nouns: 'statements',
	prefix: 'dds',
	lookup: statementsByInternalReference,
});
