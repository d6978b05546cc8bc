/**
 * Streamed model answers over the real paid route (docs/streaming.md): the official @x402/fetch client pays on the
 * dev chain, the loopback OpenAI-compatible server streams chunks and pauses where the test says. The first delta
 * reaches the client while the model is still paused; the result equals the deltas; money moves once, after the
 * result; a broken model stream or a client that leaves moves nothing; every paid answer carries a signed receipt.
 */
import { afterAll, beforeAll, beforeEach, expect, test } from 'bun:test'
import { createWalletClient, http, parseAbi, publicActions, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { extractReceiptFromResponse, verifyReceiptSignatureJWS } from '@x402/extensions/offer-receipt'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { localBase, setEthBalance, USDC_BASE, usdcBalance } from '../../runtime/chain/usdc'
import { post, requirementsAt, type TestServer } from '../support/server'
import { fundedPayer, startServerOnChain, stopAndTally } from '../support/on-chain'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai'
import { payingFetch } from '../support/paying-fetch'
import { sseReader } from '../support/sse'
import { mppClient } from '../support/mpp'
import { until } from '../support/until'

let chain: DevChain
let fake: FakeOpenAI
let s: TestServer
let payeeBefore: bigint
/** What the successful calls of this file cost (their 402 prices). */
let expected = 0n
const priced = async (url: string) => {
  expected += BigInt((await requirementsAt(url)).amount)
  return url
}
beforeAll(async () => {
  chain = await startDevChain()
  fake = startFakeOpenAI()
  s = await startServerOnChain(chain, {
    env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'test-key', STREAM_HEARTBEAT_MS: '40' },
  })
  payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
})
afterAll(async () => {
  fake?.release()
  const books = await stopAndTally(chain, [s], payeeBefore)
  expect(expected).toBeGreaterThan(0n)
  expect(books).toEqual({ delta: expected, stats: expected, ledger: expected })
  fake?.close()
  await chain?.stop()
})
beforeEach(() => fake.reset())

const pay = () => payingFetch(chain.payer.privateKey as Hex)
const streamed = (body: unknown, signal?: AbortSignal) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
  body: JSON.stringify(body),
  signal,
})
const payee = () => usdcBalance(chain.rpcUrl, chain.payee.address)
const released = async () => (await s.booted.storage.ledger.byState(['released'])).length

test('explain-code streams: the first delta arrives while the model is paused; result = deltas; paid once, after', async () => {
  fake.reply({ stream: ['It ', 'adds two', ' numbers.'], hold: 2, tokens: 222 }) // (the last chunk sent is held back)
  const before = await payee()
  const url = await priced(s.url + '/api/v1/explain-code?tier=quick')
  const r = await pay()(url, streamed({ code: 'const add = (a, b) => a + b' }))
  expect(r.status).toBe(200)
  expect(r.headers.get('content-type')).toStartWith('text/event-stream')
  expect(r.headers.get('payment-response')).toBeNull() // headers go out before settlement: the receipt comes last
  const events = sseReader(r)
  expect(await events.next()).toEqual({ event: 'delta', data: { text: 'It' } })
  // The client holds the first delta while the model has not finished: nothing is settled yet.
  expect(fake.holding).toBe(true)
  expect(await payee()).toBe(before)
  // Idle while the model thinks: keep-alive comments.
  expect((await events.next(true))?.event).toBe(':')
  fake.release()
  const rest = await events.rest()
  const deltas = rest.filter((e) => e.event === 'delta').map((e) => e.data.text)
  const last = rest.at(-1)!
  expect(rest.filter((e) => e.event === 'result')).toHaveLength(1)
  expect(last.event).toBe('result')
  expect(last.data).toMatchObject({
    service: 'explain-code',
    tier: 'quick',
    result: 'It adds two numbers.',
    tokens_used: 222,
    request_id: expect.stringMatching(/^req_/),
    payment: { success: true, network: 'eip155:8453', payer: chain.payer.address },
  })
  expect(['It', ...deltas].join('')).toBe(last.data.result)
  expect((await payee()) - before).toBe(10_000n)
  expect(fake.requests[0].stream).toBe(true)
  expect(fake.requests[0].stream_options).toEqual({ include_usage: true })
  // The signed receipt is in the final event's settlement response and verifies with the extension's verifier.
  const receipt = last.data.payment.extensions['offer-receipt'].info.receipt
  const did = (await (await fetch(s.url + '/.well-known/did.json')).json()) as any
  const payload = (await verifyReceiptSignatureJWS(receipt, did.verificationMethod[0].publicKeyJwk)) as any
  expect(payload).toMatchObject({
    service: 'explain-code',
    tier: 'quick',
    amount: '10000',
    payer: chain.payer.address,
    network: 'eip155:8453',
    transaction: last.data.payment.transaction,
    resourceUrl: expect.stringContaining('/api/v1/explain-code?tier=quick'),
    requestHash: expect.stringMatching(/^[0-9a-f]{64}$/),
  })
})

