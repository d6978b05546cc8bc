/**
 * The 402 fits a proxy's buffers (issue #33): the head of every answer that asks for payment (status line and every
 * header, as its bytes come off the socket up to the blank line) is at most 4096 bytes, what stock nginx reads an
 * upstream's head into (`proxy_buffer_size`, one 4 KB page; larger is a 502), with every scheme offered (`exact` and
 * `batch-settlement` on the dev chain, and `exact` on the embedded Solana dev chain after them). Walked over the whole catalog: each service and tier at both paths, the
 * channel refund probe (GET), a refused payment, and the corrective 402 of a channel, on the wire for one call and,
 * from its exact bytes, for every service. The unpaid 402 and a refused payment's carry MPP's `WWW-Authenticate:
 * Payment` challenge beside the x402 one, within the same 4 KB (docs/api.md, "The 402's size"); a channel's corrective
 * 402 answers in x402 only (its payer pays by channel; the corrective entry takes the room).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { wrapFetchWithPayment, x402Client } from '@x402/fetch'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { correctiveRequirements } from '../../runtime/pay/schemes/batch-settlement/doors'
import { channelScheme } from '../../runtime/pay/schemes/batch-settlement/scheme'
import { acceptsFor, challenge, PAYMENT_REQUIRED_BUDGET } from '../../runtime/pay/server/challenge'
import { REASON } from '../../runtime/pay/reasons'
import { clientFor, NETWORK } from '../support/channels'
import { withEcho } from '../support/extra-service'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai'
import { fundedPayer, startServerOnChain } from '../support/on-chain'
import { rawHead, requestBytes } from '../support/raw-http'
import { decodeB64Json, type TestServer } from '../support/server'
import { solanaEnv } from '../support/solana'
import { type SolanaDevChain, startSolanaDevChain } from '../../runtime/chain/solana/start'

/** What stock nginx, HAProxy's smallest setups and many CDNs read an answer's head into. */
const HEAD_LIMIT = 4096
/** MPP's challenge on the wire (`WWW-Authenticate: Payment …`), about 500 bytes (docs/api.md). */
const mppValue = (head: string) => /\r\nwww-authenticate: (Payment [^\r]*)\r\n/i.exec(head)?.[1] ?? ''

let chain: DevChain
let solana: SolanaDevChain
let model: FakeOpenAI
let s: TestServer
let port: number
beforeAll(async () => {
  chain = await startDevChain()
  solana = await startSolanaDevChain()
  model = startFakeOpenAI()
  s = await startServerOnChain(chain, {
    entries: withEcho(),
    env: {
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: 'test-key',
      INVALID_PAYMENT_LIMIT: '100000',
      CHANNEL_MIN_DEPOSIT_USD: '0.05',
      ...solanaEnv(solana),
    },
  })
  port = Number(new URL(s.url).port)
})
afterAll(async () => {
  await s?.stop()
  model?.close()
  await chain?.stop()
  await solana?.stop()
})

const prValue = (head: string) => /\r\npayment-required: ([^\r]*)\r\n/i.exec(head)?.[1] ?? ''
/** The first answer over `limit`, for a readable failure: the route and its size. */
const over = (seen: Array<[string, number]>, limit: number) => seen.filter(([, n]) => n > limit).slice(0, 1)

test('every unpaid 402 of the catalog fits 4 KB with MPP beside x402: each service and tier, both paths, and the refund probe', async () => {
  const seen: Array<[string, number]> = []
  let largest = 0
  let mppLargest = 0
  for (const svc of s.booted.services) {
    expect([svc.slug, svc.available]).toEqual([svc.slug, true])
    for (const tier of Object.keys(svc.pricing)) {
      const q = svc.manifest.kind === 'tiered' ? `?tier=${tier}` : ''
      const asks = [
        ...[`/api/v1/${svc.slug}`, `/api/${svc.slug}`].map((p) => requestBytes('POST', p + q, { body: '{}' })),
        requestBytes('GET', `/api/v1/${svc.slug}${q}`),
      ]
      for (const ask of asks) {
        const r = await rawHead(port, ask)
        const route = ask.slice(0, ask.indexOf(' HTTP/1.1'))
        expect([route, r.status]).toEqual([route, 402])
        expect([route, prValue(r.head).length <= PAYMENT_REQUIRED_BUDGET]).toEqual([route, true])
        expect([route, mppValue(r.head)]).toEqual([route, expect.stringContaining('method="evm", intent="charge"')])
        mppLargest = Math.max(mppLargest, mppValue(r.head).length)
        seen.push([route, r.bytes])
        largest = Math.max(largest, r.bytes)
      }
    }
  }
  expect(seen.length).toBeGreaterThan(3 * 113)
  expect(over(seen, HEAD_LIMIT)).toEqual([])
  expect(mppLargest).toBeLessThan(600)
  // Every scheme is in every one of them (a channel's entry is the larger), Solana's last.
  const one = decodeB64Json(
    prValue((await rawHead(port, requestBytes('POST', '/api/v1/slugify', { body: '{}' }))).head),
  )
  expect(one.accepts.map((a: { scheme: string; network: string }) => `${a.scheme} ${a.network}`)).toEqual([
    'exact eip155:8453',
    'batch-settlement eip155:8453',
    'exact solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
  ])
  console.log(`largest unpaid 402 head: ${largest} bytes (MPP's challenge: ${mppLargest}) over ${seen.length} answers`)
})

