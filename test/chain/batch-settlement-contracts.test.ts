/**
 * Conformance of our batch-settlement contracts (contracts/src, written from the x402 scheme's spec) with the
 * official packages, unmodified: the official client (@x402/fetch + @x402/evm batch-settlement client) pays an
 * official server (@x402/express paymentMiddleware + @x402/evm batch-settlement server) whose official facilitator
 * (@x402/core x402Facilitator + @x402/evm batch-settlement facilitator) deposits, claims, sweeps and refunds on the
 * dev chain, where `startDevChain` installed our contracts at the canonical addresses. Plus the payer's timed
 * withdrawal, and each transaction's gas against the reference's published figures (within 20 %).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import express from 'express'
import type { Server } from 'node:http'
import { x402Facilitator } from '@x402/core/facilitator'
import { toClientEvmSigner, toFacilitatorEvmSigner } from '@x402/evm'
import { BatchSettlementEvmScheme as FacilitatorScheme } from '@x402/evm/batch-settlement/facilitator'
import { BatchSettlementEvmScheme as ServerScheme } from '@x402/evm/batch-settlement/server'
import { BatchSettlementEvmScheme as ClientScheme } from '@x402/evm/batch-settlement/client'
import { paymentMiddleware, x402ResourceServer } from '@x402/express'
import { wrapFetchWithPayment, x402Client } from '@x402/fetch'
import { createWalletClient, http, publicActions, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { BATCH_SETTLEMENT, ERC3009_DEPOSIT_COLLECTOR, MULTICALL3 } from '../../runtime/chain/addresses'
import { abiOf } from '../../runtime/chain/contracts'
import { fundPayer, startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { localBase, setEthBalance, usdcBalance } from '../../runtime/chain/usdc'

const NETWORK = 'eip155:8453'
const PRICE = 1000n // $0.001
const settlementAbi = abiOf('X402BatchSettlement')

let chain: DevChain
let httpServer: Server
let url: string
let serverScheme: ServerScheme
let facilitator: x402Facilitator
const receiverAuthorizer = privateKeyToAccount(generatePrivateKey())

const wallet = (key: Hex) => {
  const account = privateKeyToAccount(key)
  return createWalletClient({
    chain: localBase(chain.rpcUrl),
    transport: http(chain.rpcUrl),
    account,
    pollingInterval: 20,
  }).extend(publicActions)
}

/**
 * A transaction's gas as the reference's Foundry snapshot counts it: execution only, without the 21,000 base cost and
 * the calldata cost of the transaction itself (`total` is what the sender paid for).
 */
async function gasOf(hash: string): Promise<{ total: bigint; execution: bigint }> {
  const w = wallet(chain.settler.privateKey)
  const [receipt, tx] = await Promise.all([
    w.getTransactionReceipt({ hash: hash as Hex }),
    w.getTransaction({ hash: hash as Hex }),
  ])
  const bytes = Buffer.from(tx.input.slice(2), 'hex')
  const calldata = bytes.reduce((sum, b) => sum + (b === 0 ? 4n : 16n), 0n)
  return { total: receipt.gasUsed, execution: receipt.gasUsed - 21_000n - calldata }
}

/** At most 20 % above a figure of the reference's published gas snapshot (execution gas; cheaper is fine). */
const within = (g: { execution: bigint }, published: number) => Number(g.execution) <= published * 1.2

const facilitatorClient = () => ({
  verify: (p: never, r: never) => facilitator.verify(p, r),
  settle: (p: never, r: never) => facilitator.settle(p, r),
  getSupported: async () => facilitator.getSupported(),
})

beforeAll(async () => {
  chain = await startDevChain()
  const w = wallet(chain.settler.privateKey)
  facilitator = new x402Facilitator().register(
    NETWORK,
    new FacilitatorScheme(toFacilitatorEvmSigner({ ...w, address: w.account.address } as never)),
  )
  serverScheme = new ServerScheme(chain.payee.address, {
    receiverAuthorizerSigner: receiverAuthorizer as never,
    withdrawDelay: 900,
  })
  const resourceServer = new x402ResourceServer(facilitatorClient() as never).register(NETWORK, serverScheme)
  const accepts = { scheme: 'batch-settlement', price: '$0.001', network: NETWORK, payTo: chain.payee.address }
  const app = express()
  app.use(express.json())
  app.use(
    paymentMiddleware(
      {
        'POST /paid': { accepts, description: 'paid', mimeType: 'application/json' },
        'GET /paid': { accepts, description: 'paid', mimeType: 'application/json' },
      } as never,
      resourceServer,
    ),
  )
  app.all('/paid', (_req, res) => {
    res.json({ ok: true })
  })
  httpServer = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s))
  })
  const addr = httpServer.address() as { port: number }
  url = `http://127.0.0.1:${addr.port}/paid`
})

