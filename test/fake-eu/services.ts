/**
 * The SOAP services of the fake (pack README §2, §4): path under the base URL, namespace, the
 * EU schema set their bodies are validated with, BodyIdentity bound or not, and operations
 * with the SOAPActions of their WSDL bindings.
 */
import type { EuSchema } from '../helpers/euXsd';
import type { Operation } from './operations';
import { DDS_OPERATIONS } from './operations';
import { SD_OPERATIONS } from './sd';
import { VERIFY_OPERATIONS } from './verify';
import { DDS_NS, SD_NS, VERIFY_NS } from './xml';

export const DDS_PATH = 'ws/EUDRDueDiligenceStatementServiceV3';
export const SD_PATH = 'ws/EUDRSimplifiedDeclarationServiceV3';
export const VERIFY_PATH = 'ws/EUDRVerifyDeclarationServiceV3';

export type FakeService = 'dds' | 'sd' | 'verify' | 'echo';

/** A SOAP service of the fake (pack §2, §4): its path, namespace, schema set and operations. */
export interface ServiceDef {
	service: Exclude<FakeService, 'echo'>;
	path: string;
	ns: string;
	schema: EuSchema;
	/** The WSDL binds the BodyIdentity header (DDS and SD); Verify does not (pack §3.1, [W-V]). */
	bodyIdentity: boolean;
	operations: Record<string, Operation>;
}

export const SERVICES: ServiceDef[] = [
	{
		service: 'dds',
		path: DDS_PATH,
		ns: DDS_NS,
		schema: 'dds',
		bodyIdentity: true,
		operations: DDS_OPERATIONS,
	},
	{
		service: 'sd',
		path: SD_PATH,
		ns: SD_NS,
		schema: 'sd',
		bodyIdentity: true,
		operations: SD_OPERATIONS,
	},
	{
		service: 'verify',
		path: VERIFY_PATH,
		ns: VERIFY_NS,
		schema: 'verify',
		bodyIdentity: false,
		operations: VERIFY_OPERATIONS,
	},
];
