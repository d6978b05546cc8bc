/**
 * The only module services import. Services never import the framework or the database.
 * @module sdk
 */
export { Type as t } from '@sinclair/typebox'
export type { Static, TSchema } from '@sinclair/typebox'
export * from './manifest'
export * from './errors'
export { assertFinite } from './finite'
export { trimmedStream } from './stream'
export type * from './context'
export { testContext } from './test-context'
export { serviceRequest, serviceRequestAliases, serviceResponse, tieredPricing, flat } from './shapes'
export type * from './service-index'
