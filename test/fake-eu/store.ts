/**
 * The statements of the fake and their lifecycle (pack README §5) on a controllable clock:
 * SUBMITTED → AVAILABLE (reference + verification numbers) after `availableAfterMs`, or
 * REJECTED with a reason; amend/withdraw only AVAILABLE, within 72 h of submission, not
 * GROUPED; grouping turns the referenced AVAILABLE statements GROUPED.
 */
import { randomInt, randomUUID } from 'node:crypto';
import type { El } from './xml';
import { COMMON_NS, DDS_NS, kidText, kids, serialize, standalone } from './xml';

export const AMEND_WINDOW_MS = 72 * 3600_000;

export type StatementKind = 'dds' | 'sd';

/** A superseded version of a statement, as it was when the next version replaced it. */
export interface FakeVersion {
	version: number;
	internalReferenceNumber: string;
	xml: string;
	updatedAt: number;
}

export interface FakeStatement {
	uuid: string;
	/** Due diligence statement or simplified declaration (pack §4.1, §4.2). */
	kind: StatementKind;
	/** Operator name of the submitting user: statements are visible to that operator's users. */
	operator: string;
	submittedBy: string;
	role: string;
	internalReferenceNumber: string;
	activityType: string;
	status: string;
	referenceNumber: string | null;
	verificationNumber: string | null;
	rejectionReason: string | null;
	submittedAt: number;
	updatedAt: number;
	version: number;
	/** Reference numbers this statement groups. */
	groups: string[];
	/** The uuid of the statement that groups this one (status GROUPED), if any. */
	groupedBy: string | null;
	/** The statement element as submitted (or last amended), standalone XML. */
	xml: string;
	/** What the lifecycle decided at submission: a rejection reason or null. */
	pendingRejection: string | null;
	/** Earlier versions (SD updates keep them for getSd with a version number, pack §4.2). */
	history: FakeVersion[];
	/** The competent authority's last message (OverviewType communicationToOperator, pack §4.1). */
	communication: { date: number; content: string } | null;
}

/** CommunicationToOperatorType content is at most 1000 characters [X-COM]. */
export const MAX_COMMUNICATION_CHARS = 1000;

export class UnknownStatement extends Error {
	constructor(uuid: string) {
		super(`The fake EU has no statement ${JSON.stringify(uuid)}`);
	}
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
function randomChars(n: number): string {
	let s = '';
	for (let i = 0; i < n; i++) s += ALNUM[randomInt(ALNUM.length)];
	return s;
}

/** Shaped like the EU samples: `26BE7XTVCZAQ2S` (year, country, 10 characters) [OPREF §5.1.5]. */
export function newReferenceNumber(now: number, country: string): string {
	const yy = String(new Date(now).getUTCFullYear()).slice(2);
	return `${yy}${(country || 'BE').slice(0, 2).toUpperCase()}${randomChars(10)}`;
}

/** SD reference numbers: 14 characters starting with `S`, like `S26FRNMNBSA96Q` [OPREF §8.1.1]. */
export function newSdReferenceNumber(now: number, country: string): string {
	return `S${newReferenceNumber(now, country).slice(0, 4)}${randomChars(9)}`;
}

/** Shaped like the EU samples: `SFFCB4Y3` (8 characters) [OPREF §5.1.5]. */
export function newVerificationNumber(): string {
	return randomChars(8);
}

export class Store {
	private readonly all: FakeStatement[] = [];
	constructor(private readonly o: { availableAfterMs: number }) {}

	/** Applies the lifecycle up to `now` and returns every statement. */
	list(now: number): FakeStatement[] {
		for (const s of this.all) this.settle(s, now);
		return this.all;
	}

	private settle(s: FakeStatement, now: number): void {
		if (s.status !== 'SUBMITTED' || now < s.submittedAt + this.o.availableAfterMs) return;
		s.updatedAt = s.submittedAt + this.o.availableAfterMs;
		if (s.pendingRejection !== null) {
			s.status = 'REJECTED';
			s.rejectionReason = s.pendingRejection;
			return;
		}
		s.status = 'AVAILABLE';
		s.referenceNumber = this.referenceFor(s, now);
		s.verificationNumber = newVerificationNumber();
	}

