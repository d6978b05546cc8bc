/**
 * Paid MCP tool calls on a real local Base replica (anvil, chain id 8453, Circle's FiatTokenV2_2 at the real
 * USDC address). The agent is the official MCP SDK client; payments are signed by @x402/evm's ExactEvmScheme
 * through x402Client.createPaymentPayload, exactly as @x402/mcp's client does. Balances are read from the chain.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { x402Client } from '@x402/fetch'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { createWalletClient, http, parseAbi, publicActions, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { fundPayer, startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { localBase, setEthBalance, USDC_BASE, usdcBalance } from '../../runtime/chain/usdc'
import type { Facilitator } from '../../runtime/pay/types'
import type { TestServer } from '../support/server'
import { chainFacilitator, startServerOnChain } from '../support/on-chain'
import { withEcho } from '../support/extra-service'
import { mcpClient, textJson } from './client'
import { sqliteOf } from '../../runtime/db/open'

let chain: DevChain
let s: TestServer
let c: Client
const counted = { verify: 0, settle: 0 }
/** A real on-chain action to run between verification and settlement (e.g. the payer spends the funds). */
let beforeSettle: (() => Promise<void>) | undefined

function countingFacilitator(inner: Facilitator): Facilitator {
  return {
    kind: inner.kind,
    verify: (p, r) => (counted.verify++, inner.verify(p, r)),
    settle: async (p, r, cb) => {
      counted.settle++
      await beforeSettle?.()
      return inner.settle(p, r, cb)
    },
    status: (tx, p, r) => inner.status(tx, p, r),
    balance: inner.balance,
  }
}

beforeAll(async () => {
  chain = await startDevChain()
  const facilitator = countingFacilitator(chainFacilitator(chain))
  s = await startServerOnChain(chain, {
    entries: withEcho(),
    facilitator,
    env: { INVALID_PAYMENT_LIMIT: '0' },
  })
  c = await mcpClient(s.url, '?tools=all')
  await c.listTools() // caches every outputSchema: the client then validates each structuredContent against it
})
afterAll(async () => {
  await c?.close()
  await s?.stop()
  await chain?.stop()
})

const balances = async () => ({
  payer: await usdcBalance(chain.rpcUrl, chain.payer.address),
  payee: await usdcBalance(chain.rpcUrl, chain.payee.address),
})
const payerFor = (key: Hex) => new x402Client().register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(key)))

/** The x402 MCP flow: call unpaid, read the PaymentRequired from structuredContent, sign it, return the payload. */
async function paymentFor(name: string, args: Record<string, unknown>, key = chain.payer.privateKey as Hex) {
  const unpaid = await c.callTool({ name, arguments: args })
  expect(unpaid.isError).toBe(true)
  return payerFor(key).createPaymentPayload(unpaid.structuredContent as never)
}
const paidCall = (name: string, args: Record<string, unknown>, payment: unknown) =>
  c.callTool({ name, arguments: args, _meta: { 'x402/payment': payment } })

/** The money invariant after every test that may move money: payee's on-chain balance = ledger settled = /stats revenue. */
async function expectBooksBalance() {
  const stats = (await (await fetch(s.url + '/stats')).json()) as any
  const settled = sqliteOf(s.booted).ledger.settledTotal()
  expect(BigInt(Math.round(stats.totals.revenue_usd * 1e6))).toBe(settled)
  expect(await usdcBalance(chain.rpcUrl, chain.payee.address)).toBe(settled)
}

