/**
 * The input layer: one reader per kind of value (ids, commodity, country, dates, JSON
 * objects, numbers, text), so the same value behaves the same in every field that takes
 * it. Pure: no n8n imports. Every reader returns a `Reading`; `fieldProblem` turns a reason into the
 * problem line `Item 3, field "Plot IDs": <reason>`.
 */
export type { Reading } from './reading';
export { fieldProblem } from './reading';
export type { IdNoun } from './ids';
export { idPath, missingIdReason, readId, readIdList } from './ids';
export { countryCodeProblem, readCountry } from './country';
export type { Commodity } from './commodity';
export { COMMODITIES, COMMODITY_OPTIONS, commodityName, readCommodity } from './commodity';
export type { DateOrder } from './dates';
export { DATE_ORDERS, DATE_ORDER_OPTIONS, readDate, readDateOrder, readTimestamp } from './dates';
export { MAX_JSON_DEPTH, pathDeeperThan, showPath, tooDeepReason } from './depth';
export { copyOwn, readJsonObject, readKeyValuePairs, setOwn } from './json';
export type { LooseNumber, NumberRule } from './numbers';
export { readHectares, readLooseNumber, readNumber } from './numbers';
export { readText, readXmlText, xmlTextProblem } from './text';