test('a refused payment gets a 402 that fits, for every service; the free demo and the other answers fit too', async () => {
  const seen: Array<[string, number]> = []
  for (const svc of s.booted.services) {
    const body = JSON.stringify(svc.manifest.examples?.[0]?.input ?? {})
    const ask = requestBytes('POST', `/api/v1/${svc.slug}`, { body, headers: { 'payment-signature': 'bm90IGpzb24=' } })
    const r = await rawHead(port, ask)
    expect([svc.slug, r.status]).toEqual([svc.slug, 402])
    expect(decodeB64Json(prValue(r.head)).error).toMatch(/^invalid_/)
    expect([svc.slug, mppValue(r.head)]).toEqual([svc.slug, expect.stringContaining('method="evm"')])
    seen.push([svc.slug, r.bytes])
  }
  for (const ask of [
    requestBytes('POST', '/api/demo/explain', { body: '{"code":"x"}' }),
    requestBytes('GET', '/services'),
    requestBytes('GET', '/health'),
  ])
    seen.push([ask.slice(0, 30), (await rawHead(port, ask)).bytes])
  expect(over(seen, HEAD_LIMIT)).toEqual([])
})

test("a channel's corrective 402 fits: on the wire, and with its entry and the longest reason for every service", async () => {
  // One channel paid by the official client; its paid request sent again after it was charged is the corrective 402.
  const payer = await fundedPayer(chain, 1_000_000n)
  let sent: Headers | undefined
  const recording = ((input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init)
    if (req.headers.has('payment-signature')) sent = req.headers
    return fetch(req)
  }) as typeof fetch
  const pay = wrapFetchWithPayment(recording, new x402Client().register(NETWORK, clientFor(chain.rpcUrl, payer.key)))
  const body = JSON.stringify({ code: 'budget' })
  const paid = await pay(`${s.url}/api/v1/test-echo`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  })
  expect(paid.status).toBe(200)
  await paid.text()
  const replay = requestBytes('POST', '/api/v1/test-echo', {
    body,
    headers: { 'payment-signature': sent!.get('payment-signature')! },
  })
  const wire = await rawHead(port, replay)
  expect(wire.status).toBe(402)
  const required = decodeB64Json(prValue(wire.head))
  expect(required.error).toBe(REASON.channelCumulativeMismatch)
  const entry = required.accepts.find((a: { scheme: string }) => a.scheme === 'batch-settlement')
  expect(entry.extra.channelState.chargedCumulativeAmount).toBe('4200')
  expect(entry.extra.voucherState.signature).toMatch(/^0x[0-9a-f]{130}$/)
  expect(wire.bytes).toBeLessThanOrEqual(HEAD_LIMIT)
  expect(mppValue(wire.head)).toBe('')

  // The same corrective data, with the longest reason this server sends, for every service and tier: the head is
  // the wire's other headers plus that PAYMENT-REQUIRED.
  const rest = wire.bytes - prValue(wire.head).length
  const longest = Object.values(REASON).reduce((a, b) => (b.length > a.length ? b : a))
  const { config } = s.booted
  const channels = s.booted.channels!
  const payTo = chain.payee.address
  const seen: Array<[string, number]> = []
  for (const svc of s.booted.services)
    for (const tier of Object.keys(svc.pricing) as Array<keyof typeof svc.pricing & string>) {
      const exact = acceptsFor(config, svc, tier as never, payTo)[0]
      const corrective = correctiveRequirements(channels.offer(exact)!, {
        ok: false,
        reason: longest,
        message: '',
        channelState: entry.extra.channelState,
        voucherState: entry.extra.voucherState,
      })
      const url = `${config.provider.apiBase}/api/v1/${svc.slug}?tier=${tier}`
      const offers = (base: (typeof exact)[]) => channelScheme(channels).offers!(base, corrective)
      const c = challenge(config, svc, tier as never, payTo, url, longest, offers)
      expect(decodeB64Json(c.header).accepts[1].extra.channelState).toEqual(entry.extra.channelState)
      seen.push([`${svc.slug} ${tier}`, rest + c.header.length])
    }
  expect(over(seen, HEAD_LIMIT)).toEqual([])
})
