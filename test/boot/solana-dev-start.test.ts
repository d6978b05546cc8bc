/**
 * `npm start` with no payment configuration runs the embedded Solana dev chain beside the Base one: the banner
 * prints `SOLANA_RPC http://…` after the Base `RPC http://…` line and `DEMO_SOLANA_PAYER_KEY=<base58 64-byte secret>`
 * beside the Base demo lines (NOT real money), before `Listening on`; `npm run demo` then pays on both chains.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getBase58Encoder } from '@solana/kit'

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'solana-dev-start-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const env = (more: Record<string, string> = {}) => ({
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  LOG_LEVEL: 'silent',
  ...more,
})

test('the banner names both dev chains and both demo payers; the demo pays on Base and on Solana', async () => {
  const proc = Bun.spawn([process.execPath, 'runtime/index.ts'], {
    env: env({ HOST: '127.0.0.1', PORT: '0', DATABASE_PATH: join(dir, 'db.sqlite') }),
    stdout: 'pipe',
    stderr: 'pipe',
  })
  try {
    const reader = proc.stdout.getReader()
    let out = ''
    while (!out.includes('Listening on')) {
      const { done, value } = await reader.read()
      if (done) break
      out += new TextDecoder().decode(value)
    }
    reader.releaseLock()
    const rpc = out.indexOf('    RPC http://')
    const solanaRpc = out.indexOf('SOLANA_RPC http://127.0.0.1:')
    expect(rpc).toBeGreaterThan(0)
    expect(solanaRpc).toBeGreaterThan(rpc) // tools that read the banner take the first `RPC http://`
    expect(out).toContain('NOT REAL MONEY')
    const solanaKey = /DEMO_SOLANA_PAYER_KEY=([1-9A-HJ-NP-Za-km-z]+)\n/.exec(out)?.[1]
    expect(getBase58Encoder().encode(solanaKey!).length).toBe(64)
    const baseKey = /DEMO_PAYER_KEY=(0x[0-9a-f]{64})/.exec(out)?.[1]
    expect(baseKey).toBeDefined()
    expect(out.indexOf('DEMO_SOLANA_PAYER_KEY=')).toBeLessThan(out.indexOf('Listening on'))
    const rpcUrl = /SOLANA_RPC (http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1]
    const apiUrl = /Listening on (http:\/\/\S+)/.exec(out)![1]
    const demo = Bun.spawn([process.execPath, 'scripts/demo.ts'], {
      env: env({
        API_URL: apiUrl,
        DEMO_PAYER_KEY: baseKey!,
        DEMO_SOLANA_PAYER_KEY: solanaKey!,
        SOLANA_RPC_URL: rpcUrl,
      }),
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const [code, printed] = await Promise.all([demo.exited, new Response(demo.stdout).text()])
    expect(printed).toContain('200 POST /api/v1/slugify (paid on Base)')
    expect(printed).toContain('200 POST /api/v1/slugify (paid on Solana)')
    expect(printed.match(/\(paid on Solana\)/g)?.length).toBe(2)
    expect(code).toBe(0)
  } finally {
    proc.kill('SIGTERM')
    await proc.exited
  }
}, 120_000)
