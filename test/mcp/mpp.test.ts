/**
 * MPP over MCP (draft-payment-transport-mcp-00) on the dev chain: mppx's own MCP client (`McpClient.wrap` around the
 * official SDK client, `evm` `charge`) pays tool calls with `_meta["org.paymentauth/credential"]` and reads the
 * receipt in `_meta["org.paymentauth/receipt"]`; the unpaid call's tool result keeps x402's PaymentRequired and adds
 * MPP's challenges; a refused MPP credential is a JSON-RPC error -32042 carrying fresh challenges of both protocols.
 * Books: payee delta = /stats revenue = ledger.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { Credential } from 'mppx'
import { evm } from 'mppx/client'
import { McpClient } from 'mppx/mcp/client'
import { privateKeyToAccount } from 'viem/accounts'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { fundedPayer, startServerOnChain, stopAndTally } from '../support/on-chain'
import type { TestServer } from '../support/server'
import { mcpClient, textJson } from './client'

let chain: DevChain
let s: TestServer
let c: Client
let payeeBefore: bigint
beforeAll(async () => {
  chain = await startDevChain()
  s = await startServerOnChain(chain, { env: { INVALID_PAYMENT_LIMIT: '0' } })
  c = await mcpClient(s.url, '?tools=all')
  payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
})
afterAll(async () => {
  await c?.close()
  await chain?.stop()
})

let expected = 0n

test("the unpaid tool call: x402's PaymentRequired as before, MPP's challenges beside it in _meta", async () => {
  const r = (await c.callTool({ name: 'slugify', arguments: { text: 'Hello MPP' } })) as any
  expect(r.isError).toBe(true)
  expect(r.structuredContent.accepts[0]).toMatchObject({ scheme: 'exact', network: 'eip155:8453' })
  const required = r._meta['org.paymentauth/payment-required']
  expect(required.httpStatus).toBe(402)
  expect(required.challenges).toHaveLength(1)
  expect(required.challenges[0]).toMatchObject({ method: 'evm', intent: 'charge' })
  expect(required.challenges[0].request).toMatchObject({ amount: '1000', methodDetails: { chainId: 8453 } })
})

test("mppx's MCP client pays tool calls with _meta credentials and gets MPP's receipt", async () => {
  const payer = await fundedPayer(chain, 1_000_000n)
  const sent: string[] = []
  const wrapped = McpClient.wrap(
    {
      callTool: (params: any, ...rest: any[]) => {
        sent.push(Object.keys(params._meta ?? {}).join() || 'none')
        return (c.callTool as any)(params, ...rest)
      },
    } as any,
    { methods: [evm.charge({ account: privateKeyToAccount(payer.key), currencies: [evm.assets.base.USDC] })] },
  )
  for (const [name, args] of [
    ['slugify', { text: 'Hello MPP over MCP' }],
    ['uuid-generate', {}],
  ] as const) {
    const r = (await wrapped.callTool({ name, arguments: args })) as any
    expect(r.isError).toBeUndefined()
    expect(textJson(r)).toBeTruthy()
    expect(r.receipt).toMatchObject({ method: 'evm', status: 'success', chainId: 8453 })
    expect(r.receipt.reference).toMatch(/^0x[0-9a-f]{64}$/)
    expect(r._meta['x402/payment-response']).toBeUndefined()
  }
  expect(sent).toEqual(['none', 'org.paymentauth/credential', 'none', 'org.paymentauth/credential'])
  const spent = 1_000_000n - (await usdcBalance(chain.rpcUrl, payer.address))
  expect(spent).toBeGreaterThan(0n)
  expected += spent
})

test('a used MPP credential over MCP: the same call collects its kept result; another call is JSON-RPC error -32042 with fresh challenges (both protocols), nothing moved', async () => {
  const payer = await fundedPayer(chain, 1_000_000n)
  const unpaid = (await c.callTool({ name: 'slugify', arguments: { text: 'once' } })) as any
  const challenge = unpaid._meta['org.paymentauth/payment-required'].challenges[0]
  const method = evm.charge({ account: privateKeyToAccount(payer.key), currencies: [evm.assets.base.USDC] })
  const credential = Credential.deserialize(await (method as any).createCredential({ challenge }))
  const call = (text = 'once') =>
    c.callTool({
      name: 'slugify',
      arguments: { text },
      _meta: { 'org.paymentauth/credential': credential },
    }) as Promise<any>
  const paid = await call()
  expect(paid._meta['org.paymentauth/receipt'].reference).toMatch(/^0x[0-9a-f]{64}$/)
  const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
  // The same call again collects its kept result with the same receipt; another call with it is refused.
  const collected = await call()
  expect(collected._meta['org.paymentauth/receipt']).toEqual(paid._meta['org.paymentauth/receipt'])
  expect(collected.content).toEqual(paid.content)
  const err = (await call('twice').catch((e) => e)) as any
  expect(err.code).toBe(-32042)
  expect(err.data.problem.type).toBe('https://paymentauth.org/problems/invalid-challenge')
  expect(err.data.challenges[0]).toMatchObject({ method: 'evm', intent: 'charge' })
  expect(err.data.challenges[0].id).not.toBe(challenge.id)
  expect(err.data['x402/error'].accepts[0].scheme).toBe('exact')
  expect(await usdcBalance(chain.rpcUrl, chain.payee.address)).toBe(before)
  // malformed: -32602
  const bad = (await c
    .callTool({ name: 'slugify', arguments: { text: 'x' }, _meta: { 'org.paymentauth/credential': { foo: 1 } } })
    .catch((e) => e)) as any
  expect(bad.code).toBe(-32602)
  expected += 1000n
})

test('books over MCP: payee delta = /stats revenue = ledger', async () => {
  const { delta, stats, ledger } = await stopAndTally(chain, [s], payeeBefore)
  expect(delta).toBe(expected)
  expect(stats).toBe(delta)
  expect(ledger).toBe(delta)
})