describe('paid tool calls over MCP', () => {
  test('a paid call returns the result, the SettleResponse in _meta, and moves exactly the price', async () => {
    const before = await balances()
    const payment = await paymentFor('slugify', { text: 'Paid, over MCP!' })
    const r = await paidCall('slugify', { text: 'Paid, over MCP!' }, payment)
    expect(r.isError).toBeFalsy()
    expect(r.structuredContent).toEqual({ slug: 'paid-over-mcp', length: 13 })
    expect(textJson(r)).toEqual({ slug: 'paid-over-mcp', length: 13 })
    const receipt = r._meta?.['x402/payment-response'] as any
    expect(receipt).toMatchObject({ success: true, network: 'eip155:8453', payer: chain.payer.address })
    expect(receipt.transaction).toMatch(/^0x[0-9a-f]{64}$/)
    const after = await balances()
    expect(before.payer - after.payer).toBe(1000n)
    expect(after.payee - before.payee).toBe(1000n)
    expect(
      sqliteOf(s.booted)
        .ledger.byState(['settled'])
        .find((x) => x.tx_hash === receipt.transaction),
    ).toMatchObject({
      slug: 'slugify',
      amount: '1000',
    })
    const signature = (payment.payload as { signature: string }).signature
    expect(s.logs.join('\n')).not.toContain(signature)
    await expectBooksBalance()
  })

  test('a tiered tool charges the tier in its arguments and answers a ServiceResponse', async () => {
    const before = await balances()
    const args = { code: 'a\nb', tier: 'quick' }
    const r = await paidCall('test-explain', args, await paymentFor('test-explain', args))
    expect(r.isError).toBeFalsy()
    expect(r.structuredContent).toMatchObject({
      service: 'test-explain',
      tier: 'quick',
      result: 'This 2-line snippet was explained at the quick tier.',
      tokens_used: 7,
    })
    const after = await balances()
    expect(before.payer - after.payer).toBe(10000n)
    expect(after.payee - before.payee).toBe(10000n)
    await expectBooksBalance()
  })

  test('the same payment replayed with other arguments is refused with a reason; money moved once', async () => {
    const payment = await paymentFor('test-echo', { code: 'once' })
    const first = await paidCall('test-echo', { code: 'once' }, payment)
    expect(first.structuredContent).toEqual({ echo: 'ONCE', tier: 'flat' })
    const before = await balances()
    const settles = counted.settle
    const again = await paidCall('test-echo', { code: 'twice' }, payment)
    expect(again.isError).toBe(true)
    const pr = again.structuredContent as any
    expect(pr).toMatchObject({ x402Version: 2, error: 'authorization_already_used' })
    expect(pr.accepts[0].amount).toBe('4200')
    expect(textJson(again)).toEqual(pr)
    expect(JSON.stringify(again)).not.toContain('TWICE')
    expect(again._meta?.['x402/payment-response']).toBeUndefined()
    expect(counted.settle).toBe(settles)
    expect(await balances()).toEqual(before)
    await expectBooksBalance()
  })

  test('10 parallel tool calls with one payment: exactly one result, one transfer', async () => {
    const payment = await paymentFor('test-echo', { code: 'race' })
    const before = await balances()
    const settles = counted.settle
    const rs = await Promise.all(
      Array.from({ length: 10 }, (_, i) => paidCall('test-echo', { code: `race ${i}` }, payment)),
    )
    const ok = rs.filter((r) => !r.isError)
    expect(ok.length).toBe(1)
    expect((ok[0].structuredContent as any).echo).toMatch(/^RACE \d$/)
    for (const r of rs.filter((x) => x.isError))
      expect((r.structuredContent as any).error).toBe('authorization_already_used')
    expect(counted.settle - settles).toBe(1)
    const after = await balances()
    expect(before.payer - after.payer).toBe(4200n)
    expect(after.payee - before.payee).toBe(4200n)
    await expectBooksBalance()
  })

  test('invalid arguments with a valid payment are refused before verification; nothing moves', async () => {
    const payment = await paymentFor('slugify', { text: 'ok' })
    const before = await balances()
    const verifies = counted.verify
    const r = await paidCall('slugify', { text: 42 }, payment)
    expect(r.isError).toBe(true)
    const body = r.structuredContent as any
    expect(body.error.code).toBe('INVALID_INPUT')
    expect(body.error.details[0].path).toBe('/text')
    expect(counted.verify).toBe(verifies)
    expect(await balances()).toEqual(before)
    // the authorization was never used: the same payment still pays for a valid call
    const ok = await paidCall('slugify', { text: 'ok' }, payment)
    expect(ok.structuredContent).toEqual({ slug: 'ok', length: 2 })
    expect(before.payer - (await balances()).payer).toBe(1000n)
    await expectBooksBalance()
  })

  test('a handler failure is an isError result with the HTTP code, and the payment is not settled', async () => {
    const payment = await paymentFor('test-echo', { code: 'fail' })
    const before = await balances()
    const r = await paidCall('test-echo', { code: 'fail' }, payment)
    expect(r.isError).toBe(true)
    expect((r.structuredContent as any).error.code).toBe('INVALID_INPUT')
    expect(r._meta?.['x402/payment-response']).toBeUndefined()
    expect(await balances()).toEqual(before)
    await expectBooksBalance()
  })

  test('a payer without USDC gets PaymentRequired with the reason and no result', async () => {
    const poor = generatePrivateKey()
    const before = await balances()
    const payment = await paymentFor('test-echo', { code: 'free lunch' }, poor)
    const r = await paidCall('test-echo', { code: 'free lunch' }, payment)
    expect(r.isError).toBe(true)
    const pr = r.structuredContent as any
    expect(pr.x402Version).toBe(2)
    expect(pr.error).toBe('invalid_exact_evm_insufficient_balance')
    expect(pr.accepts[0]).toMatchObject({ amount: '4200', payTo: chain.payee.address })
    expect(JSON.stringify(r)).not.toContain('FREE LUNCH')
    expect(await usdcBalance(chain.rpcUrl, privateKeyToAccount(poor).address)).toBe(0n)
    expect(await balances()).toEqual(before)
    await expectBooksBalance()
  })

  test('a malformed payment in _meta is refused as a payment, never run', async () => {
    const before = await balances()
    for (const bad of ['not-an-object', { x402Version: 2 }, 12]) {
      const r = await paidCall('test-echo', { code: 'junk' }, bad)
      expect(r.isError).toBe(true)
      expect((r.structuredContent as any).x402Version).toBe(2)
      expect(typeof (r.structuredContent as any).error).toBe('string')
      expect(JSON.stringify(r)).not.toContain('JUNK')
    }
    expect(await balances()).toEqual(before)
    await expectBooksBalance()
  })

  test('HTTP and MCP share one replay lock: a payment used over HTTP is refused over MCP', async () => {
    const payment = await paymentFor('test-echo', { code: 'http' })
    const header = Buffer.from(JSON.stringify(payment)).toString('base64')
    const http = await fetch(s.url + '/api/v1/test-echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'payment-signature': header },
      body: JSON.stringify({ code: 'http' }),
    })
    expect(http.status).toBe(200)
    const before = await balances()
    const r = await paidCall('test-echo', { code: 'mcp' }, payment)
    expect((r.structuredContent as any).error).toBe('authorization_already_used')
    expect(await balances()).toEqual(before)
    await expectBooksBalance()
  })

  test('a settlement that fails after the tool ran withholds the result: PaymentRequired with the failed SettleResponse', async () => {
    const key = generatePrivateKey()
    const payer = privateKeyToAccount(key)
    await fundPayer(chain, payer.address, 4200n)
    await setEthBalance(chain.rpcUrl, payer.address, 10n ** 17n)
    const payment = await paymentFor('test-echo', { code: 'spent' }, key)
    const sink = privateKeyToAccount(generatePrivateKey()).address
    const wallet = createWalletClient({
      chain: localBase(chain.rpcUrl),
      transport: http(chain.rpcUrl),
      account: payer,
      pollingInterval: 20,
    }).extend(publicActions)
    // between verification and settlement the payer moves the funds away, on chain
    beforeSettle = async () => {
      const hash = await wallet.writeContract({
        address: USDC_BASE,
        abi: parseAbi(['function transfer(address to, uint256 value) returns (bool)']),
        functionName: 'transfer',
        args: [sink, 4200n],
      })
      await wallet.waitForTransactionReceipt({ hash })
    }
    const before = await balances()
    try {
      const r = await paidCall('test-echo', { code: 'spent' }, payment)
      expect(r.isError).toBe(true)
      const pr = r.structuredContent as any
      expect(pr.x402Version).toBe(2)
      expect(pr['x402/payment-response']).toMatchObject({ success: false })
      expect(typeof pr['x402/payment-response'].errorReason).toBe('string')
      expect(r._meta?.['x402/payment-response']).toEqual(pr['x402/payment-response'])
      expect(JSON.stringify(r)).not.toContain('SPENT')
    } finally {
      beforeSettle = undefined
    }
    expect(await usdcBalance(chain.rpcUrl, sink)).toBe(4200n)
    expect(await balances()).toEqual(before)
    await expectBooksBalance()
  })
})