test('a model stream that breaks before its first chunk is a plain 502; nothing is charged', async () => {
  fake.reply({ stream: ['never'], breakAfter: 0 })
  const before = await payee()
  const r = await pay()(s.url + '/api/v1/explain-code?tier=quick', streamed({ code: 'x = 0' }))
  expect(r.status).toBe(502)
  expect(r.headers.get('content-type')).toStartWith('application/json')
  expect(((await r.json()) as any).error).toMatchObject({ code: 'UPSTREAM_ERROR', upstream: 'model' })
  expect(await payee()).toBe(before)
})

test('a model stream that breaks off: deltas, then one error event; nothing is charged', async () => {
  fake.reply({ stream: ['Half ', 'an ', 'answer'], hold: 2, breakAfter: 2 })
  const before = await payee()
  const releasedBefore = await released()
  const r = await pay()(s.url + '/api/v1/explain-code?tier=quick', streamed({ code: 'x = 1' }))
  expect(r.status).toBe(200)
  const events = sseReader(r)
  expect((await events.next())?.data).toEqual({ text: 'Half' })
  await fake.held()
  fake.release()
  const all = await events.rest()
  // the last chunk received (' an') was held back for the model's finish, which never came: not delivered
  expect(all.filter((e) => e.event === 'delta').map((e) => e.data.text)).toEqual([])
  expect(all.at(-1)).toMatchObject({ event: 'error', data: { error: { code: 'UPSTREAM_ERROR', upstream: 'model' } } })
  expect(all.some((e) => e.event === 'result')).toBe(false)
  expect(await released()).toBe(releasedBefore + 1)
  expect(await payee()).toBe(before)
})

test('a client that disconnects mid-stream stops the call; the payment is released, nothing moves', async () => {
  fake.reply({ stream: ['One ', 'two ', 'three'], hold: 2 })
  const before = await payee()
  const releasedBefore = await released()
  const ctl = new AbortController()
  const r = await pay()(s.url + '/api/v1/explain-code?tier=quick', streamed({ code: 'y = 2' }, ctl.signal))
  const events = sseReader(r)
  expect((await events.next())?.data).toEqual({ text: 'One' })
  ctl.abort()
  await until(async () => (await released()) === releasedBefore + 1, 30_000, 'the payment released')
  // The model call was stopped too: the paused fake saw its connection go.
  await until(() => !fake.holding, 30_000, 'the model call aborted')
  expect(await payee()).toBe(before)
})

test('the payer spends its funds while the model writes: settlement fails, one SETTLEMENT_FAILED event, no money', async () => {
  const url = s.url + '/api/v1/explain-code?tier=quick'
  const price = BigInt((await requirementsAt(url)).amount)
  const payer = await fundedPayer(chain, price)
  await setEthBalance(chain.rpcUrl, payer.address, 10n ** 17n)
  fake.reply({ stream: ['Spent ', 'already', '.'], hold: 2 })
  const before = await payee()
  const r = await payingFetch(payer.key)(url, streamed({ code: 'spend()' }))
  const events = sseReader(r)
  expect((await events.next())?.data).toEqual({ text: 'Spent' })
  // Verified and reserved, the model still writing: the payer moves every unit away, on chain.
  const wallet = createWalletClient({
    chain: localBase(chain.rpcUrl),
    transport: http(chain.rpcUrl),
    account: privateKeyToAccount(payer.key),
    pollingInterval: 20,
  }).extend(publicActions)
  const sink = privateKeyToAccount(generatePrivateKey()).address
  const hash = await wallet.writeContract({
    address: USDC_BASE,
    abi: parseAbi(['function transfer(address to, uint256 value) returns (bool)']),
    functionName: 'transfer',
    args: [sink, price],
  })
  await wallet.waitForTransactionReceipt({ hash })
  fake.release()
  const last = (await events.rest()).at(-1)!
  expect(last).toMatchObject({ event: 'error', data: { error: { code: 'SETTLEMENT_FAILED' } } })
  expect(await payee()).toBe(before)
  expect(await usdcBalance(chain.rpcUrl, sink)).toBe(price)
})

test('a structured service streams the model JSON as it is produced; the result is its rendering', async () => {
  const review = {
    summary: 'Small and fine.',
    score: 8,
    findings: [
      { severity: 'LOW', title: 'Naming', location: 'line 1', description: 'Short name.', suggestion: 'Rename it.' },
    ],
    security_notes: [],
    performance_notes: [],
  }
  const text = JSON.stringify(review)
  const pieces = [text.slice(0, 20), text.slice(20, 60), text.slice(60)]
  fake.reply({ stream: pieces, hold: 2 })
  const r = await pay()(await priced(s.url + '/api/v1/code-review'), streamed({ code: 'let x = 1' }))
  const events = sseReader(r)
  expect((await events.next())?.data.text).toBe(pieces[0])
  expect(fake.holding).toBe(true)
  fake.release()
  const rest = await events.rest()
  const last = rest.at(-1)!
  expect(last.event).toBe('result')
  expect([pieces[0], ...rest.filter((e) => e.event === 'delta').map((e) => e.data.text)].join('')).toBe(text)
  expect(last.data.result).toContain('**Quality score: 8/10**')
  expect(last.data.payment.success).toBe(true)
})

