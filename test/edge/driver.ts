/**
 * The tests every proxy of docs/deploy.md passes (issue #33): Debian's nginx, Caddy or HAProxy with the doc's config
 * (test/support/proxy.ts) in front of the real server on the dev chain, and through it:
 * - the unpaid 402 of a few services (the catalog's largest one among them) arrives as the server sent it;
 * - the official `@x402/fetch` client pays them with `exact`, and a streamed model answer paid the same way reaches
 *   the client in pieces while the model is still paused, and a client that leaves a stream is heard by the server
 *   (the payment released, nothing moved);
 * - the official MCP SDK client lists the tools and pays tool calls (one streamed as progress notifications);
 * - the official `batch-settlement` client opens a channel (a deposit), pays vouchers (one streamed, so the next goes
 *   through the corrective 402), and takes the rest back with its cooperative refund;
 * - a body over the server's limit gets the server's 413 (the proxy's own cap is higher);
 * - `/health` answers through the proxy, and the proxy's own health probe (Caddy, HAProxy) gets the server's 200;
 * - with `TRUSTED_PROXIES=1` the client address is the one the proxy adds to X-Forwarded-For (the demo quota is
 *   counted per client behind one proxy, a forged header changes nothing);
 * then the books: payee's on-chain delta = exact + swept channel charges, /stats = the ledger.
 * A proxy that is not installed (no root or no apt-get for scripts/ensure-proxies.sh) is skipped with one message.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { PaymentPayload, PaymentRequired, SettleResponse } from '@x402/core/types'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { wrapFetchWithPayment } from '@x402/fetch'
import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { usdToAtomic } from '../../runtime/catalog/amount'
import { mcpClient } from '../mcp/client'
import {
  catalogCalls,
  catalogWorld,
  channelTally,
  closeBooks,
  exactProblems,
  movedBooks,
  officialClient,
  paidHttpCall,
  payEach,
  sum,
  type CatalogCall,
} from '../support/catalog-calls'
import { channelPayer, clientFor } from '../support/channels'
import { fundedPayer, startServerOnChain } from '../support/on-chain'
import { mppClient } from '../support/mpp'
import { Receipt } from 'mppx'
import {
  checkAsWritten,
  PROXY_CONFIG,
  proxyBinary,
  startProxy,
  type ProxyKind,
  type RunningProxy,
} from '../support/proxy'
import { rawHead, requestBytes } from '../support/raw-http'
import { decodeB64Json, post, type TestServer } from '../support/server'
import { sseReader } from '../support/sse'
import { until } from '../support/until'
import { postFrom, probeRecorder, sameOrigin } from './clients'

const root = join(import.meta.dir, '..', '..')
/** Each channel's deposit (CHANNEL_MIN_DEPOSIT_USD): it covers every voucher of the file. */
const DEPOSIT_USD = '0.1'

