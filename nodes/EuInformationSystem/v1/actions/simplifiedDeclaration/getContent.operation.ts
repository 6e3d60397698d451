import { declarationContent } from '../../../../shared/dds/sdReads';
import { contentRead } from '../statements/reads';

const show = { show: { resource: ['simplifiedDeclaration'], operation: ['getContent'] } };

export const { description, execute } = contentRead({
	show,
	noun: 'declaration',
	placeholder: 'e.g. S26FRNMNBSA96Q',
	content: declarationContent,
});