test('32k tokens streamed: memory stays flat (retained heap and RSS growth bounded), every delta arrives, paid once', async () => {
  const count = 32_000
  fake.reply({ stream: { text: 'tok ', count }, tokens: 33_000 })
  const retained = () => {
    Bun.gc(true)
    return process.memoryUsage().heapUsed
  }
  const rss0 = process.memoryUsage().rss
  const r = await pay()(await priced(s.url + '/api/v1/explain-code?tier=pro'), streamed({ code: 'while (true) {}' }))
  const events = sseReader(r)
  let chars = 0
  let deltas = 0
  const heap: number[] = []
  let last
  for (let e = await events.next(); e; e = await events.next()) {
    if (e.event === 'delta') {
      chars += e.data.text.length
      if (++deltas % 8000 === 0) heap.push(retained())
    }
    last = e
  }
  const rss = process.memoryUsage().rss - rss0
  expect(last?.event).toBe('result')
  expect(chars).toBe(count * 4 - 1) // the trailing space is trimmed, like the result
  expect(last!.data.result.length).toBe(chars)
  expect(heap.length).toBeGreaterThanOrEqual(3)
  // What stays alive from 8k to 32k tokens is the answer text itself (~100 KB), never a copy per delta or frame.
  expect(heap.at(-1)! - heap[0]!).toBeLessThan(8 * 1024 * 1024)
  expect(rss).toBeLessThan(128 * 1024 * 1024)
})

test('a JSON call (no Accept: text/event-stream) is unchanged and carries the signed receipt too', async () => {
  fake.reply({ text: 'Plain JSON.' })
  const r = await pay()(await priced(s.url + '/api/v1/explain-code?tier=quick'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code: 'z = 3' }),
  })
  expect(r.status).toBe(200)
  expect(((await r.json()) as any).result).toBe('Plain JSON.')
  expect(fake.requests[0].stream).toBeUndefined()
  const receipt = extractReceiptFromResponse(r)!
  expect(receipt.format).toBe('jws')
  const v = (await (await post(s.url + '/receipts/verify', { receipt })).json()) as any
  expect(v).toMatchObject({ valid: true, payload: { service: 'explain-code', amount: '10000' } })
  // One character of the payload changed: the signature no longer holds.
  const [h, p, sig] = (receipt as { signature: string }).signature.split('.')
  const claims = JSON.parse(Buffer.from(p!, 'base64url').toString())
  const forged = Buffer.from(JSON.stringify({ ...claims, amount: '1' })).toString('base64url')
  const tampered = { format: 'jws', signature: `${h}.${forged}.${sig}` }
  expect(((await (await post(s.url + '/receipts/verify', { receipt: tampered })).json()) as any).valid).toBe(false)
  const did = (await (await fetch(s.url + '/.well-known/did.json')).json()) as any
  await expect(verifyReceiptSignatureJWS(tampered as never, did.verificationMethod[0].publicKeyJwk)).rejects.toThrow()
})

test('the free demo streams too, with its quota in the result', async () => {
  fake.reply({ stream: ['A ', 'dem', 'o.'], hold: 2 })
  const r = await post(s.url + '/api/demo/explain', { code: 'print(1)' }, { accept: 'text/event-stream' })
  expect(r.status).toBe(200)
  const events = sseReader(r)
  expect((await events.next())?.data).toEqual({ text: 'A' })
  expect(fake.holding).toBe(true)
  fake.release()
  const last = (await events.rest()).at(-1)!
  expect(last).toMatchObject({ event: 'result', data: { result: 'A demo.', demo: { limit: 5 } } })
})

test("MPP: mppx's client pays a streamed answer with Authorization: Payment; the result event carries MPP's receipt", async () => {
  fake.reply({ stream: ['It ', 'adds', '.'], tokens: 99 })
  const url = await priced(`${s.url}/api/v1/explain-code?tier=quick`)
  const payer = await fundedPayer(chain, 10_000_000n)
  const { fetch: mppPay, carried } = mppClient(payer.key)
  const before = await payee()
  const r = await mppPay(url, streamed({ code: 'const add = (a, b) => a + b' }))
  expect(r.status).toBe(200)
  expect(r.headers.get('content-type')).toStartWith('text/event-stream')
  const all = await sseReader(r).rest()
  const last = all.at(-1)!
  expect(last.event).toBe('result')
  expect(last.data.result).toBe('It adds.')
  // settled after the complete result: MPP's receipt (not x402's settlement response) in the result event
  expect(last.data.payment).toMatchObject({ method: 'evm', status: 'success', chainId: 8453 })
  expect(last.data.payment.reference).toMatch(/^0x[0-9a-f]{64}$/)
  expect(last.data.payment.extensions['offer-receipt'].info.receipt).toBeTruthy()
  expect(carried).toEqual(['none', 'authorization: payment'])
  expect((await payee()) - before).toBe(BigInt((await requirementsAt(url)).amount))
})
