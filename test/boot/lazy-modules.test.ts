/**
 * Boot loads only what every deployment needs: the modules a deployment may not use (Postgres store, console,
 * MCP, OpenAPI viewer, discovery search, the OpenAI client, the local settler) are not loaded by a boot with the
 * default SQLite + remote facilitator configuration, and load when first used. A fresh process each (the module
 * registry is per process); the lists are the process's loaded module paths.
 */
import { expect, test } from 'bun:test'
import { join } from 'node:path'

const root = join(import.meta.dir, '../..')

/** Boots in a child process (as `bun start` with FACILITATOR_URL), sends `paths` in-process, lists loaded modules. */
async function loadedAfter(
  env: Record<string, string>,
  paths: Array<[string, string, string?]>,
  facilitator = 'remoteFacilitators(loadConfig().config, log)',
): Promise<string[]> {
  const script = `
    const { boot } = await import('./runtime/boot.ts')
    const { remoteFacilitators } = await import('./runtime/pay/facilitator/remote-setup.ts')
    const { loadConfig } = await import('./runtime/config/index.ts')
    const { createLogger } = await import('./runtime/log.ts')
    const { registryEntries } = await import('./runtime/catalog/registry.ts')
    const { categories, services, upstreams } = await import('./services/index.gen.ts')
    const log = createLogger('silent')
    const entries = registryEntries(services)
    const { createLocalFacilitator } = await import('./runtime/pay/facilitator/local.ts')
    const b = await boot({ entries, upstreams, categories, facilitator: ${facilitator}, log })
    for (const [method, path, body] of ${JSON.stringify(paths)}) {
      const r = await b.app.handle(new Request('http://localhost' + path, { method, body,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }))
      if (r.status >= 500) throw new Error(path + ' answered ' + r.status)
      await r.text()
    }
    console.log(JSON.stringify(Object.keys(require.cache)))
    process.exit(0)`
  const p = Bun.spawn([process.execPath, '-e', script], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      PAY_TO: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
      FACILITATOR_URL: 'http://127.0.0.1:9',
      DATABASE_PATH: ':memory:',
      ...env,
    },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited])
  if (code !== 0) throw new Error(err)
  return (JSON.parse(out.trim().split('\n').pop()!) as string[]).map((k) => k.replace(/^.*node_modules\//, 'npm:'))
}

const LAZY = {
  postgres: /runtime\/db\/postgres\//,
  console: /runtime\/admin\//,
  mcp: /runtime\/mcp\//,
  a2a: /runtime\/a2a\/(routes|run|card)\.ts$/,
  mcpSdk: /npm:@modelcontextprotocol\//,
  openapiViewer: /runtime\/discovery\/docs-page\.ts$/,
  search: /runtime\/discovery\/(search|llms)\.ts$/,
  openai: /npm:openai\//,
  settler: /runtime\/pay\/settle\/settler\.ts$/,
  // operations: the /metrics routes and collectors (ADMIN_TOKEN, METRICS_PORT or CANARY_PAYER), the OpenTelemetry SDK
  // (an OTLP endpoint)
  opsRoutes: /runtime\/ops\/(routes|collect)\.ts$/,
  openTelemetry: /npm:@opentelemetry\//,
  // viem's root entry (~420 modules) and viem/accounts (~100, with the BIP-39 word lists): boot needs only viem/utils
  viemRoot: /npm:viem\/_esm\/index\.js$/,
  viemAccounts: /npm:viem\/_esm\/accounts\/index\.js$/,
  // the shipped registry.yaml is parsed by Bun's built-in parser; the yaml package only for an edited file
  yaml: /npm:yaml\//,
  // the Bazaar and payment-identifier extensions are built in runtime/ (their package loads ajv's 2020-12 vocabularies
  // and, through @x402/core, zod: ~120 modules for constant shapes)
  x402Extensions: /npm:@x402\/extensions\//,
  ajv: /npm:ajv\//,
  zod: /npm:zod\//,
}
/** Modules a self-settling boot (RPC_URL, SQLite) may load before its first paid call (issue #38). */
const MODULE_BUDGET = 850
const has = (mods: string[], re: RegExp) => mods.some((m) => re.test(m))

test('a default boot (SQLite, remote facilitator, no ADMIN_TOKEN) loads none of the optional modules', async () => {
  const mods = await loadedAfter({}, [['GET', '/health']])
  expect(mods.some((m) => m.endsWith('runtime/app.ts'))).toBe(true) // the list is real
  for (const [name, re] of Object.entries(LAZY)) expect([name, has(mods, re)]).toEqual([name, false])
})

test('each loads on first use: /mcp, the A2A card, /docs, /discovery/search, the console and /metrics when ADMIN_TOKEN is set', async () => {
  const mods = await loadedAfter({ ADMIN_TOKEN: 'lazy-modules-test-admin-token-0123' }, [
    ['POST', '/mcp', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })],
    ['GET', '/.well-known/agent-card.json'],
    ['GET', '/docs'],
    ['GET', '/openapi/full.json'],
    ['GET', '/discovery/search?q=slug'],
  ])
  for (const name of ['console', 'mcp', 'a2a', 'mcpSdk', 'openapiViewer', 'search', 'opsRoutes'] as const)
    expect([name, has(mods, LAZY[name])]).toEqual([name, true])
  for (const name of ['postgres', 'openai', 'settler', 'viemRoot', 'viemAccounts', 'yaml', 'openTelemetry'] as const)
    expect([name, has(mods, LAZY[name])]).toEqual([name, false])
})

test("a self-settling boot (RPC_URL) loads neither viem's root entry and accounts nor the official channel facilitator", async () => {
  // The settler's and the channel authorizer's addresses are computed natively; the official batch-settlement
  // facilitator (@x402/evm with viem's root entry) and viem's accounts load on the first channel payment or signature.
  const key = `0x${'11'.repeat(32)}`
  const mods = await loadedAfter(
    { FACILITATOR_URL: '', RPC_URL: 'http://127.0.0.1:9', SETTLER_PRIVATE_KEY: key },
    [
      ['GET', '/health'],
      ['POST', '/api/v1/slugify', '{"text":"a b"}'],
    ],
    `createLocalFacilitator({ rpcUrl: 'http://127.0.0.1:9', settlerKeys: ['${key}'], chainId: 8453 })`,
  )
  expect(has(mods, /runtime\/pay\/schemes\/batch-settlement\/at-boot\.ts$/)).toBe(true) // channels are on
  for (const [name, re] of Object.entries({
    viemRoot: LAZY.viemRoot,
    viemAccounts: LAZY.viemAccounts,
    officialChannels: /npm:@x402\/evm\//,
    // libsecp256k1's binding (its context's tables): the keys' addresses are derived without it
    nativeSecp256k1: /npm:secp256k1\//,
    x402Extensions: LAZY.x402Extensions,
    ajv: LAZY.ajv,
    zod: LAZY.zod,
  }))
    expect([name, has(mods, re)]).toEqual([name, false])
  // The whole graph, counted (issue #38: 1,148 modules, then 907 and 924, now 816; a boot's CPU follows its module count):
  // a new static import of a large package shows here first. Typebox (Elysia's) ~250, viem/utils ~235, the
  // manifests ~125, the runtime ~170.
  expect(mods.length).toBeLessThan(MODULE_BUDGET)
})
