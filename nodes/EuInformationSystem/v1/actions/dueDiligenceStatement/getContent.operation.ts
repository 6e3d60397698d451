import { statementContent } from '../../../../shared/dds/euReads';
import { contentRead } from '../statements/reads';

const show = { show: { resource: ['dueDiligenceStatement'], operation: ['getContent'] } };

export const { description, execute } = contentRead({
	show,
	noun: 'statement',
	placeholder: 'e.g. 25NLSN6LX69730',
	content: statementContent,
});
