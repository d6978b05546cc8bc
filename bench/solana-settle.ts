/**
 * Solana `exact` on the embedded dev chain (LiteSVM + its JSON-RPC): one payer, sequential payments, each built by the
 * official @x402/svm client, then verified and settled by the official facilitator through the RPC (simulate twice,
 * send, confirm). Then the whole paid call beside `exact` on Base: `bun start` with both embedded dev chains, one
 * payer per chain paying the same service sequentially with its official client (402, sign, paid retry: verify,
 * handler, settle). Run alone: `bun bench/solana-settle.ts [--smoke]`.
 */
import { createKeyPairSignerFromBytes, getBase58Encoder } from '@solana/kit'
import { x402Client } from '@x402/core/client'
import { x402Facilitator } from '@x402/core/facilitator'
import type { PaymentRequirements } from '@x402/core/types'
import { SOLANA_MAINNET_CAIP2, toFacilitatorSvmSigner } from '@x402/svm'
import { ExactSvmScheme } from '@x402/svm/exact/client'
import { registerExactSvmScheme } from '@x402/svm/exact/facilitator'
import { SOLANA_USDC_MINT } from '../runtime/chain/solana/accounts'
import { startSolanaDevChain } from '../runtime/chain/solana/start'
import { wrapFetchWithPayment } from '@x402/fetch'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { privateKeyToAccount } from 'viem/accounts'
import type { Hex } from 'viem'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startChild } from './lib'

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]

export async function solanaSettleLatency(count: number): Promise<string[]> {
  const booted = performance.now()
  const chain = await startSolanaDevChain()
  const bootMs = performance.now() - booted
  try {
    const payer = await createKeyPairSignerFromBytes(getBase58Encoder().encode(chain.payer.secretBase58))
    const client = new x402Client().register('solana:*', new ExactSvmScheme(payer, { rpcUrl: chain.url }))
    const facilitator = registerExactSvmScheme(new x402Facilitator(), {
      signer: toFacilitatorSvmSigner(chain.feePayer, { defaultRpcUrl: chain.url }),
      networks: SOLANA_MAINNET_CAIP2,
    })
    const accepted: PaymentRequirements = {
      scheme: 'exact',
      network: SOLANA_MAINNET_CAIP2,
      amount: '1000',
      asset: SOLANA_USDC_MINT,
      payTo: chain.payee.address,
      maxTimeoutSeconds: 60,
      extra: { feePayer: chain.feePayer.address },
    }
    const resource = { url: 'http://127.0.0.1/bench', description: 'bench', mimeType: 'application/json' }
    const pay: number[] = []
    const settle: number[] = []
    let settled = 0
    for (let i = 0; i < count; i++) {
      const t0 = performance.now()
      const payload = await client.createPaymentPayload({ x402Version: 2, resource, accepts: [accepted] })
      const t1 = performance.now()
      const verified = await facilitator.verify(payload, accepted)
      const result = verified.isValid ? await facilitator.settle(payload, accepted) : null
      const t2 = performance.now()
      if (result?.success) settled++
      pay.push(t1 - t0)
      settle.push(t2 - t1)
    }
    pay.sort((a, b) => a - b)
    settle.sort((a, b) => a - b)
    const ms = (x: number) => x.toFixed(1)
    return [
      '| step (sequential, one payer) | p50 | p99 |',
      '|---|---|---|',
      `| client builds and signs the payment (getAccountInfo once, getLatestBlockhash) | ${ms(percentile(pay, 0.5))} ms | ${ms(percentile(pay, 0.99))} ms |`,
      `| facilitator verify + settle (simulate twice, send, confirm) | **${ms(percentile(settle, 0.5))} ms** | ${ms(percentile(settle, 0.99))} ms |`,
      '',
      `${settled} of ${count} payments settled on the dev chain; chain and RPC started in ${bootMs.toFixed(0)} ms.`,
    ]
  } finally {
    await chain.stop()
  }
}

/**
 * The paid call end to end on each chain, against one `bun start` running both embedded dev chains: `count`
 * sequential calls of slugify per chain (each a 402, a signature and the paid retry, settled before the answer).
 */
export async function paidCallsOnBothChains(count: number): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-solana-'))
  const server = await startChild(
    [process.execPath, 'runtime/index.ts'],
    {
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_PATH: join(dir, 'db.sqlite'),
    },
    60_000,
  )
  try {
    const banner = server.lines.join('\n')
    const baseKey = /DEMO_PAYER_KEY=(0x[0-9a-f]{64})/.exec(banner)?.[1] as Hex
    const solanaKey = /DEMO_SOLANA_PAYER_KEY=([1-9A-HJ-NP-Za-km-z]+)/.exec(banner)?.[1]
    const solanaRpc = /SOLANA_RPC (http:\/\/\S+)/.exec(banner)?.[1]
    if (!baseKey || !solanaKey || !solanaRpc) throw new Error('the dev banner named no demo payers')
    const solanaPayer = await createKeyPairSignerFromBytes(getBase58Encoder().encode(solanaKey))
    const payers: Array<[string, typeof fetch]> = [
      [
        '`exact` on Base (anvil, @x402/evm)',
        wrapFetchWithPayment(
          fetch,
          new x402Client().register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(baseKey))),
        ) as typeof fetch,
      ],
      [
        '`exact` on Solana (LiteSVM, @x402/svm)',
        wrapFetchWithPayment(
          fetch,
          new x402Client().register('solana:*', new ExactSvmScheme(solanaPayer, { rpcUrl: solanaRpc })),
        ) as typeof fetch,
      ],
    ]
    const rows = [
      '| paid call, end to end (sequential, one payer, slugify) | p50 | p99 | paid (200) |',
      '|---|---|---|---|',
    ]
    for (const [name, pay] of payers) {
      const took: number[] = []
      let ok = 0
      for (let i = 0; i < count; i++) {
        const t0 = performance.now()
        const r = await pay(`http://127.0.0.1:${server.port}/api/v1/slugify`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ text: `bench ${i}` }),
        })
        await r.arrayBuffer()
        took.push(performance.now() - t0)
        if (r.status === 200) ok++
      }
      took.sort((a, b) => a - b)
      rows.push(
        `| ${name} | ${percentile(took, 0.5).toFixed(1)} ms | ${percentile(took, 0.99).toFixed(1)} ms | ${ok} of ${count} |`,
      )
    }
    return [
      ...rows,
      '',
      'Both through the same server process (`bun start` with no payment configuration: anvil and LiteSVM embedded); each call is the unpaid 402, the signature and the paid retry, answered after its settlement is confirmed.',
    ]
  } finally {
    await server.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.main) {
  const smoke = process.argv.includes('--smoke')
  for (const line of await solanaSettleLatency(smoke ? 5 : 200)) console.log(line)
  console.log()
  for (const line of await paidCallsOnBothChains(smoke ? 3 : 50)) console.log(line)
}
