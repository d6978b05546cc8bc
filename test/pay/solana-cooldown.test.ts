/**
 * A Solana payer that moves its USDC away while its paid call runs: the settlement fails after verification (the
 * handler ran for free), the result is withheld, nothing moves, and the payer is cooled down: its next payment is
 * refused (`payer_cooling_down`) before any verification or handler, however well funded it is again.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { SOLANA_MAINNET_CAIP2 } from '@x402/svm'
import { installUsdcAccount } from '../../runtime/chain/solana/accounts'
import { newSolanaKey } from '../../runtime/chain/solana/keys'
import { type SolanaDevChain, startSolanaDevChain } from '../../runtime/chain/solana/start'
import { type FaultProxy, startFaultProxy } from '../support/rpc-faults'
import { startServer, type TestServer } from '../support/server'
import { paymentRequiredOf, solanaEnv, solanaPaymentHeader, usdcOf } from '../support/solana'
import { until } from '../support/until'

let chain: SolanaDevChain
let proxy: FaultProxy
let s: TestServer
beforeAll(async () => {
  chain = await startSolanaDevChain()
  proxy = startFaultProxy(chain.url)
  s = await startServer({ env: { ...solanaEnv(chain), SOLANA_RPC_URL: proxy.url } })
})
afterAll(async () => {
  await s?.stop()
  proxy?.stop()
  await chain?.stop()
})

test('funds moved away mid-call: settlement refused, result withheld, nothing moved, the payer cooled down', async () => {
  const payer = await newSolanaKey()
  await installUsdcAccount(chain.ledger.svm, payer.signer.address, 1_000_000n)
  const body = { text: 'moved away' }
  const required = paymentRequiredOf(await s.post('/api/v1/slugify', body))
  const entry = required.accepts.find((a) => a.network === SOLANA_MAINNET_CAIP2)!
  const header = await solanaPaymentHeader(chain, payer.signer, required, entry)
  const before = await usdcOf(chain, chain.payee.usdcAccount)
  // Every simulation reaches the chain 300 ms after it was asked: the second one (settle re-verifies) is the moment
  // the payer empties its account.
  proxy.calls.clear()
  proxy.delayIn.set('simulateTransaction', 300)
  const answer = s.post('/api/v1/slugify', body, { 'payment-signature': header })
  await until(() => (proxy.calls.get('simulateTransaction') ?? 0) >= 2, 20_000, 'the settlement re-verifying')
  await installUsdcAccount(chain.ledger.svm, payer.signer.address, 0n)
  const res = await answer
  proxy.delayIn.clear()
  expect(res.status).toBe(402)
  const refusal = (await res.json()) as { reason: string; slug?: string }
  expect(refusal.reason).toMatch(/^invalid_exact_svm/)
  expect(refusal.slug).toBeUndefined() // the result is withheld
  expect(proxy.calls.get('sendTransaction') ?? 0).toBe(0)
  expect(await usdcOf(chain, chain.payee.usdcAccount)).toBe(before)

  // Funded again: still refused while cooling down, before any verification.
  await installUsdcAccount(chain.ledger.svm, payer.signer.address, 1_000_000n)
  const next = await solanaPaymentHeader(chain, payer.signer, required, entry)
  proxy.calls.clear()
  const again = await s.post('/api/v1/slugify', body, { 'payment-signature': next })
  expect(again.status).toBe(402)
  expect(await again.json()).toMatchObject({ reason: 'payer_cooling_down' })
  expect(proxy.calls.get('simulateTransaction') ?? 0).toBe(0)
  expect(await usdcOf(chain, chain.payee.usdcAccount)).toBe(before)
})
