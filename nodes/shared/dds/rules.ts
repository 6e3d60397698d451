/**
 * Pre-flight rules for a due-diligence statement (issue 29): first public API, checks to follow.
 */
import type { ActivityType, OperatorRole, Statement, StatementOverview } from './statement';

export interface StatementProblem {
	/** The field in the user's terms, e.g. 'Commodity 1 › Net Weight (kg)'. */
	field: string;
	/** What to change. */
	message: string;
}

const MAX_INTERNAL_REFERENCE = 35;
const MAX_COMMODITIES = 100;

export function statementProblems(statement: Statement, role: OperatorRole): StatementProblem[] {
	const problems: StatementProblem[] = [];
	const ref = statement.internalReferenceNumber;
	if (ref !== undefined && ref.length > MAX_INTERNAL_REFERENCE) {
		problems.push({
			field: 'Internal Reference',
			message: `Shorten it to at most ${MAX_INTERNAL_REFERENCE} characters (it has ${ref.length})`,
		});
	}
	if (statement.commodities.length === 0) {
		problems.push({ field: 'Commodities', message: 'Add at least one commodity' });
	} else if (statement.commodities.length > MAX_COMMODITIES) {
		problems.push({
			field: 'Commodities',
			message: `Split the statement: at most ${MAX_COMMODITIES} commodities (it has ${statement.commodities.length})`,
		});
	}
	if (role === 'REPRESENTATIVE_OPERATOR' && !statement.representedOperator) {
		problems.push({ field: 'Represented Operator', message: 'Fill in the operator you represent' });
	}
	statement.commodities.forEach((c, i) => {
		const p = hsHeadingProblem(c.hsHeading);
		if (p) problems.push({ field: `Commodity ${i + 1} › HS Heading`, message: p });
	});
	return problems;
}

export function hsHeadingProblem(hsHeading: string, _commodity?: string): string | undefined {
	if (!/^[0-9]{2,6}$/.test(hsHeading)) return 'Enter 2 to 6 digits (an HS heading of EUDR Annex I)';
	return undefined;
}

export function changeRefusal(o: {
	action: 'amend' | 'withdraw';
	overview: StatementOverview;
	now: Date;
	newActivityType?: ActivityType;
}): string | undefined {
	if (o.overview.status === 'GROUPED')
		return `This statement is grouped into another and cannot be ${o.action === 'amend' ? 'amended' : 'withdrawn'}`;
	if (o.overview.status !== 'AVAILABLE')
		return `Only an AVAILABLE statement can be changed; this one is ${o.overview.status}`;
	const submitted = o.overview.date === null ? NaN : Date.parse(o.overview.date);
	if (!Number.isNaN(submitted) && o.now.getTime() - submitted > 72 * 3600 * 1000) {
		return `The statement was submitted on ${o.overview.date}; it can be ${o.action === 'amend' ? 'amended' : 'withdrawn'} only within 72 hours of submission`;
	}
	return undefined;
}
