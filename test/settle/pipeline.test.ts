/**
 * The settlement pipeline on a real chain (anvil + Circle's FiatTokenV2_2 at the USDC address): concurrency over a
 * key pool, both receipt modes, and recovery — a dropped transaction is re-sent with a bumped fee, a nonce taken
 * by someone else resyncs the lane, an RPC error loses nothing, a refused send's nonce gap is filled.
 * Every test checks the payee's on-chain delta against the settlements that reported success.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { createWalletClient, http, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { localBase, usdcBalance } from '../../runtime/chain/usdc'
import { createLocalFacilitator } from '../../runtime/pay/facilitator/local'
import { TRANSFER_WITH_AUTHORIZATION_GAS } from '../../runtime/pay/facilitator/settle/gas'
import type { DecodedPayment, SettleResult } from '../../runtime/pay/types'
import { startFaultProxy, type FaultProxy } from '../support/rpc-faults'
import { addressOf, payment, rpc, settlerKeys, txCount } from './helpers'
import { until } from '../support/until'
import { requirements } from '../support/pay'

let chain: DevChain
let proxy: FaultProxy
const closers: Array<() => Promise<void> | void> = []
beforeAll(async () => {
  chain = await startDevChain({ payerUsdc: 10_000_000n })
  proxy = startFaultProxy(chain.rpcUrl)
})
afterEach(async () => {
  for (const c of closers.splice(0)) await c()
  proxy.calls.clear()
  proxy.delayIn.clear()
  proxy.delayOut.clear()
  proxy.faults.clear()
  await rpc(chain.rpcUrl, 'evm_setAutomine', [true])
})
afterAll(async () => {
  proxy?.stop()
  await chain?.stop()
})

const facilitator = (keys: Hex[], extra: Partial<Parameters<typeof createLocalFacilitator>[0]> = {}) => {
  const f = createLocalFacilitator({
    rpcUrl: proxy.url,
    settlerKeys: keys,
    chainId: 8453,
    pollingIntervalMs: 20,
    blockTimeMs: 250,
    stuckBlocks: 2,
    receiptTimeoutMs: 20_000,
    ...extra,
  })
  closers.push(() => f.close!())
  return f
}
const payee = () => privateKeyToAccount(generatePrivateKey()).address
let lastPayments: DecodedPayment[] = []
const settleAll = async (
  f: ReturnType<typeof facilitator>,
  payTo: string,
  n: number,
  onHash?: (i: number, h: string) => void,
): Promise<SettleResult[]> => {
  const req = requirements(payTo)
  const payments = (lastPayments = await Promise.all(
    Array.from({ length: n }, () => payment(chain.payer.privateKey, req)),
  ))
  return Promise.all(payments.map((p, i) => f.settle(p, req, (h) => onHash?.(i, h))))
}

describe('throughput', () => {
  test('40 concurrent settlements over 3 keys: all mined, spread over the lanes, no estimate or nonce read per payment', async () => {
    const keys = await settlerKeys(chain.rpcUrl, 3)
    const f = facilitator(keys)
    await f.settler.init()
    expect(f.settler.syncSend).toBe(true) // anvil answers eth_sendRawTransactionSync (EIP-7966)
    proxy.calls.clear()
    const to = payee()
    const before = await usdcBalance(chain.rpcUrl, to)
    const results = await settleAll(f, to, 40)
    expect(results.every((r) => r.success)).toBe(true)
    expect(new Set(results.map((r) => r.transaction)).size).toBe(40)
    expect((await usdcBalance(chain.rpcUrl, to)) - before).toBe(40_000n)
    const perKey = await Promise.all(keys.map((k) => txCount(chain.rpcUrl, addressOf(k))))
    expect(perKey.reduce((a, b) => a + b, 0)).toBe(40)
    for (const n of perKey) expect(n).toBeGreaterThanOrEqual(10) // least-loaded: no lane starves
    expect(proxy.calls.get('eth_sendRawTransactionSync')).toBe(40)
    expect(proxy.calls.get('eth_estimateGas') ?? 0).toBe(0)
    // No nonce read per payment: the lanes count locally. On a loaded machine a send whose answer is late is handed to
    // the watcher, whose recovery may read a lane's count once; never one read per payment.
    expect(proxy.calls.get('eth_getTransactionCount') ?? 0).toBeLessThanOrEqual(keys.length)
    expect(proxy.calls.get('eth_getTransactionReceipt') ?? 0).toBe(0)
    for (const r of results) {
      expect(BigInt(r.gasUsed!)).toBeGreaterThan(50_000n)
      expect(BigInt(r.gasUsed!)).toBeLessThan(TRANSFER_WITH_AUTHORIZATION_GAS)
      expect(BigInt(r.effectiveGasPrice!)).toBeGreaterThan(0n)
    }
  })

  test('without EIP-7966 one shared block watcher delivers every receipt (no per-payment polling)', async () => {
    proxy.faults.set('eth_sendRawTransactionSync', {
      code: -32601,
      message: 'the method eth_sendRawTransactionSync does not exist/is not available',
      times: 1000,
    })
    const [key] = await settlerKeys(chain.rpcUrl, 1)
    const f = facilitator([key])
    await f.settler.init()
    expect(f.settler.syncSend).toBe(false)
    proxy.calls.clear()
    const to = payee()
    const results = await settleAll(f, to, 12)
    expect(results.every((r) => r.success)).toBe(true)
    expect(await usdcBalance(chain.rpcUrl, to)).toBe(12_000n)
    expect(proxy.calls.get('eth_sendRawTransaction')).toBe(12)
    expect(proxy.calls.get('eth_getTransactionReceipt') ?? 0).toBe(0)
    // receipts come per block, not per payment
    expect(proxy.calls.get('eth_getBlockReceipts')!).toBeLessThanOrEqual(12)
  })

  test('an RPC without eth_getBlockReceipts: the watcher reads the receipts of the tracked transactions of each new block', async () => {
    proxy.faults.set('eth_sendRawTransactionSync', { code: -32601, message: 'method not found', times: 1000 })
    proxy.faults.set('eth_getBlockReceipts', { code: -32601, message: 'method not found', times: 1000 })
    const [key] = await settlerKeys(chain.rpcUrl, 1)
    const f = facilitator([key], { stuckBlocks: 1000 }) // no recovery: only the watcher can deliver
    const to = payee()
    const results = await settleAll(f, to, 5)
    expect(results.every((r) => r.success)).toBe(true)
    expect(await usdcBalance(chain.rpcUrl, to)).toBe(5000n)
    expect(proxy.calls.get('eth_getTransactionReceipt')).toBe(5)
  })
})

describe('recovery', () => {
  test('a transaction dropped from the pool is re-sent at its nonce with a bumped fee; the ones queued behind it follow', async () => {
    const [key] = await settlerKeys(chain.rpcUrl, 1)
    const f = facilitator([key])
    await f.settler.init()
    await rpc(chain.rpcUrl, 'evm_setAutomine', [false])
    const to = payee()
    const hashes: string[][] = [[], [], []]
    const pending = settleAll(f, to, 3, (i, h) => hashes[i].push(h))
    await until(
      async () =>
        Object.keys((await rpc(chain.rpcUrl, 'txpool_content')).pending?.[addressOf(key).toLowerCase()] ?? {})
          .length === 3,
      20_000,
      'three transactions in the pool',
    )
    // drop the lowest nonce: the other two cannot be mined until it is back
    const lowest = (await rpc(chain.rpcUrl, 'txpool_content')).pending[addressOf(key).toLowerCase()]
    const firstNonce = Math.min(...Object.keys(lowest).map(Number))
    const dropped = lowest[String(firstNonce)].hash as string
    await rpc(chain.rpcUrl, 'anvil_dropTransaction', [dropped])
    await rpc(chain.rpcUrl, 'evm_setIntervalMining', [1])
    const results = await pending
    expect(results.every((r) => r.success)).toBe(true)
    expect(await usdcBalance(chain.rpcUrl, to)).toBe(3000n)
    const i = hashes.findIndex((h) => h[0] === dropped)
    const final = results[i].transaction
    expect(final).not.toBe(dropped) // re-signed with a higher fee
    const [was, now] = await Promise.all([
      rpc(chain.rpcUrl, 'eth_getTransactionByHash', [dropped]),
      rpc(chain.rpcUrl, 'eth_getTransactionByHash', [final]),
    ])
    expect(was).toBeNull()
    expect(BigInt(now.maxFeePerGas)).toBeGreaterThan(0n)
    const tx = await rpc(chain.rpcUrl, 'eth_getTransactionByHash', [final])
    expect(Number(tx.nonce)).toBe(firstNonce)
    expect(await txCount(chain.rpcUrl, addressOf(key))).toBe(3)
    // the ledger keeps the first hash it was given (the dropped one): reconciliation still finds the payment, and
    // names the transaction that really paid (found by the authorization's logs)
    expect(await f.status(dropped, lastPayments[i], requirements(to))).toEqual({ state: 'settled', tx: final })
    await rpc(chain.rpcUrl, 'evm_setIntervalMining', [0])
  }, 60_000)

  test('a nonce taken by another sender of the same key: the send is refused (nonce too low), the lane resyncs, the payment is settled', async () => {
    const [key] = await settlerKeys(chain.rpcUrl, 1)
    const f = facilitator([key])
    await f.settler.init()
    const other = createWalletClient({
      chain: localBase(chain.rpcUrl),
      transport: http(chain.rpcUrl),
      account: privateKeyToAccount(key),
    })
    await other.sendTransaction({ to: addressOf(key), value: 0n }) // takes the nonce the lane would use next
    proxy.calls.clear()
    const to = payee()
    const [r] = await settleAll(f, to, 1)
    expect(r.success).toBe(true)
    expect(await usdcBalance(chain.rpcUrl, to)).toBe(1000n)
    expect(proxy.calls.get('eth_getTransactionCount')).toBe(1) // the resync
    expect(await txCount(chain.rpcUrl, addressOf(key))).toBe(2)
  })

  test('an underpriced refusal re-signs with fresh, higher fees', async () => {
    const [key] = await settlerKeys(chain.rpcUrl, 1)
    const f = facilitator([key])
    await f.settler.init()
    proxy.faults.set('eth_sendRawTransactionSync', { code: -32000, message: 'transaction underpriced' })
    const hashes: string[] = []
    const to = payee()
    const [r] = await settleAll(f, to, 1, (_, h) => hashes.push(h))
    expect(r.success).toBe(true)
    expect(r.transaction).not.toBe(hashes[0]) // the refused version was never mined; a re-signed one was
    expect(await rpc(chain.rpcUrl, 'eth_getTransactionByHash', [hashes[0]])).toBeNull()
    expect(await usdcBalance(chain.rpcUrl, to)).toBe(1000n)
  })

  test('a rate-limited send is sent again at once, not failed', async () => {
    const [key] = await settlerKeys(chain.rpcUrl, 1)
    const f = facilitator([key])
    await f.settler.init()
    proxy.faults.set('eth_sendRawTransactionSync', { code: -32005, message: 'limit exceeded', times: 2 })
    const to = payee()
    const [r] = await settleAll(f, to, 1)
    expect(r.success).toBe(true)
    expect(await usdcBalance(chain.rpcUrl, to)).toBe(1000n)
    expect(proxy.calls.get('eth_sendRawTransactionSync')! + (proxy.calls.get('eth_sendRawTransaction') ?? 0)).toBe(3)
    expect(await txCount(chain.rpcUrl, addressOf(key))).toBe(1)
    expect(proxy.calls.get('eth_getTransactionReceipt') ?? 0).toBe(0) // not left to stuck-transaction recovery
  })

  test('an RPC failure on send (the node never saw it) is retried when stuck; an answer lost after the node acted settles once', async () => {
    const [key] = await settlerKeys(chain.rpcUrl, 1)
    const f = facilitator([key])
    await f.settler.init()
    const to = payee()
    proxy.faults.set('eth_sendRawTransactionSync', { http: 502 })
    const [lost] = await settleAll(f, to, 1)
    expect(lost.success).toBe(true)
    expect(await usdcBalance(chain.rpcUrl, to)).toBe(1000n)
    proxy.faults.set('eth_sendRawTransactionSync', { http: 502, afterForward: true })
    const [late] = await settleAll(f, to, 1)
    expect(late.success).toBe(true)
    expect(await usdcBalance(chain.rpcUrl, to)).toBe(2000n)
    expect(await txCount(chain.rpcUrl, addressOf(key))).toBe(2)
  })

  test('a send the node refuses outright fails that payment only; the nonce gap it leaves is filled and later payments go through', async () => {
    const [key] = await settlerKeys(chain.rpcUrl, 1)
    const f = facilitator([key])
    await f.settler.init()
    proxy.faults.set('eth_sendRawTransactionSync', { code: -32000, message: 'invalid transaction: rejected by policy' })
    const to = payee()
    const results = await settleAll(f, to, 2)
    const failed = results.filter((r) => !r.success)
    expect(failed.length).toBe(1)
    // not `failed`: the ledger keeps it pending and reconciliation decides from the chain (nothing arrived here)
    expect(failed[0]).toMatchObject({ errorReason: 'settlement_rejected_by_node', pending: true })
    expect(await usdcBalance(chain.rpcUrl, to)).toBe(1000n)
    // the refused nonce was filled (a 0-value self-transfer) so the other payment could be mined
    expect(await txCount(chain.rpcUrl, addressOf(key))).toBe(2)
    const [after] = await settleAll(f, to, 1)
    expect(after.success).toBe(true)
    expect(await usdcBalance(chain.rpcUrl, to)).toBe(2000n)
  }, 30_000)
})
