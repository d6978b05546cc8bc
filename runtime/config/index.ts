/**
 * The configuration: registry.yaml with environment overrides, read by concern (server.ts, storage.ts, networks.ts,
 * models.ts, limits.ts, console.ts), each variable declared once beside its reader (variables.ts lists them all;
 * docs/configuration.md is generated from them).
 */
import { readConsole } from './console'
import { createReader, type Env } from './declare'
import { readChannels } from './channels'
import { readIsolate } from './isolate'
import { readLimits } from './limits'
import { readModels } from './models'
import { readMpp } from './mpp'
import { readOps } from './ops'
import { readPayment } from './networks'
import { readSolana } from './solana'
import { parseYaml, readYaml } from './registry-yaml'
import { readOutbound, readServer, STREAM_HEARTBEAT_MS } from './server'
import { readStorage } from './storage'
import type { Config } from './types'

export type { Config, NetworkSetting, ServiceOverride } from './types'
export { CDP_FACILITATOR_URL, usesDevChain } from './networks'
export { SHIPPED_REGISTRY_SHA256 } from './registry-yaml'

/** Reads registry.yaml (or the built-in copy) and applies environment overrides. Returns every problem found. */
export function loadConfig(env: Env = process.env, yamlText?: string): { config: Config; problems: string[] } {
  const problems: string[] = []
  let doc: any = {}
  try {
    doc = parseYaml(yamlText ?? readYaml(env).text) ?? {}
  } catch (e) {
    problems.push(`registry.yaml: ${(e as Error).message}`)
  }
  const r = createReader(env, doc, problems)
  const { name, ...server } = readServer(r)
  const config: Config = {
    ...server,
    ...readStorage(r),
    ...readLimits(r),
    ...readIsolate(r),
    ...readChannels(r),
    ...readPayment(r, doc),
    ...readMpp(r),
    ...readSolana(r),
    ...readModels(r),
    ...readConsole(r),
    ...readOps(r),
    ...readOutbound(r, doc, name),
    services: doc.services ?? {},
    streamHeartbeatMs: r.number(STREAM_HEARTBEAT_MS),
  }
  return { config, problems }
}
