/**
 * The README's MCP client example, run as written (only MCP_URL and PRIVATE_KEY set) against a server paid on the
 * dev chain: it must import only packages this repo installs from npm (issue #27: `@x402/mcp` is not on npm), pay one
 * call, and print the result and the settlement transaction. Money: the payee gets exactly the price.
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

/** The ```ts block of the README that connects an MCP client. */
function example(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8')
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1])
  const found = blocks.find((b) => b.includes('StreamableHTTPClientTransport'))
  if (!found) throw new Error('README.md has no MCP client example')
  return found
}

test("the README's MCP example imports only installed npm packages and pays one call", async () => {
  const code = example()
  const imports = [...code.matchAll(/from '([^']+)'/g)].map((m) => m[1])
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  const deps = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)])
  for (const spec of imports) {
    const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]
    expect({ spec, listed: deps.has(name) }).toEqual({ spec, listed: true })
  }
  const payer = await fundedPayer(chain, 1000n)
  const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
  writeFileSync(join(dir, 'example.ts'), code)
  // Asynchronously: the server answering it runs in this process.
  const run = Bun.spawn([process.execPath, join(dir, 'example.ts')], {
    env: { PATH: process.env.PATH ?? '', MCP_URL: `${s.url}/mcp`, PRIVATE_KEY: payer.key },
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
  const { delta, stats, ledger } = await stopAndTally(chain, [s], before)
  expect([delta, stats, ledger]).toEqual([1000n, 1000n, 1000n])
}, 120_000)
