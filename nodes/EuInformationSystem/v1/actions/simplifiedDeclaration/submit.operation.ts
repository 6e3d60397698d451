import { submitOperation } from '../statements/submitStatements';

const show = { show: { resource: ['simplifiedDeclaration'], operation: ['submit'] } };

export const { description, execute } = submitOperation('sd', show);