afterAll(async () => {
  httpServer?.close()
  await chain?.stop()
})

/** A fresh payer with `usdc` atomic USDC and the official client paying with batch-settlement. */
async function payer(usdc: bigint) {
  const key = generatePrivateKey()
  const account = privateKeyToAccount(key)
  await Promise.all([fundPayer(chain, account.address, usdc), setEthBalance(chain.rpcUrl, account.address, 10n ** 17n)])
  const scheme = new ClientScheme(toClientEvmSigner(account, wallet(key) as never), {
    depositPolicy: { depositMultiplier: 20 },
  })
  const pay = wrapFetchWithPayment(fetch, new x402Client().register(NETWORK, scheme))
  return { key, account, scheme, pay }
}

const paymentResponse = (res: Response) =>
  JSON.parse(Buffer.from(res.headers.get('payment-response') ?? '', 'base64').toString()) as {
    success: boolean
    transaction: string
    amount: string
    extra?: {
      chargedAmount?: string
      channelState?: { channelId: Hex; balance: string; chargedCumulativeAmount?: string }
    }
  }

test('the contracts are installed at the addresses the official packages use', async () => {
  const w = wallet(chain.settler.privateKey)
  for (const a of [BATCH_SETTLEMENT, ERC3009_DEPOSIT_COLLECTOR, MULTICALL3]) {
    expect(((await w.getCode({ address: a })) ?? '0x').length).toBeGreaterThan(100)
  }
  // the settlement contract's domain and channel id equal the SDK's computation
  const { computeChannelId } = await import('@x402/evm/batch-settlement/client')
  const config = {
    payer: chain.payer.address,
    payerAuthorizer: chain.payer.address,
    receiver: chain.payee.address,
    receiverAuthorizer: receiverAuthorizer.address,
    token: chain.usdc,
    withdrawDelay: 900,
    salt: `0x${'00'.repeat(31)}01` as Hex,
  }
  const onChain = await w.readContract({
    address: BATCH_SETTLEMENT,
    abi: settlementAbi,
    functionName: 'getChannelId',
    args: [config],
  })
  expect(onChain).toBe(computeChannelId(config, NETWORK))
})

