import type { AllEntities } from 'n8n-workflow';

type NodeMap = {
	plot: 'register' | 'get' | 'getMany' | 'validate' | 'exportEu';
	job: 'create' | 'getQuote' | 'get' | 'getMany' | 'waitForCompletion' | 'getResults';
	analysisRun: 'get' | 'getMany';
	protectedArea: 'check' | 'get';
	capability: 'getMany';
	account: 'getTokenBalance';
};

export type GeospatialAnalysisType = AllEntities<NodeMap>;
