/**
 * Model clients for the runtime: one shared provider configuration, one client per model label.
 * @module model
 */
export { createModelClient, providerError } from './client'
export { checkJson, stripFence } from './json'
export { DATA_OPEN, DATA_CLOSE, DATA_RULE, wrapData } from './messages'
export { modelProvider, type ModelProvider } from './provider'
