/**
 * The README's two client examples (a paid HTTP call with @x402/fetch, an MCP client), each run as written (only
 * API_URL or MCP_URL and PRIVATE_KEY set) against a server paid on the dev chain: they must import only packages this
 * repo installs from npm (issue #27: `@x402/mcp` is not on npm), pay one call, and print the result and the settlement
 * transaction. Money: the payee gets exactly the price of each.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import type { TestServer } from '../support/server'
import { fundedPayer, startServerOnChain, stopAndTally } from '../support/on-chain'
import { sqliteOf } from '../../runtime/db/open'

const root = join(import.meta.dir, '..', '..')
let chain: DevChain
let s: TestServer
let dir: string

beforeAll(async () => {
  chain = await startDevChain()
  s = await startServerOnChain(chain)
  // Inside the repository, so the example's imports resolve from its node_modules.
  dir = mkdtempSync(join(root, 'test', '.readme-example-'))
})
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true })
  await chain?.stop()
})

/** The ```ts block of the README that contains `marker`. */
function example(marker: string): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8')
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1])
  const found = blocks.find((b) => b.includes(marker))
  if (!found) throw new Error(`README.md has no example with ${marker}`)
  return found
}

/** Runs one example as a program of its own with `env`, checks its imports, output and the payment it made. */
async function runExample(code: string, env: Record<string, string>) {
  const imports = [...code.matchAll(/from '([^']+)'/g)].map((m) => m[1])
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  const deps = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)])
  for (const spec of imports) {
    const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]
    expect({ spec, listed: deps.has(name) }).toEqual({ spec, listed: true })
  }
  const payer = await fundedPayer(chain, 1000n)
  const file = join(dir, `example-${Object.keys(env)[0]}.ts`)
  writeFileSync(file, code)
  // Asynchronously: the server answering it runs in this process.
  const run = Bun.spawn([process.execPath, file], {
    env: { PATH: process.env.PATH ?? '', ...env, PRIVATE_KEY: payer.key },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [out, err, exit] = await Promise.all([
    new Response(run.stdout).text(),
    new Response(run.stderr).text(),
    run.exited,
  ])
  expect({ exit, err: err.slice(0, 2000) }).toEqual({ exit: 0, err: '' })
  expect(out).toContain('"hello-world"')
  const tx = out.match(/0x[0-9a-f]{64}/)?.[0]
  expect(tx).toBeDefined()
  expect(
    sqliteOf(s.booted)
      .ledger.byState(['settled'])
      .some((r) => r.tx_hash === tx),
  ).toBe(true)
}

test("the README's paid-call and MCP examples import only installed npm packages and pay one call each", async () => {
  const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
  await runExample(example('wrapFetchWithPayment'), { API_URL: s.url })
  await runExample(example('StreamableHTTPClientTransport'), { MCP_URL: `${s.url}/mcp` })
  const { delta, stats, ledger } = await stopAndTally(chain, [s], before)
  expect([delta, stats, ledger]).toEqual([2000n, 2000n, 2000n])
}, 120_000)
