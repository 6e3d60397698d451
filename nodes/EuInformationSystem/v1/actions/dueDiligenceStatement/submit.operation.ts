import { submitOperation } from '../statements/submitStatements';

const show = { show: { resource: ['dueDiligenceStatement'], operation: ['submit'] } };

export const { description, execute } = submitOperation('dds', show);
