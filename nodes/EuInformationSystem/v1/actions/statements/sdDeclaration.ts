/**
 * The rows of the Simplified Declaration's Submit and Update, grouped as the DDS's are
 * (groupStatements.ts), made into a SimplifiedDeclaration: each producer located in exactly one
 * way (the geolocation of its plots, its postal addresses or its cadastral identifiers, as its
 * rows gave them), the commodity without species; and the kind the pre-flight checks it as
 * (sdRules.ts, sent to the SD service).
 */
import type { StatementProblem } from '../../../../shared/dds/rules';
import { declarationProblems } from '../../../../shared/dds/sdRules';
import type {
	SdProducer,
	SdProducerLocation,
	SdRole,
	SimplifiedDeclaration,
} from '../../../../shared/dds/simplified';
import type { GroupedProducer, GroupedRows } from './groupStatements';
import type { DeclarationKind } from './statementChecks';

function location(p: GroupedProducer): { location: SdProducerLocation; ways: string[] } {
	const ways: string[] = [];
	if (p.geometryGeojson !== '') ways.push('geolocation');
	if (p.postalAddress?.length) ways.push('postal address');
	if (p.cadastralIdentifier?.length) ways.push('cadastral identifier');
	if (p.geometryGeojson !== '' || (!p.postalAddress && !p.cadastralIdentifier))
		return { location: { geometryGeojson: p.geometryGeojson }, ways };
	if (p.postalAddress?.length) return { location: { postalAddress: p.postalAddress }, ways };
	return { location: { cadastralIdentifier: p.cadastralIdentifier ?? [] }, ways };
}

/** The declaration the rows make, and why a producer cannot be written as the SD has it. */
export function toDeclaration(group: GroupedRows): {
	declaration: SimplifiedDeclaration;
	problems: StatementProblem[];
} {
	const problems: StatementProblem[] = [];
	const { commodities, ...head } = group.statement;
	const declaration: SimplifiedDeclaration = {
		...head,
		internalReferenceNumber: group.internalReference,
		commodities: commodities.map((c, i) => ({
			...(c.commodity ? { commodity: c.commodity } : {}),
			...(c.position !== undefined ? { position: c.position } : {}),
			descriptors: c.descriptors,
			hsHeading: c.hsHeading,
			producers: (c.producers ?? []).map((p, k): SdProducer => {
				const { location: producerLocation, ways } = location(p);
				if (ways.length > 1)
					problems.push({
						field: `Commodity ${i + 1} › Producer ${k + 1} › Location`,
						message: `its rows locate the producer ${p.name ? `"${p.name}" ` : ''}by ${ways.join(' and by ')}; a producer of a simplified declaration is located in one way only. Give the rows of each way another Producer Name, or use one way for all of them.`,
					});
				return {
					producerCountry: p.country,
					...(p.name ? { producerName: p.name } : {}),
					producerLocation,
				};
			}),
		})),
	};
	return { declaration, problems };
}

/** The SD as the pre-flight checks it: the rows made into a declaration, then its rules. */
export const SD_KIND: DeclarationKind = {
	service: 'sd',
	noun: 'Declaration',
	problems: (group) => {
		const { declaration, problems } = toDeclaration(group);
		return [...problems, ...declarationProblems(declaration, group.role as SdRole)];
	},
};
