/**
 * Plain sentences for the EU Information System's error codes (reference pack §7: CF4–CF7 and
 * the observed fault examples): what happened and what to do. The documents spell codes with
 * underscores, the fault examples with hyphens: both are normalised before matching. A code
 * not listed here is shown with the service's own message (never dropped).
 */

/** EUDR-X-Y → EUDR_X_Y, upper case. */
export function normaliseEuCode(id: string): string {
	return id.trim().toUpperCase().replace(/-/g, '_');
}

const GEO =
	'Check the geolocation of the producer (GeoJSON: coordinates as longitude, latitude in WGS 84)';

export const EU_CODE_SENTENCES: Record<string, string> = {
	EUDR_WEBSERVICE_USER_NOT_EUDR_OPERATOR:
		'The EU Login user of the credential is not registered as an EUDR operator or trader: register the operator in the EU Information System first.',
	EUDR_WEBSERVICE_USER_FROM_MANY_OPERATOR:
		'The EU Login user of the credential belongs to several operators: use a web-service user that belongs to one operator, or set the Operator Access Identifier.',
	EUDR_WEBSERVICE_USER_ACTIVITY_NOT_ALLOWED:
		'The operator of the credential is not registered for this activity (import, export, domestic or trade): change the Activity Type or register the activity in the EU Information System.',
	EUDR_OPERATOR_EORI_FOR_ACTIVITY_MISSING:
		"An import or export needs the operator's EORI number: add it to the operator's profile in the EU Information System.",
	EUDR_BEHALF_OPERATOR_NOT_PROVIDED:
		'A representative must name the operator it files for: fill in the operator on whose behalf the statement is filed.',
	EUDR_BEHALF_OPERATOR_CITY_POSTALCODE_EMPTY_OR_INVALID:
		'The city or postal code of the operator represented is missing or not valid: correct the address.',
	EUDR_ACTIVITY_TYPE_NOT_COMPATIBLE:
		"The Activity Type does not fit the operator's role or the other fields: choose the activity the operator really carries out.",
	EUDR_ACTIVITY_TYPE_NOT_ALLOWED_FOR_NON_EU_OPERATOR:
		'An operator established outside the EU cannot file this activity: choose another Activity Type or file through an EU representative.',
	EUDR_COMMODITIES_HS_CODE_INVALID:
		'The HS heading of a commodity is not one of the EUDR Annex I headings: correct the HS code.',
	EUDR_COMMODITIES_DESCRIPTOR_NET_MASS_EMPTY:
		'A commodity has no net mass: enter the Net Weight (kg).',
	EUDR_COMMODITIES_DESCRIPTOR_QUANTITY_MISSING:
		'A commodity has neither net mass nor supplementary unit: enter the quantity.',
	EUDR_COMMODITIES_DESCRIPTOR_NUMBER_OF_UNITS_MISSING:
		'A commodity has no number of units: enter it.',
	EUDR_COMMODITIES_DESCRIPTOR_SUPPLEMENTARY_UNIT_NOT_ALLOWED:
		'A supplementary unit is given where the HS heading or activity allows none: remove it.',
	EUDR_COMMODITIES_DESCRIPTOR_SUPPLEMENTARY_UNIT_MISSING:
		'This HS heading needs a supplementary unit: enter it.',
	EUDR_COMMODITIES_DESCRIPTOR_SUPPLEMENTARY_UNIT_QUALIFIER_INVALID:
		'The supplementary unit qualifier is not a known unit: correct it.',
	EUDR_COMMODITIES_DESCRIPTOR_SUPPLEMENTARY_UNIT_QUALIFIER_NOT_COMPATIBLE:
		'The supplementary unit qualifier does not fit the HS heading: use the unit the heading requires.',
	EUDR_COMMODITIES_DESCRIPTOR_SUPPLEMENTARY_UNIT_QUALIFIER_MISSING:
		'A supplementary unit is given without its qualifier: enter the qualifier.',
	EUDR_COMMODITIES_DESCRIPTOR_PERCENTAGE_ESTIMATION_MISSING:
		'The percentage estimation or deviation of the quantity is missing: enter it.',
	EUDR_COMMODITIES_DESCRIPTOR_PERCENTAGE_ESTIMATION_NOT_ALLOWED:
		'A percentage estimation is given where none is allowed: remove it.',
	EUDR_COMMODITIES_DESCRIPTOR_PERCENTAGE_ESTIMATION_INVALID:
		'The percentage estimation is not valid (0 to 25): correct it.',
	EUDR_COMMODITITY_PRODUCER_COUNTRY_CODE_INVALID:
		"A producer's country is not a valid ISO 3166-1 alpha-2 code: correct the country code.",
	EUDR_COMMODITIES_PRODUCER_GEO_EMPTY: `A producer has no geolocation: add it. ${GEO}.`,
	EUDR_COMMODITIES_PRODUCER_GEO_INVALID: `A producer's geolocation is not valid GeoJSON: ${GEO}.`,
	EUDR_COMMODITIES_PRODUCER_GEO_LATITUDE_INVALID: `A latitude is outside -90 to 90: ${GEO}.`,
	EUDR_COMMODITIES_PRODUCER_GEO_LONGITUDE_INVALID: `A longitude is outside -180 to 180: ${GEO}.`,
	EUDR_COMMODITIES_PRODUCER_GEO_INVALID_GEOMETRY: `A geometry is invalid (for example a polygon that crosses itself): ${GEO}.`,
	EUDR_COMMODITIES_PRODUCER_GEO_POLYGON_INVALID: `A polygon is invalid (not closed, too few points or crossing itself): ${GEO}.`,
	EUDR_COMMODITIES_PRODUCER_GEO_AREA_INVALID: `A plot's area is missing or not valid: ${GEO}.`,
	EUDR_MAXIMUM_GEO_SIZE_REACHED:
		'The geolocation of the statement is larger than the EU Information System accepts: simplify the polygons or split the statement.',
	EUDR_REFERENCED_STATEMENT_NOT_FOUND:
		'A referenced statement (reference and verification number) was not found: check both numbers.',
	EUDR_MAXIMUM_REFERENCED_DDS_REACHED:
		'The statement references more statements than the EU Information System accepts: split it.',
	EUDR_COMMODITIES_SPECIES_INFORMATION_COMMON_NAME_EMPTY:
		'Wood needs the common name of the species: enter it.',
	EUDR_COMMODITIES_SPECIES_INFORMATION_SCIENTIFIC_NAME_EMPTY:
		'Wood needs the scientific name of the species: enter it.',
	EUDR_API_AMEND_ACTIVITY_TYPE_CHANGE_NOT_ALLOWED:
		'An amendment cannot change the Activity Type: withdraw the statement and file a new one instead.',
	EUDR_API_AMEND_OR_WITHDRAW_DDS_NOT_POSSIBLE:
		'The statement can no longer be amended or withdrawn (it is referenced by another statement, or the time allowed has passed).',
	EUDR_API_AMEND_NOT_ALLOWED_FOR_STATUS:
		'The statement cannot be amended in its current status: get it to see its status.',
	EUDR_API_AMEND_OR_WITHDRAW_NOT_ALLOWED_FOR_STATUS:
		'The statement cannot be amended or withdrawn in its current status: get it to see its status.',
	EUDR_API_NO_DDS: 'No statement with this identifier exists for this operator: check the UUID.',
	EUDR_NUMBER_EMPTY: 'The reference or verification number is empty: enter it.',
	EUDR_NUMBER_INVALID: 'The reference or verification number is not valid: check it.',
	EUDR_NUMBER_TOO_LONG: 'The reference or verification number is too long: check it.',
	EUDR_WEBSERVICE_STATEMENT_NOT_FOUND:
		'No statement matches this reference and verification number: check both numbers.',
	EUDR_REFERENCE_NUMBER_INVALID: 'The reference number is not valid: check it.',
	EUDR_VERIFICATION_NUMBER_INVALID: 'The verification number is not valid: check it.',
	EUDR_VERIFICATION_NUMBER_TOO_LONG: 'The verification number is too long: check it.',
};

/** Codes deliberately shown with the service's own message (none today). */
export const EU_CODES_WITHOUT_SENTENCE: readonly string[] = [];

/** The plain sentence of a code, or undefined (then the service's message is shown). */
export function euCodeSentence(id: string): string | undefined {
	const code = normaliseEuCode(id);
	return Object.prototype.hasOwnProperty.call(EU_CODE_SENTENCES, code)
		? EU_CODE_SENTENCES[code]
		: undefined;
}
