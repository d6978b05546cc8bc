/**
 * Full paid calls (pre-signed authorizations; verify, reserve, handler, settle on a local anvil, PAYMENT-RESPONSE)
 * on this server vs the official @x402/express reference middleware on Node, against the same chain.
 */
import { writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { toHex, type Hex } from 'viem'
import { startDevChain } from '../runtime/chain/devchain'
import { setEthBalance, usdcBalance } from '../runtime/chain/usdc'
import { typedData } from '../runtime/pay/signature'
import type { PaymentRequirements } from '../runtime/pay/types'
import { startChild, wrk, type WrkResult } from './lib'

export const BODY = JSON.stringify({ text: 'benchmark', algo: 'sha256' })

/** `n` payment headers for the 402 of `url`, pre-signed round-robin by `keys` (each authorization used once). */
export async function headers(url: string, keys: Hex[], n: number): Promise<string[]> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY })
  const pr = JSON.parse(Buffer.from(r.headers.get('payment-required')!, 'base64').toString())
  const req = pr.accepts[0] as PaymentRequirements
  const now = Math.floor(Date.now() / 1000)
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const acct = privateKeyToAccount(keys[i % keys.length])
      const a = {
        from: acct.address,
        to: req.payTo as Hex,
        value: req.amount,
        validAfter: '0',
        validBefore: String(now + 55),
        nonce: toHex(crypto.getRandomValues(new Uint8Array(32))),
      }
      const signature = await acct.signTypedData(typedData(a, req))
      return Buffer.from(
        JSON.stringify({
          x402Version: 2,
          resource: pr.resource,
          accepted: req,
          payload: { signature, authorization: a },
        }),
      ).toString('base64')
    }),
  )
}

/** A wrk script that POSTs BODY to /api/v1/hash-digest with the next of `hs` as PAYMENT-SIGNATURE (round robin). */
export function paidScript(hs: string[]): string {
  const file = join(tmpdir(), `paid-${Math.random().toString(36).slice(2)}.txt`)
  writeFileSync(file, hs.join('\n'))
  const script = `${file}.lua`
  writeFileSync(
    script,
    `
local hs = {}
for line in io.lines("${file}") do hs[#hs + 1] = line end
local i = 0
request = function()
  i = i + 1
  return wrk.format("POST", "/api/v1/hash-digest", { ["Content-Type"] = "application/json", ["PAYMENT-SIGNATURE"] = hs[((i - 1) % #hs) + 1] }, ${JSON.stringify(BODY)})
end
`,
  )
  return script
}

async function run(
  cmd: string[],
  env: Record<string, string>,
  payerKey: Hex,
  n: number,
  seconds: number,
  conns: number,
  chainUrl: string,
  payee: string,
) {
  const child = await startChild(cmd, env)
  try {
    const url = `http://127.0.0.1:${child.port}/api/v1/hash-digest`
    const hs = await headers(url, [payerKey], n)
    const before = await usdcBalance(chainUrl, payee)
    const r = await wrk(url, { seconds, connections: conns, script: paidScript(hs) })
    const moved = (await usdcBalance(chainUrl, payee)) - before
    return { r, settled: Number(moved / 1000n) }
  } finally {
    await child.stop()
  }
}

export async function paidComparison(smoke: boolean): Promise<string[]> {
  const chain = await startDevChain({ payerUsdc: 1_000_000_000n })
  try {
    const settler2 = generatePrivateKey()
    await setEthBalance(chain.rpcUrl, privateKeyToAccount(settler2).address, 10n ** 20n)
    const n = smoke ? 60 : 6000
    const seconds = smoke ? 1 : 10
    const conns = smoke ? 4 : 16
    const common = { RPC_URL: chain.rpcUrl, PAY_TO: chain.payee.address, DATABASE_PATH: ':memory:' }
    const ours = await run(
      [process.execPath, 'bench/servers/app.ts'],
      { ...common, SETTLER_PRIVATE_KEY: chain.settler.privateKey },
      chain.payer.privateKey as Hex,
      n,
      seconds,
      conns,
      chain.rpcUrl,
      chain.payee.address,
    )
    const ref = await run(
      ['node', 'bench/servers/reference.mjs'],
      { ...common, SETTLER_PRIVATE_KEY: settler2 },
      chain.payer.privateKey as Hex,
      n,
      seconds,
      conns,
      chain.rpcUrl,
      chain.payee.address,
    )
    const paidRps = (x: { r: WrkResult }) => (x.r.requests - x.r.non2xx) / seconds
    const f = (x: { r: WrkResult; settled: number }) =>
      `${Math.round(paidRps(x))} paid req/s (2xx), p50 ${x.r.p50ms.toFixed(1)} ms, p99 ${x.r.p99ms.toFixed(1)} ms; ${x.r.requests} requests, ${x.r.non2xx} non-2xx, ${x.settled} settled on chain`
    const node = Bun.spawnSync(['node', '--version']).stdout.toString().trim()
    return [
      `Pre-signed authorizations (${n} per server, each used once; any reuse would be refused), wrk ${conns} connections for ${seconds} s, one anvil node (automine) for both.`,
      '',
      '| server | result | ratio (ours / reference) | target |',
      '|---|---|---|---|',
      `| @x402/express 2.27 reference (Node ${node}), local facilitator | ${f(ref)} | | |`,
      `| this server (Bun + Elysia), self-facilitation | ${f(ours)} | **${(paidRps(ours) / Math.max(1e-9, paidRps(ref))).toFixed(2)}x** paid throughput, p99 ${(ours.r.p99ms / ref.r.p99ms).toFixed(2)}x | ≥ 2x, lower p99 |`,
      '',
      'Non-2xx answers are refused payments: in smoke mode the pre-signed authorizations run out (replays are refused); for the reference they are also settlements that failed under concurrency.',
    ]
  } finally {
    await chain.stop()
  }
}
