/**
 * Configuration is declared in one place: every environment variable the server reads (runtime/ and the scripts the
 * server runs) is declared in runtime/config/ (variables.ts lists them), and docs/configuration.md is generated
 * from those declarations (scripts/gen-config-docs.ts). The client scripts (scripts/demo.ts, scripts/mcp-bridge.ts)
 * are not the server and read their own variables.
 */
import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { Glob } from 'bun'
import { render } from '../../scripts/gen-config-docs'
import * as consoleVars from '../../runtime/config/console'
import * as limits from '../../runtime/config/limits'
import * as models from '../../runtime/config/models'
import * as networks from '../../runtime/config/networks'
import * as server from '../../runtime/config/server'
import * as storage from '../../runtime/config/storage'
import { families, isDeclared, secretValues, variables, yamlSettings } from '../../runtime/config/variables'
import { loadConfig } from '../../runtime/config'
import { isHttpUrl, maskUrl, settlerKeys, validSettlerKeys } from '../../runtime/config/parse'

const ADDRESS = '0x209693Bc6afc0C5328bA36FaF03C514EF312287C'

const root = `${import.meta.dir}/../..`
const serverFiles = [...new Glob('runtime/**/*.{ts,mjs}').scanSync(root), 'scripts/bootstrap.mjs', 'scripts/backup.ts']

/** `process.env.X`, `Bun.env.X`, `env.X`, `env['X']` (any object named env: the environment passed around). */
const READ = /\b(?:process\.env|Bun\.env|env)(?:\.([A-Za-z_][A-Za-z0-9_]*)|\[\s*['"`]([^'"`$]+)['"`]\s*\])/g

test('every variable read in runtime/ (and the scripts the server runs) is declared in runtime/config/', () => {
  const undeclared: string[] = []
  let reads = 0
  for (const file of serverFiles) {
    const text = readFileSync(`${root}/${file}`, 'utf8')
    for (const m of text.matchAll(READ)) {
      reads++
      const name = m[1] ?? m[2]
      if (!isDeclared(name)) undeclared.push(`${file}: ${name}`)
    }
  }
  expect(reads).toBeGreaterThan(3) // the scan sees reads (most go through the declarations)
  expect(undeclared).toEqual([])
})

test('the check itself: an undeclared name is caught, members of a family are declared', () => {
  expect(isDeclared('PORT')).toBe(true)
  expect(isDeclared('RPC_URL_8453')).toBe(true)
  expect(isDeclared('SETTLER_PRIVATE_KEYS_84532')).toBe(true)
  expect(isDeclared('UPSTREAM_OPEN_METEO_URL')).toBe(true)
  expect(isDeclared('RPC_URL_BASE')).toBe(false)
  expect(isDeclared('PORTS')).toBe(false)
  const sample = 'const a = process.env.NOT_DECLARED_X; const b = env["ALSO_NOT"]; const c = process.env.PORT'
  const found = [...sample.matchAll(READ)].map((m) => m[1] ?? m[2]).filter((n) => !isDeclared(n))
  expect(found).toEqual(['NOT_DECLARED_X', 'ALSO_NOT'])
})

test('every declaration of a concern file is listed once in variables.ts (so it is documented)', () => {
  const names = variables.map((v) => v.name)
  expect(new Set(names).size).toBe(names.length)
  for (const mod of [server, storage, networks, models, limits, consoleVars])
    for (const [exported, value] of Object.entries(mod)) {
      const v = value as { name?: unknown; concern?: unknown; prefix?: unknown; yaml?: unknown }
      if (typeof v !== 'object' || v === null || Array.isArray(v) || !v.concern) continue
      if (typeof v.name === 'string') expect(variables, exported).toContain(value as never)
      else if (typeof v.prefix === 'string') expect(families, exported).toContain(value as never)
      else expect(yamlSettings, exported).toContain(value as never)
    }
  for (const v of variables) expect(v.description.length, v.name).toBeGreaterThan(10)
})

test('docs/configuration.md is generated from the declarations (run `bun scripts/gen-config-docs.ts`)', () => {
  const doc = readFileSync(`${root}/docs/configuration.md`, 'utf8')
  expect(doc).toBe(render())
  for (const v of variables) expect(doc).toContain(`\`${v.name}\``)
  expect(doc).toContain('`RPC_URL_<CHAINID>`')
})

