/**
 * The paid call's two doors (runtime/pay/server/paid-call.ts) walked directly, as the pipeline walks them, on the
 * dev chain: `admit` answers with data (challenge | refused | admitted | collected), `finish` lets a failed run go
 * uncharged and settles a result once. Money check at the end: /stats revenue = ledger settled = payee's delta.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { Hex } from 'viem'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import type { CatalogService } from '../../runtime/catalog/index'
import { ServiceError } from '../../runtime/sdk'
import { schemeRegistry } from '../../runtime/pay/server/schemes'
import { exactScheme } from '../../runtime/pay/schemes/exact/scheme'
import { PaidResults } from '../../runtime/pay/schemes/exact/kept-results'
import { admit, answerOf, finish, type PaidCallDeps, type PaidRequest } from '../../runtime/pay/server/paid-call'
import { createReceiptIssuer, loadReceiptKey } from '../../runtime/pay/server/receipts'
import { startServerOnChain, stopAndTally } from '../support/on-chain'
import { withEcho } from '../support/extra-service'
import { signPayment } from '../support/pay'
import { decodeB64Json, type TestServer } from '../support/server'

let chain: DevChain
let s: TestServer
let deps: PaidCallDeps
let echo: CatalogService
let payeeBefore: bigint

beforeAll(async () => {
  chain = await startDevChain()
  payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
  s = await startServerOnChain(chain, { entries: withEcho() })
  const { booted } = s
  echo = booted.services.find((x) => x.slug === 'test-echo')!
  const key = await loadReceiptKey('', join(s.dir, 'doors-receipt-key.json'), booted.log, false)
  deps = {
    config: booted.config,
    refusals: booted.storage.refusals,
    failingRuns: booted.storage.failingRuns,
    stats: booted.storage.stats,
    payTo: chain.payee.address,
    log: booted.log,
    receipts: await createReceiptIssuer(key, booted.config.provider.apiBase),
    schemes: schemeRegistry([exactScheme({ gate: booted.gate, results: new PaidResults(booted.storage.results) })]),
  }
})
afterAll(async () => {
  if (s) {
    const tally = await stopAndTally(chain, [s], payeeBefore)
    expect(tally.delta).toBe(BigInt(echo.amounts.flat!))
    expect(tally.stats).toBe(tally.delta)
    expect(tally.ledger).toBe(tally.delta)
  }
  await chain?.stop()
})

/** Ledger rows still holding a payment (reserved, verified, settling). */
const held = async () => await s.booted.storage.ledger.byState(['reserved', 'verified', 'settling'])

const request = (payment: PaidRequest['payment'], code = 'doors'): PaidRequest => ({
  svc: echo,
  tier: 'flat',
  resource: `${deps.config.provider.apiBase}/api/v1/test-echo`,
  payment,
  raw: JSON.stringify({ code }),
  requestId: `req_doors_${code}`,
  client: '203.0.113.7',
  input: () => ({ input: { code }, ignored: [] }),
})

test('admit without a payment returns the challenge as data; answerOf makes it the 402', async () => {
  const r = request(null)
  const a = await admit(r, deps)
  expect(a).toEqual({ kind: 'challenge' })
  if (a.kind === 'admitted') throw new Error('unreachable')
  const res = answerOf(a, r, deps)
  expect(res.status).toBe(402)
  const required = decodeB64Json(res.headers.get('payment-required'))
  expect(required.accepts[0]).toMatchObject({ scheme: 'exact', amount: echo.amounts.flat, payTo: chain.payee.address })
})

test('admit refuses an undecodable payment with its x402 reason, and nothing is reserved', async () => {
  const a = await admit(request({ header: 'not base64 json', version: 2 }), deps)
  expect(a.kind).toBe('refused')
  if (a.kind !== 'refused') throw new Error('unreachable')
  expect(a.reason).toMatch(/^invalid_/)
  expect(await held()).toEqual([])
})

test('admitted -> a failed run -> finish releases it uncharged; the same payment then runs, settles once, and collects', async () => {
  const challenge = decodeB64Json(answerOf({ kind: 'challenge' }, request(null), deps).headers.get('payment-required'))
  const header = await signPayment({ key: chain.payer.privateKey as Hex, requirements: challenge.accepts[0] })
  const payment = { header, version: 2 as const }
  const payerBefore = await usdcBalance(chain.rpcUrl, chain.payer.address)

  const first = await admit(request(payment), deps)
  expect(first.kind).toBe('admitted')
  if (first.kind !== 'admitted') throw new Error('unreachable')
  expect((await held()).length).toBe(1)
  const failed = await finish(
    first.call,
    { ok: false, error: new ServiceError(502, 'UPSTREAM_ERROR', 'upstream down'), gone: false },
    deps,
  )
  expect(failed.status).toBe(502)
  expect(failed.headers.get('payment-response')).toBeNull()
  expect(await usdcBalance(chain.rpcUrl, chain.payer.address)).toBe(payerBefore)
  expect(await held()).toEqual([])

  const second = await admit(request(payment), deps)
  expect(second.kind).toBe('admitted')
  if (second.kind !== 'admitted') throw new Error('unreachable')
  const paid = await finish(second.call, { ok: true, out: { echo: 'DOORS', tier: 'flat' } }, deps)
  expect(paid.status).toBe(200)
  expect(await paid.json()).toEqual({ echo: 'DOORS', tier: 'flat' })
  const receipt = decodeB64Json(paid.headers.get('payment-response'))
  expect(receipt).toMatchObject({ success: true, network: 'eip155:8453' })
  expect(payerBefore - (await usdcBalance(chain.rpcUrl, chain.payer.address))).toBe(BigInt(echo.amounts.flat!))

  // The same payment for the same request again: its kept answer, nothing runs or settles again.
  const again = await admit(request(payment), deps)
  expect(again.kind).toBe('collected')
  if (again.kind !== 'collected') throw new Error('unreachable')
  const collected = answerOf(again, request(payment), deps)
  expect(collected.status).toBe(200)
  expect(await collected.json()).toEqual({ echo: 'DOORS', tier: 'flat' })
  expect(collected.headers.get('payment-response')).toBe(paid.headers.get('payment-response'))
})
