/**
 * Every configuration variable, declared once in the file of its concern: what docs/configuration.md is generated
 * from (scripts/gen-config-docs.ts) and what test/boot/config-declared.test.ts checks every read against.
 * Not loaded at boot (the readers import their own declarations).
 */
import { consoleVariables, processVariables } from './console'
import { type Env, type Family, familyPattern, type Variable, type YamlSetting } from './declare'
import { channelVariables } from './channels'
import { isolateVariables } from './isolate'
import { limitVariables } from './limits'
import { listOf } from './parse'
import { modelVariables } from './models'
import { mppVariables } from './mpp'
import { opsVariables } from './ops'
import { MAX_TIMEOUT_SECONDS, paymentVariables, perChainFamilies } from './networks'
import { PROVIDER_DESCRIPTION, PROVIDER_NAME, serverVariables, UPSTREAM_KEY, UPSTREAM_URL } from './server'
import { solanaVariables } from './solana'
import { storageVariables } from './storage'

export const variables: Variable[] = [
  ...serverVariables,
  ...storageVariables,
  ...paymentVariables,
  ...channelVariables,
  ...mppVariables,
  ...solanaVariables,
  ...modelVariables,
  ...limitVariables,
  ...isolateVariables,
  ...consoleVariables,
  ...opsVariables,
  ...processVariables,
]

/** The per-chain families (NETWORKS) and the per-upstream ones. */
export const families: Family[] = [...perChainFamilies, UPSTREAM_URL, UPSTREAM_KEY]

/** registry.yaml settings no variable overrides. */
export const yamlSettings: YamlSetting[] = [PROVIDER_NAME, PROVIDER_DESCRIPTION, MAX_TIMEOUT_SECONDS]

const patterns = families.map(familyPattern)
const names = new Set(variables.map((v) => v.name))

/** True when `name` is a declared variable or a member of a declared family (`RPC_URL_8453`, `UPSTREAM_DOH_URL`). */
export const isDeclared = (name: string): boolean => names.has(name) || patterns.some((p) => p.test(name))

/** The values of the variables declared secret, as set in `env` (a list item by item): the logger masks them. */
export const secretValues = (env: Env): string[] =>
  variables.filter((v) => v.secret).flatMap((v) => (v.list ? listOf(env[v.name]) : [env[v.name] ?? '']))