test('the secrets the logger masks: the variables declared secret, a list item by item', () => {
  const k1 = '11'.repeat(32)
  const k2 = `0x${'22'.repeat(32)}`
  const values = secretValues({
    SETTLER_PRIVATE_KEY: 'single-key',
    SETTLER_PRIVATE_KEYS: ` ${k1} ,${k2},`,
    OPENAI_API_KEY: 'sk-1',
    FACILITATOR_AUTH_HEADER: 'Bearer abc',
    CDP_API_KEY_SECRET: 'cdp',
    ADMIN_TOKEN: 'admin',
    PORT: '3402',
  })
  expect(values.filter(Boolean).sort()).toEqual(['single-key', k1, k2, 'sk-1', 'Bearer abc', 'cdp', 'admin'].sort())
})

test('one parser of settler keys and URLs: what config checks is what the backends get', () => {
  const k1 = 'ab'.repeat(32)
  const k2: `0x${string}` = `0x${'cd'.repeat(32)}`
  expect(settlerKeys(` ${k1}, ${k2} ,`)).toEqual([`0x${k1}`, k2])
  expect(settlerKeys('')).toEqual([])
  expect(validSettlerKeys(`${k1},${k2}`)).toBe(true)
  expect(validSettlerKeys(`${k1},`)).toBe(true)
  expect(validSettlerKeys('')).toBe(false)
  expect(validSettlerKeys(`${k1},0x1234`)).toBe(false)
  expect(isHttpUrl('https://x402.org/facilitator')).toBe(true)
  expect(isHttpUrl('ftp://x402.org')).toBe(false)
  expect(isHttpUrl('https://a b')).toBe(false)
  expect(maskUrl('https://user:pass@rpc.example/v2/key?apikey=k')).toBe('https://***@rpc.example/v2/key')
  // a single network is a list of one, with the keys as set
  const one = loadConfig({ RPC_URL: 'http://127.0.0.1:1', SETTLER_PRIVATE_KEYS: `${k1},${k2}`, PAY_TO: ADDRESS }, '')
  expect(one.problems).toEqual([])
  expect(one.config.networks).toHaveLength(1)
  expect(settlerKeys(one.config.networks[0].settlerPrivateKey)).toEqual([`0x${k1}`, k2])
  const bad = loadConfig({ RPC_URL: 'http://127.0.0.1:1', SETTLER_PRIVATE_KEY: '0x1234', PAY_TO: ADDRESS }, '')
  expect(bad.problems).toEqual([
    'RPC_URL needs SETTLER_PRIVATE_KEY (a 32-byte hex key) or SETTLER_PRIVATE_KEYS (comma-separated) for self-facilitation',
  ])
})

test('a number below its declared minimum is a boot problem named after its variable', () => {
  const { problems, config } = loadConfig({ DATABASE_POOL_MAX: '1', PORT: 'x', STREAM_HEARTBEAT_MS: '' }, '')
  expect(problems).toEqual(
    expect.arrayContaining([
      'DATABASE_POOL_MAX must be a number >= 2 (got "1")',
      'PORT must be a number >= 0 (got "x")',
    ]),
  )
  expect(config.streamHeartbeatMs).toBe(15_000)
})

test('one network model: a single network is a list of one, configured like each of several', () => {
  const key = '11'.repeat(32)
  const single = loadConfig(
    { NETWORK: 'eip155:84532', FACILITATOR_URL: 'https://x402.org/facilitator', PAY_TO: ADDRESS },
    '',
  )
  const multi = loadConfig(
    {
      NETWORKS: 'eip155:84532,eip155:8453',
      FACILITATOR_URL_84532: 'https://x402.org/facilitator',
      RPC_URL_8453: 'http://127.0.0.1:1',
      SETTLER_PRIVATE_KEYS_8453: key,
      PAY_TO: ADDRESS,
    },
    '',
  )
  expect(single.problems).toEqual([])
  expect(multi.problems).toEqual([])
  // the first network is the same setting whichever way it was spelled
  expect(single.config.networks).toEqual([multi.config.networks[0]])
  expect(multi.config.networks[0]).toMatchObject({
    network: 'eip155:84532',
    facilitatorUrls: ['https://x402.org/facilitator'],
  })
  expect(multi.config.networks[1]).toMatchObject({
    network: 'eip155:8453',
    rpcUrl: 'http://127.0.0.1:1',
    settlerPrivateKey: key,
  })
  // no per-network field beside the list
  for (const field of [
    'network',
    'asset',
    'assetName',
    'assetVersion',
    'rpcUrl',
    'settlerPrivateKey',
    'facilitatorUrls',
  ])
    expect(Object.keys(single.config)).not.toContain(field)
})