/** The tests of one proxy, for its own test file (test/edge/<proxy>.test.ts). */
export function proxyTests(kind: ProxyKind) {
  if (!proxyBinary(kind)) {
    const why = `${kind} is not installed (scripts/ensure-proxies.sh installs Debian's package, as root with apt-get): the tests behind ${kind} are skipped`
    console.warn(`[test/edge] ${why}`)
    test.skip(why, () => {})
    return
  }
  const all = catalogCalls()
  const call = (label: string) => all.find((c) => c.label === label)!
  const slugify = call('slugify')
  const explain = call('explain-code?tier=quick')

  let chain: DevChain
  let world: ReturnType<typeof catalogWorld>
  let s: TestServer
  let p: RunningProxy
  let payeeBefore: bigint
  let stopped = false
  /** The calls paid through the proxy: a utility, a model tier, and the service whose 402 is the largest. */
  let calls: CatalogCall[] = []
  let largest = { label: '', bytes: 0 }
  /** Each service's unpaid head in bytes. */
  const heads = new Map<string, number>()
  let deposit = 0n
  const moved = movedBooks()

  beforeAll(async () => {
    chain = await startDevChain()
    world = catalogWorld()
    payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
    s = await startServerOnChain(chain, {
      env: {
        ...world.env,
        CHANNEL_MIN_DEPOSIT_USD: DEPOSIT_USD,
        TRUSTED_PROXIES: '1',
        DEMO_SERVICE: 'slugify',
        DEMO_DAILY_LIMIT: '1',
        STREAM_HEARTBEAT_MS: '200',
      },
    })
    p = await startProxy(kind, new URL(s.url).host)
    // the largest unpaid 402 of the catalog: every service's head, as its bytes come off the server's socket
    const port = Number(new URL(s.url).port)
    for (const c of all.filter((c) => c.tier === 'quick' || !c.tiered)) {
      const head = await rawHead(port, requestBytes('POST', `/api/v1/${c.slug}`, { body: '{}' }))
      heads.set(c.slug, head.bytes)
      if (head.status === 402 && head.bytes > largest.bytes) largest = { label: c.label, bytes: head.bytes }
    }
    calls = [slugify, explain, ...(largest.label === slugify.label ? [] : [call(largest.label)])]
  })
  afterAll(async () => {
    if (!stopped) await s?.stop()
    await p?.stop()
    world?.close()
    await chain?.stop()
  })

  test(`docs/deploy.md shows ${PROXY_CONFIG[kind]} as the tests run it`, () => {
    const doc = readFileSync(join(root, 'docs/deploy.md'), 'utf8')
    expect(doc).toContain(readFileSync(join(root, PROXY_CONFIG[kind]), 'utf8'))
  })

  test(`${PROXY_CONFIG[kind]} as written (port 443, TLS) passes ${kind}'s own check with a throw-away certificate`, async () => {
    const checked = await checkAsWritten(kind)
    if (!checked)
      return console.warn(`[test/edge] openssl is not installed: ${PROXY_CONFIG[kind]} not checked as written`)
    expect(checked.output).not.toMatch(/\[(emerg|alert)\]|\[ALERT\]/)
    expect(checked.code).toBe(0)
  })

  test(`unpaid: the 402s (the catalog's largest among them) pass ${kind} as the server sent them`, async () => {
    expect(largest.bytes).toBeGreaterThan(0)
    const problems: string[] = []
    for (const c of calls) {
      const path = `/api/v1/${c.slug}${c.tiered ? `?tier=${c.tier}` : ''}`
      const input = world.stage(c)
      const direct = await post(s.url + path, input)
      const through = await post(p.url + path, input)
      const [a, b] = [await direct.json(), await through.json().catch(() => null)]
      const [ha, hb] = [decodeB64Json(direct.headers.get('payment-required')), through.headers.get('payment-required')]
      if (through.status !== 402 || !hb) {
        problems.push(`${c.label}: ${through.status} through ${kind} (a head of ${heads.get(c.slug)} bytes)`)
        continue
      }
      // the same header and body; only the resource URL names the address the client asked
      expect(sameOrigin(decodeB64Json(hb))).toEqual(sameOrigin(ha))
      expect(sameOrigin(b)).toEqual(sameOrigin(a))
    }
    // the official channel client's refund probe: a GET of the paid route, answered with the 402
    const probe = await fetch(`${p.url}/api/v1/${slugify.slug}`)
    if (probe.status !== 402) problems.push(`refund probe: ${probe.status} through ${kind}`)
    await probe.arrayBuffer()
    expect(problems).toEqual([])
  })

  test(`the official exact client pays through ${kind}`, async () => {
    const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
    const pay = wrapFetchWithPayment(
      fetch,
      officialClient(new ExactEvmScheme(privateKeyToAccount(chain.payer.privateKey)), calls),
    )
    await payEach(calls, (c, problems) => paidHttpCall(world, p.url, pay, c, problems), exactProblems)
    const prices = sum(calls.map((c) => c.price))
    expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - before).toBe(prices)
    moved.exact += prices
  }, 120_000)

  test(`MPP through ${kind}: mppx's client pays the same 402s with Authorization: Payment and gets its Payment-Receipt`, async () => {
    const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
    const payer = await fundedPayer(chain, 100_000_000n)
    const { fetch: pay, carried } = mppClient(payer.key)
    const problems: string[] = []
    for (const c of calls) {
      const input = world.stage(c)
      const url = `${p.url}/api/v1/${c.slug}${c.tiered ? `?tier=${c.tier}` : ''}`
      const res = await pay(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(input),
      })
      await res.arrayBuffer()
      const receipt = res.headers.get('payment-receipt')
      if (res.status !== 200 || !receipt) problems.push(`${c.label}: ${res.status} through ${kind}`)
      else if (!/^0x[0-9a-f]{64}$/.test(Receipt.deserialize(receipt).reference)) problems.push(`${c.label}: receipt`)
    }
    expect(problems).toEqual([])
    expect(carried.filter((x) => x === 'authorization: payment').length).toBe(calls.length)
    expect(carried).not.toContain('payment-signature')
    const prices = sum(calls.map((c) => c.price))
    expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - before).toBe(prices)
    moved.exact += prices
  }, 120_000)

  test(`a streamed model answer paid with exact arrives through ${kind} in pieces, before the model finishes`, async () => {
    const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
    world.stage(explain)
    world.model.reset()
    // the model pauses after its second chunk: the first piece is out, the second is held back by the server until
    // the model goes on (a client never has the whole answer before the model's answer is complete)
    world.model.reply({ stream: ['It ', 'adds two', ' numbers.'], hold: 2, tokens: 222 })
    const pay = wrapFetchWithPayment(
      fetch,
      officialClient(new ExactEvmScheme(privateKeyToAccount(chain.payer.privateKey)), calls),
    )
    const res = await pay(`${p.url}/api/v1/explain-code?tier=quick`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ code: 'const add = (a, b) => a + b' }),
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toStartWith('text/event-stream')
    const events = sseReader(res)
    // the first piece is here while the model is paused (it finishes only once released, below): the proxy passed
    // it on at once
    expect(await events.next()).toEqual({ event: 'delta', data: { text: 'It' } })
    expect(world.model.holding).toBe(true)
    // and the keep-alive comments while the model thinks
    expect((await events.next(true))?.event).toBe(':')
    expect(await usdcBalance(chain.rpcUrl, chain.payee.address)).toBe(before)
    world.model.release()
    const rest = await events.rest()
    const last = rest.at(-1)!
    expect(last.event).toBe('result')
    expect(last.data).toMatchObject({ result: 'It adds two numbers.', payment: { success: true } })
    expect(['It', ...rest.filter((e) => e.event === 'delta').map((e) => e.data.text)].join('')).toBe(last.data.result)
    expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - before).toBe(explain.price)
    moved.exact += explain.price
  }, 120_000)

  test(`a client that leaves a stream behind ${kind}: the server hears it, releases the payment, stops the model; no money moves`, async () => {
    const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
    const released = async () => (await s.booted.storage.ledger.byState(['released'])).length
    const releasedBefore = await released()
    world.stage(explain)
    world.model.reset()
    // paused after its second chunk, mid-answer (no finish reason yet): leaving cancels the call, nothing is charged
    world.model.reply({ stream: ['One ', 'two ', 'three'], hold: 2 })
    const pay = wrapFetchWithPayment(
      fetch,
      officialClient(new ExactEvmScheme(privateKeyToAccount(chain.payer.privateKey)), calls),
    )
    const ctl = new AbortController()
    const res = await pay(`${p.url}/api/v1/explain-code?tier=quick`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ code: 'y = 2' }),
      signal: ctl.signal,
    })
    const events = sseReader(res)
    expect((await events.next())?.data).toEqual({ text: 'One' })
    // the client leaves while the model is really paused, its answer incomplete
    expect(world.model.holding).toBe(true)
    ctl.abort()
    // the proxy closes its connection to the server, which releases the payment and aborts the model call
    await until(async () => (await released()) === releasedBefore + 1, 30_000, 'the payment released')
    await until(() => !world.model.holding, 30_000, 'the model call aborted')
    expect(await usdcBalance(chain.rpcUrl, chain.payee.address)).toBe(before)
  }, 120_000)

  test(`MCP through ${kind}: the official SDK client lists the tools and pays tool calls (one streamed as progress notifications)`, async () => {
    const c: Client = await mcpClient(p.url)
    try {
      const tools = (await c.listTools()).tools.map((t) => t.name)
      // the default list (~50 KB): the free tools, call_service and the featured services; every service answers
      // under its own name
      expect(tools).toEqual(expect.arrayContaining(['search_services', 'call_service', 'explain-code']))
      const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
      const client = officialClient(new ExactEvmScheme(privateKeyToAccount(chain.payer.privateKey)), calls)
      for (const [x, stream] of [
        [slugify, false],
        [explain, true],
      ] as const) {
        const input = world.stage(x)
        const args = x.tiered ? { ...input, tier: x.tier } : input
        const unpaid = await c.callTool({ name: x.slug, arguments: args })
        expect(unpaid.isError).toBe(true)
        const required = unpaid.structuredContent as PaymentRequired
        expect(required.accepts.map((a) => a.scheme)).toEqual(['exact', 'batch-settlement'])
        const payment = (await client.createPaymentPayload(required as never)) as PaymentPayload
        let progress = 0
        const r = await c.callTool(
          { name: x.slug, arguments: args, _meta: { 'x402/payment': payment } },
          undefined,
          stream ? { onprogress: () => void progress++ } : undefined,
        )
        expect(r.isError ?? false).toBe(false)
        expect((r._meta?.['x402/payment-response'] as SettleResponse | undefined)?.success).toBe(true)
        expect(world.problems(x)).toEqual([])
        if (stream) expect(progress).toBeGreaterThan(0)
      }
      const prices = slugify.price + explain.price
      expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - before).toBe(prices)
      moved.exact += prices
    } finally {
      await c.close()
    }
  }, 120_000)

  test(`a channel through ${kind}: the official client deposits, pays vouchers (one streamed, one corrected), then takes the rest back (cooperative refund)`, async () => {
    const payer = await channelPayer(chain, 2n * BigInt(usdToAtomic(Number(DEPOSIT_USD))))
    const scheme = clientFor(chain.rpcUrl, payer.key as Hex)
    // the paid requests' refusals the client saw (the corrective 402s), by reason
    const corrections: string[] = []
    const counting = async (input: RequestInfo | URL, init?: RequestInit) => {
      const res = await fetch(input, init)
      const paid = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined))
      if (res.status === 402 && paid.has('payment-signature'))
        corrections.push(decodeB64Json(res.headers.get('payment-required'))?.error)
      return res
    }
    const pay = wrapFetchWithPayment(counting as typeof fetch, officialClient(scheme, all))
    const tally = channelTally()
    // then the model tier again as a stream: the client reads no PAYMENT-RESPONSE on a stream, so its next voucher
    // (the last call) is behind and goes through the corrective 402, which must pass the proxy too
    const list = [...calls, explain, slugify]
    let n = 0
    await payEach(
      list,
      async (c, problems) => {
        const outcome = await paidHttpCall(world, p.url, pay, c, problems, n++ === calls.length)
        if (!deposit && outcome.response?.transaction) deposit = BigInt(outcome.response.amount ?? 0)
        return outcome
      },
      tally.check,
    )
    expect(corrections).toEqual(['invalid_batch_settlement_evm_cumulative_amount_mismatch'])
    moved.charged += tally.charged
    moved.channelCalls += list.length
    moved.channels++
    expect(deposit).toBe(BigInt(usdToAtomic(Number(DEPOSIT_USD))))
    // the refund: a GET probe (the 402), then the refund payload; the charged part is claimed, the rest returns
    const payerBefore = await usdcBalance(chain.rpcUrl, payer.account.address)
    const refunded = await scheme.refund(`${p.url}/api/v1/${slugify.slug}`)
    expect(refunded).toMatchObject({ success: true, amount: String(deposit - tally.charged) })
    expect((await usdcBalance(chain.rpcUrl, payer.account.address)) - payerBefore).toBe(deposit - tally.charged)
    expect(await s.booted.storage.channels.totals()).toMatchObject({ earned: tally.charged, claimed: tally.charged })
  }, 120_000)

  test(`/health answers through ${kind}${kind === 'nginx' ? '' : `, and ${kind}'s own health probe gets the server's 200`}`, async () => {
    const res = await fetch(`${p.url}/health`)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ status: 'ok' })
    // nginx (open source) has no active probe: a monitor or load balancer asks /health through it, as above
    if (kind === 'nginx') return
    const recorder = probeRecorder(s.url)
    const probed = await startProxy(kind, recorder.address)
    try {
      // the proxy's own requests carry no X-Forwarded-For (the requests it forwards for a client do)
      const probes = () => recorder.seen.filter((r) => !r.forwarded)
      await until(() => probes().length > 0, 30_000, `${kind} probing its upstream`)
      const probe = probes()[0]!
      expect(probe.path).toBe('/health')
      expect(probe).toMatchObject({ method: 'GET', status: 200 })
      // HAProxy's probe names the doc's host; Caddy's names the upstream's address
      expect(probe.host).toBe(kind === 'haproxy' ? 'api.example.com' : recorder.address)
      // the probed upstream stays in rotation
      expect((await fetch(`${probed.url}/health`)).status).toBe(200)
    } finally {
      await probed.stop()
      recorder.stop()
    }
  }, 60_000)

  test(`a body over the server's limit (1 MiB) passes ${kind} (its own cap, if any, is higher): the server's 413 in the one error shape`, async () => {
    const res = await post(`${p.url}/api/v1/${slugify.slug}`, { text: 'x'.repeat(1_500_000) })
    expect(res.status).toBe(413)
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('PAYLOAD_TOO_LARGE')
  })

  test(`TRUSTED_PROXIES=1 behind ${kind}: the client is the address the proxy adds to X-Forwarded-For`, async () => {
    const demo = `${p.url}/api/demo/explain`
    const input = slugify.entry.manifest.examples![0]!.input
    // one free demo call per client a day (DEMO_DAILY_LIMIT=1), counted per client although every request comes
    // from the proxy's address
    expect(await postFrom('127.0.0.2', demo, input)).toBe(200)
    expect(await postFrom('127.0.0.2', demo, input)).toBe(429)
    // a header the client forges does not make it another client
    expect(await postFrom('127.0.0.2', demo, input, { 'x-forwarded-for': '127.0.0.3' })).toBe(429)
    expect(await postFrom('127.0.0.3', demo, input)).toBe(200)
  })

  test(`the books after paying through ${kind}: channels claimed and swept at shutdown; payee delta = exact + swept, /stats = ledger`, async () => {
    expect(moved.exact).toBeGreaterThan(0n)
    expect(moved.channels).toBe(1)
    stopped = true
    await closeBooks(chain, s, moved, payeeBefore, deposit)
  }, 120_000)
}