	/** Any statement by uuid, whoever filed it (events, control API). */
	find(uuid: string, now: number): FakeStatement | undefined {
		const wanted = uuid.trim().toLowerCase();
		return this.list(now).find((s) => s.uuid === wanted);
	}

	/**
	 * A status change made by the EU side (competent authority, archiving …): any string, the
	 * enumeration's or not. The statement's date becomes `now`. REJECTED carries `reason` (or a
	 * default one); another status carries `reason` only when given. AVAILABLE gives numbers to
	 * a statement that has none yet.
	 */
	setStatus(uuid: string, status: string, now: number, reason?: string): FakeStatement {
		const s = this.find(uuid, now);
		if (!s) throw new UnknownStatement(uuid);
		if (!status) throw new Error('A status is needed');
		s.status = status;
		s.pendingRejection = null;
		// the status is the truth: a statement set to anything but GROUPED is no longer held by its group
		if (status !== 'GROUPED') s.groupedBy = null;
		s.rejectionReason =
			reason ?? (status === 'REJECTED' ? 'Rejected by the competent authority (fake EU)' : null);
		if (status === 'AVAILABLE' && s.referenceNumber === null) {
			s.referenceNumber = this.referenceFor(s, now);
			s.verificationNumber = newVerificationNumber();
		}
		s.updatedAt = now;
		return s;
	}

	/** A communication to the operator about the statement; its date (and the statement's) is `now`. */
	communicate(uuid: string, content: string, now: number): FakeStatement {
		const s = this.find(uuid, now);
		if (!s) throw new UnknownStatement(uuid);
		if (content.length > MAX_COMMUNICATION_CHARS)
			throw new Error(
				`A communication is at most ${MAX_COMMUNICATION_CHARS} characters (CommunicationToOperatorType)`,
			);
		s.communication = { date: now, content };
		s.updatedAt = now;
		return s;
	}

	private referenceFor(s: FakeStatement, now: number): string {
		return s.kind === 'sd'
			? newSdReferenceNumber(now, countryOf(s.xml))
			: newReferenceNumber(now, countryOf(s.xml));
	}

	add(s: FakeStatement): void {
		this.all.push(s);
	}

	/** A statement of this kind filed by this operator (the get/amend/withdraw operations). */
	byUuid(
		uuid: string,
		operator: string,
		now: number,
		kind: StatementKind = 'dds',
	): FakeStatement | undefined {
		return this.list(now).find(
			(s) => s.uuid === uuid.trim().toLowerCase() && s.operator === operator && s.kind === kind,
		);
	}

	/** Any operator's statement with this reference number (of this kind when given). */
	byReference(ref: string, now: number, kind?: StatementKind): FakeStatement | undefined {
		return this.list(now).find(
			(s) => s.referenceNumber === ref && (kind === undefined || s.kind === kind),
		);
	}
}

function countryOf(xml: string): string {
	return /countryOfActivity>([A-Z]{2})</.exec(xml)?.[1] ?? 'BE';
}

export function newUuid(): string {
	return randomUUID();
}

/** The statement element stored standalone, decimals padded to six places as the EU echoes them [OPREF §5.1.7]. */
export function storedStatement(statement: El, ns = DDS_NS): string {
	const copy = statement.cloneNode(true) as El;
	for (const commodity of kids(copy, ns, 'commodities'))
		for (const d of kids(commodity, ns, 'descriptors'))
			for (const m of kids(d, COMMON_NS, 'goodsMeasure'))
				for (const name of ['netWeight', 'supplementaryUnit']) {
					const el = kids(m, COMMON_NS, name)[0];
					if (!el) continue;
					const text = (el.textContent ?? '').trim();
					const [int, frac = ''] = text.split('.');
					el.textContent = `${int}.${frac.padEnd(6, '0')}`;
				}
	// put the copy in the original's place for a moment, to re-declare the namespaces in scope
	return standaloneFrom(statement, copy);
}

function standaloneFrom(original: El, copy: El): string {
	const parent = original.parentNode;
	if (!parent) return serialize(copy);
	parent.replaceChild(copy, original);
	try {
		return standalone(copy);
	} finally {
		parent.replaceChild(original, copy);
	}
}

export function groupedReferences(statement: El, ns = DDS_NS): string[] {
	return kids(statement, ns, 'groupedDeclarations').map((g) =>
		(kidText(g, COMMON_NS, 'groupedDeclaration') ?? '').trim(),
	);
}
