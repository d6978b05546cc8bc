import { existsSync, readFileSync } from 'node:fs'
import embedded from '../../registry.yaml' with { type: 'text' }
import { SHIPPED_REGISTRY_SHA256 } from './shipped-registry.gen'
import type { Env } from './declare'
import { REGISTRY_PATH } from './server'

/** registry.yaml (REGISTRY_PATH, else ./registry.yaml, else the copy built into the server). */
export function readYaml(env: Env): { text: string; from: string } {
  const path = env[REGISTRY_PATH.name] ?? String(REGISTRY_PATH.default)
  if (existsSync(path)) return { text: readFileSync(path, 'utf8'), from: path }
  if (env[REGISTRY_PATH.name]) throw new Error(`REGISTRY_PATH ${path} does not exist`)
  return { text: embedded as unknown as string, from: 'built-in registry.yaml' }
}

/** sha256 of the registry.yaml this repository ships, written by `npm run gen` (scripts/gen-registry.ts). */
export { SHIPPED_REGISTRY_SHA256 } from './shipped-registry.gen'

/**
 * The document of a registry.yaml text. Any text an operator wrote goes through the `yaml` package (YAML 1.2 core
 * schema; duplicate keys are errors), loaded only then. Only the exact registry.yaml this repository ships (its
 * sha256 is SHIPPED_REGISTRY_SHA256, so an edited checkout or a binary built from one does not count) goes through
 * Bun's built-in parser, which gives the same document for it (test/boot/config-parse.test.ts) without loading the
 * package and its first, cold parse (~40 ms of boot).
 */
export function parseYaml(text: string): unknown {
  if (sha256(text) === SHIPPED_REGISTRY_SHA256) return Bun.YAML.parse(text)
  return (require('yaml') as typeof import('yaml')).parse(text)
}

const sha256 = (text: string) => new Bun.CryptoHasher('sha256').update(text).digest('hex')
