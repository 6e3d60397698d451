/**
 * The EU Information System's own XSDs (release 8.2.1, `test/fixtures/eu-information-system/
 * wsdl/`, byte-for-byte as the EU serves them) as the judge of every SOAP body we or the fake
 * write. libxml2's xmllint compiled to WebAssembly (`xmllint-wasm`, a dev dependency): no
 * system package, so `npm install && npm test` works on a clean clone.
 *
 * The EU schemas import each other through `https://acceptance…?xsd=N` URLs. The pack's
 * `catalog.xml` maps each URL to its local file; xmllint-wasm has no catalog support, so every
 * schema is loaded into its in-memory file system under a flat name and its `schemaLocation`s
 * are rewritten to those names through the same catalog (the only change made to the EU text).
 *
 * What can be validated (pack README §8): a request or response BODY element (the operation
 * element, carrying its own `xmlns` declarations) against its service's schema, and the SOAP
 * headers `WebServiceClientId` and `BodyIdentity` against a wrapper that imports the base and
 * body schemas. The SOAP 1.1 envelope and WS-Security schemas are in no source.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { XMLFileInfo } from 'xmllint-wasm';
import { validateXML } from 'xmllint-wasm';

export const EU_WSDL_DIR = join(__dirname, '..', 'fixtures', 'eu-information-system', 'wsdl');

/** Which schema set to validate against. */
export type EuSchema = 'dds' | 'sd' | 'verify' | 'headers';

export interface EuValidation {
	valid: boolean;
	/** xmllint's messages ("file.xml:3: element hsHeading: Schemas validity error: …"). */
	errors: string[];
}

/** The catalog's `system` entries: URL → path relative to the wsdl folder. */
function catalogEntries(): Map<string, string> {
	const text = readFileSync(join(EU_WSDL_DIR, 'catalog.xml'), 'utf8');
	const out = new Map<string, string>();
	for (const m of text.matchAll(/<system\s+systemId="([^"]+)"\s+uri="([^"]+)"\s*\/>/g))
		out.set(m[1].replace(/&amp;/g, '&'), m[2]);
	return out;
}

const flatName = (relative: string) => relative.replace(/[^A-Za-z0-9.-]/g, '_');

let preloaded: XMLFileInfo[] | undefined;

/** Every schema file the catalog names, under its flat name, imports pointing at flat names. */
function schemaFiles(): XMLFileInfo[] {
	if (preloaded) return preloaded;
	const catalog = catalogEntries();
	const files = new Set<string>([...catalog.values()].filter((p) => p.endsWith('.xsd')));
	for (const entry of ENTRY_SCHEMAS) files.add(entry);
	preloaded = [...files].map((relative) => {
		const text = readFileSync(join(EU_WSDL_DIR, relative), 'utf8').replace(
			/schemaLocation="([^"]+)"/g,
			(_whole, url: string) => {
				const local = catalog.get(url.replace(/&amp;/g, '&'));
				if (!local)
					throw new Error(`euXsd: ${relative} imports ${url}, which catalog.xml does not map`);
				return `schemaLocation="${flatName(local)}"`;
			},
		);
		return { fileName: flatName(relative), contents: text };
	});
	preloaded.push({ fileName: 'headers-wrapper.xsd', contents: headersWrapper() });
	return preloaded;
}

const ENTRY_SCHEMAS = [
	'EUDRDueDiligenceStatementServiceV3/xsd4-due-diligence-statement-v3.xsd',
	'EUDRSimplifiedDeclarationServiceV3/xsd4-simplified-declaration-v3.xsd',
	'EUDRVerifyDeclarationServiceV3/xsd3-verify-declaration-v3.xsd',
	'EUDRDueDiligenceStatementServiceV3/xsd1-base-v4.xsd',
	'EUDRSimplifiedDeclarationServiceV3/xsd2-body-v3.xsd',
];

/** A throw-away schema holding only the imports the DDS WSDL embeds for its headers. */
function headersWrapper(): string {
	return `<?xml version="1.0" encoding="UTF-8"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:geospatial-analysis:test:headers">
	<xs:import namespace="http://ec.europa.eu/sanco/tracesnt/base/v4" schemaLocation="${flatName(ENTRY_SCHEMAS[3])}"/>
	<xs:import namespace="http://ec.europa.eu/tracesnt/body/v3" schemaLocation="${flatName(ENTRY_SCHEMAS[4])}"/>
</xs:schema>`;
}

const ENTRY: Record<EuSchema, string> = {
	dds: flatName(ENTRY_SCHEMAS[0]),
	sd: flatName(ENTRY_SCHEMAS[1]),
	verify: flatName(ENTRY_SCHEMAS[2]),
	headers: 'headers-wrapper.xsd',
};

/** The validation under way in this process (validateEuXml runs them one after the other). */
let previous: Promise<unknown> = Promise.resolve();

/**
 * Validates one XML document (a SOAP body element with its own namespace declarations, or a
 * header element for `headers`) against the EU's schema set. One validation at a time in this
 * process: xmllint-wasm starts a worker thread with its own WebAssembly instance for each call,
 * and since Submit files five statements side by side (issue 36) the fake validated up to five
 * at once; a jest worker then died once with SIGSEGV (one full run in three), the kind of crash
 * V8 has shown with WebAssembly in several threads of one process. In a row, the fake's answers
 * wait for each other; nothing a test asserts depends on their timing.
 */
export async function validateEuXml(xml: string, schema: EuSchema): Promise<EuValidation> {
	const run = previous.then(
		async () => await validateOnce(xml, schema),
		async () => await validateOnce(xml, schema),
	);
	previous = run.catch(() => undefined);
	return await run;
}

async function validateOnce(xml: string, schema: EuSchema): Promise<EuValidation> {
	const files = schemaFiles();
	const entry = files.find((f) => f.fileName === ENTRY[schema]);
	if (!entry) throw new Error(`euXsd: no schema ${ENTRY[schema]}`);
	const result = await validateXML({
		xml: { fileName: 'body.xml', contents: xml },
		schema: entry,
		preload: files.filter((f) => f !== entry),
		// a 25 MB statement needs more than the default 16 MB of WebAssembly memory
		initialMemoryPages: 256,
		maxMemoryPages: 32768,
	});
	return { valid: result.valid, errors: result.errors.map((e) => e.rawMessage.trim()) };
}
