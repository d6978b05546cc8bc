/**
 * Solana `exact` on the embedded dev chain (LiteSVM + its JSON-RPC): one payer, sequential payments, each built by the
 * official @x402/svm client, then verified and settled by the official facilitator through the RPC (simulate twice,
 * send, confirm). Run alone: `bun bench/solana-settle.ts [--smoke]`.
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

if (import.meta.main) {
  for (const line of await solanaSettleLatency(process.argv.includes('--smoke') ? 5 : 200)) console.log(line)
}
