/** Variables read outside the configuration object: by a module when it loads, or by the dev chain. */
import { variable } from './declare'

export const X402_PURE_JS = variable({
  name: 'X402_PURE_JS',
  concern: 'process',
  valid: '1 or unset',
  description:
    '`1` skips the native secp256k1 signature checker and recovers signers in JavaScript (slower; for comparison and platforms without the native module)',
})
export const ANVIL_PATH = variable({
  name: 'ANVIL_PATH',
  concern: 'process',
  description:
    'an anvil binary for the embedded dev chain (default: the one in the npm package `@foundry-rs/anvil-<platform>-<arch>`; a compiled binary has no node_modules)',
})

export const processVariables = [X402_PURE_JS, ANVIL_PATH]