test('deposit, vouchers, claim, sweep and refund with the official client, server and facilitator', async () => {
  const p = await payer(1_000_000n) // 1 USDC
  const payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)

  const first = await p.pay(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
  expect(first.status).toBe(200)
  const deposit = paymentResponse(first)
  expect(deposit.success).toBe(true)
  expect(deposit.transaction).toMatch(/^0x[0-9a-f]{64}$/)
  const depositGas = await gasOf(deposit.transaction)
  const deposited = BigInt(deposit.amount)
  expect(deposited).toBeGreaterThanOrEqual(PRICE)
  expect(await usdcBalance(chain.rpcUrl, BATCH_SETTLEMENT)).toBeGreaterThanOrEqual(deposited)

  const calls = 4
  for (let i = 1; i < calls; i++) {
    const r = await p.pay(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    expect(r.status).toBe(200)
    const pr = paymentResponse(r)
    expect({ tx: pr.transaction, charged: pr.extra?.chargedAmount }).toEqual({ tx: '', charged: String(PRICE) })
  }

  const manager = serverScheme.createChannelManager(facilitatorClient() as never, NETWORK)
  const round1 = await manager.claimAndSettle()
  expect(round1.claims.map((c) => c.vouchers)).toEqual([1])
  expect(await usdcBalance(chain.rpcUrl, chain.payee.address)).toBe(payeeBefore + BigInt(calls) * PRICE)

  // a second round on the same channel: claims and sweeps in steady state (the receiver's totals already non-zero)
  for (let i = 0; i < calls; i++) {
    const r = await p.pay(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    expect(r.status).toBe(200)
  }
  const { claims, settle } = await manager.claimAndSettle()
  expect(claims.map((c) => c.vouchers)).toEqual([1])
  expect(settle?.transaction).toMatch(/^0x[0-9a-f]{64}$/)
  const claimGas = await gasOf(claims[0].transaction)
  const settleGas = await gasOf(settle?.transaction as string)
  const charged = BigInt(2 * calls) * PRICE
  expect(await usdcBalance(chain.rpcUrl, chain.payee.address)).toBe(payeeBefore + charged)

  // cooperative refund of the unclaimed rest, through the official client's refund (GET probe, then a refund payload)
  const payerBefore = await usdcBalance(chain.rpcUrl, p.account.address)
  const refunded = await p.scheme.refund(url)
  expect(refunded.success).toBe(true)
  expect(BigInt(refunded.amount ?? '0')).toBe(deposited - charged)
  expect(await usdcBalance(chain.rpcUrl, p.account.address)).toBe(payerBefore + deposited - charged)
  const refundGas = await gasOf(refunded.transaction)

  // gas within 20 % of the reference's published snapshot (deposit 111,738; claim of 1 voucher 40,252; sweep 31,204)
  const show = (g: { total: bigint; execution: bigint }) => `${g.execution} (tx ${g.total})`
  console.log(
    `gas: deposit ${show(depositGas)}, claim(1) ${show(claimGas)}, sweep ${show(settleGas)}, refund ${show(refundGas)}`,
  )
  expect({
    deposit: within(depositGas, 111_738),
    claim: within(claimGas, 40_252),
    sweep: within(settleGas, 31_204),
  }).toEqual({ deposit: true, claim: true, sweep: true })
})

test('ten channels claimed in one transaction', async () => {
  const payers = await Promise.all(Array.from({ length: 10 }, () => payer(100_000n)))
  for (const p of payers) {
    const r = await p.pay(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    expect(r.status).toBe(200)
  }
  const payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const manager = serverScheme.createChannelManager(facilitatorClient() as never, NETWORK)
  const { claims } = await manager.claimAndSettle({ maxClaimsPerBatch: 10 })
  expect(claims.map((c) => c.vouchers)).toEqual([10])
  expect(await usdcBalance(chain.rpcUrl, chain.payee.address)).toBe(payeeBefore + 10n * PRICE)
  const gas = await gasOf(claims[0].transaction)
  console.log(`gas: claim(10 channels) ${gas.execution} (tx ${gas.total})`)
  expect(within(gas, 192_043)).toBe(true)
})

test('timed withdrawal: the payer leaves without the server; vouchers claimed during the delay still count', async () => {
  const p = await payer(1_000_000n)
  const payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
  let deposited = 0n
  for (let i = 0; i < 3; i++) {
    const r = await p.pay(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    expect(r.status).toBe(200)
    if (i === 0) deposited = BigInt(paymentResponse(r).amount)
  }
  const unpaid = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
  const required = JSON.parse(Buffer.from(unpaid.headers.get('payment-required') ?? '', 'base64').toString())
  const config = p.scheme.buildChannelConfig(required.accepts[0])
  const w = wallet(p.key)
  const [balance, claimed] = (await w.readContract({
    address: BATCH_SETTLEMENT,
    abi: settlementAbi,
    functionName: 'channels',
    args: [
      await w.readContract({
        address: BATCH_SETTLEMENT,
        abi: settlementAbi,
        functionName: 'getChannelId',
        args: [config],
      }),
    ],
  })) as [bigint, bigint]
  expect({ balance, claimed }).toEqual({ balance: deposited, claimed: 0n })

  // the payer asks for everything unclaimed back; the server still claims its three vouchers during the delay
  const write = (functionName: string, args: unknown[]) =>
    w.writeContract({ address: BATCH_SETTLEMENT, abi: settlementAbi, functionName, args } as never)
  await w.waitForTransactionReceipt({ hash: await write('initiateWithdraw', [config, balance]) })
  const manager = serverScheme.createChannelManager(facilitatorClient() as never, NETWORK)
  expect((await manager.getWithdrawalPendingSessions()).length).toBeGreaterThanOrEqual(0)
  const { claims } = await manager.claimAndSettle()
  expect(claims.length).toBe(1)
  // too early: the delay has not elapsed
  await expect(write('finalizeWithdraw', [config])).rejects.toThrow()
  await fetch(chain.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'evm_increaseTime', params: [901] }),
  })
  const payerBefore = await usdcBalance(chain.rpcUrl, p.account.address)
  await w.waitForTransactionReceipt({ hash: await write('finalizeWithdraw', [config]) })
  // capped at what was left unclaimed when it completed
  expect(await usdcBalance(chain.rpcUrl, p.account.address)).toBe(payerBefore + deposited - 3n * PRICE)
  expect(await usdcBalance(chain.rpcUrl, chain.payee.address)).toBe(payeeBefore + 3n * PRICE)
})
