/** `bun run build` makes one executable that serves everything, from any directory, paid on a real chain. */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { wrapFetchWithPayment, x402Client } from '@x402/fetch'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { privateKeyToAccount } from 'viem/accounts'
import type { Hex } from 'viem'
import { startDevChain, type DevChain } from '../runtime/chain/devchain'
import { anvilBinary } from '../runtime/chain/anvil'
import { usdcBalance } from '../runtime/chain/usdc'
import { startChild } from '../bench/lib'

const root = join(import.meta.dir, '..')
const out = join(mkdtempSync(join(tmpdir(), 'bin-')), 'x402-api')
let chain: DevChain
beforeAll(async () => {
  const b = Bun.spawnSync([process.execPath, 'build', 'runtime/index.ts', '--compile', '--outfile', out], {
    cwd: root,
    stdout: 'pipe',
    stderr: 'pipe',
  })
  if (b.exitCode !== 0) throw new Error(b.stderr.toString())
  chain = await startDevChain()
})
afterAll(async () => {
  await chain?.stop()
  rmSync(join(out, '..'), { recursive: true, force: true })
})

test('the binary serves /health, the site and a paid utility settled on chain, from another directory', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'bin-run-'))
  const proc = await startChild(
    [out],
    {
      PORT: '0',
      HOST: '127.0.0.1',
      PAY_TO: chain.payee.address,
      RPC_URL: chain.rpcUrl,
      SETTLER_PRIVATE_KEY: chain.settler.privateKey,
      LOG_LEVEL: 'silent',
      PATH: process.env.PATH,
    },
    20_000,
    cwd,
  )
  try {
    const url = `http://127.0.0.1:${proc.port}`
    expect(proc.lines.join('\n')).toMatch(/booted in \d+ ms/)
    expect((await (await fetch(url + '/health')).json()) as any).toMatchObject({ status: 'ok', database: 'ok' })
    expect((await fetch(url + '/')).headers.get('content-type')).toContain('text/html')
    const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
    const pay = wrapFetchWithPayment(
      fetch,
      new x402Client().register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(chain.payer.privateKey as Hex))),
    )
    const r = await pay(url + '/api/v1/slugify', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'From the binary' }),
    })
    expect(r.status).toBe(200)
    expect(await r.json()).toEqual({ slug: 'from-the-binary', length: 15 })
    expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - before).toBe(1000n)
  } finally {
    await proc.stop()
    rmSync(cwd, { recursive: true, force: true })
  }
})

test('the binary runs the embedded dev chain too (anvil given by ANVIL_PATH)', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'bin-dev-'))
  const proc = await startChild(
    [out],
    { PORT: '0', HOST: '127.0.0.1', ANVIL_PATH: anvilBinary(), LOG_LEVEL: 'silent', PATH: process.env.PATH },
    20_000,
    cwd,
  )
  try {
    expect(proc.lines.join('\n')).toContain('NOT REAL MONEY')
    expect((await fetch(`http://127.0.0.1:${proc.port}/health`)).status).toBe(200)
  } finally {
    await proc.stop()
    rmSync(cwd, { recursive: true, force: true })
  }
})
