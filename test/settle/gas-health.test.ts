/**
 * The documented gas bound of transferWithAuthorization holds for both signature variants on Circle's real
 * FiatTokenV2_2 (worst case: an empty payee, cold slots), and settler health: balances, settlements left,
 * /health degrading, and no verification at all (503) when no settler can pay for gas.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createPublicClient, createWalletClient, http, parseSignature, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { localBase, setEthBalance, USDC_BASE, usdcBalance } from '../../runtime/chain/usdc'
import { createLocalFacilitator } from '../../runtime/pay/facilitator/local'
import { EIP3009_ABI } from '../../runtime/pay/eip3009-abi'
import { TRANSFER_WITH_AUTHORIZATION_GAS } from '../../runtime/pay/facilitator/settle/gas'
import { LOW_SETTLEMENTS } from '../../runtime/pay/facilitator/settle/health'
import { startFaultProxy, type FaultProxy } from '../support/rpc-faults'
import { post, requirementsAt } from '../support/server'
import { withEcho } from '../support/extra-service'
import { signPayment, requirements } from '../support/pay'
import { addressOf, payment, settlerKeys } from './helpers'
import { startServerOnChain } from '../support/on-chain'
import { sqliteOf } from '../../runtime/db/open'

let chain: DevChain
let proxy: FaultProxy
beforeAll(async () => {
  chain = await startDevChain({ payerUsdc: 10_000_000n })
  proxy = startFaultProxy(chain.rpcUrl)
})
afterAll(async () => {
  proxy?.stop()
  await chain?.stop()
})

describe('gas bound', () => {
  test('transferWithAuthorization to an empty payee stays under the bound with (v, r, s) and with bytes signatures', async () => {
    const settler = createWalletClient({
      chain: localBase(chain.rpcUrl),
      transport: http(chain.rpcUrl),
      account: privateKeyToAccount(chain.settler.privateKey),
    })
    const pub = createPublicClient({
      chain: localBase(chain.rpcUrl),
      transport: http(chain.rpcUrl),
      pollingInterval: 20,
    })
    const used: Record<string, bigint> = {}
    const first = privateKeyToAccount(generatePrivateKey()).address
    for (const variant of ['vrs', 'bytes', 'vrs-warm'] as const) {
      const to =
        variant === 'vrs' ? first : variant === 'vrs-warm' ? first : privateKeyToAccount(generatePrivateKey()).address
      const p = await payment(chain.payer.privateKey, requirements(to))
      const a = p.payload.authorization
      const base = [a.from, a.to, BigInt(a.value), BigInt(a.validAfter), BigInt(a.validBefore), a.nonce] as const
      const { v, r, s } = parseSignature(p.payload.signature)
      const hash =
        variant === 'bytes'
          ? await settler.writeContract({
              address: USDC_BASE,
              abi: EIP3009_ABI,
              functionName: 'transferWithAuthorization',
              args: [...base, p.payload.signature],
              gas: 500_000n,
            })
          : await settler.writeContract({
              address: USDC_BASE,
              abi: EIP3009_ABI,
              functionName: 'transferWithAuthorization',
              args: [...base, Number(v), r, s],
              gas: 500_000n,
            })
      const receipt = await pub.waitForTransactionReceipt({ hash })
      expect(receipt.status).toBe('success')
      used[variant] = receipt.gasUsed
    }
    console.log('transferWithAuthorization gas used:', used)
    for (const g of Object.values(used)) expect(g).toBeLessThan(TRANSFER_WITH_AUTHORIZATION_GAS)
    expect(used.bytes).toBeGreaterThan(used.vrs) // the bytes variant decodes the signature on chain
    expect(used['vrs-warm']).toBeLessThan(used.vrs) // the worst case is the first payment to an empty payee
  })
})

describe('settler health', () => {
  test('balances and settlements left; low balance degrades; an empty settler refuses verification before any RPC', async () => {
    const keys = await settlerKeys(chain.rpcUrl, 2)
    const f = createLocalFacilitator({
      rpcUrl: proxy.url,
      settlerKeys: keys,
      chainId: 8453,
      pollingIntervalMs: 20,
      blockTimeMs: 250,
    })
    try {
      await f.settler.init()
      const h = f.health!()
      expect(h).toMatchObject({ ok: true, canPay: true })
      expect(h.settlers!.map((x) => x.address)).toEqual(keys.map(addressOf))
      expect(h.settlers![0].balance_wei).toBe(String(10n ** 18n))
      const perSettlement = TRANSFER_WITH_AUTHORIZATION_GAS * f.settler.fees.current!.maxFeePerGas
      expect(h.settlers![0].settlements_left).toBe(Number(10n ** 18n / perSettlement))
      // balance(): the payer's token balance, read from the chain (used for in-flight reservations)
      expect(await f.balance!(chain.payer.address, USDC_BASE)).toBe(
        await usdcBalance(chain.rpcUrl, chain.payer.address),
      )

      // one key runs low: still paying, but /health says so
      await setEthBalance(chain.rpcUrl, addressOf(keys[0]), perSettlement * 50n)
      await setEthBalance(chain.rpcUrl, addressOf(keys[1]), 0n)
      await f.settler.readBalances()
      const low = f.health!()
      expect(low).toMatchObject({ ok: false, canPay: true })
      expect(low.settlers![0].settlements_left).toBe(50)
      expect(low.settlers![0].settlements_left).toBeLessThan(LOW_SETTLEMENTS)
      expect(low.detail).toContain(addressOf(keys[0]))
      // a settlement goes to the key that can pay
      const req = requirements(chain.payee.address)
      const r = await f.settle(await payment(chain.payer.privateKey, req), req, () => {})
      expect(r.success).toBe(true)
      const tx = (await (
        await fetch(chain.rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getTransactionByHash', params: [r.transaction] }),
        })
      ).json()) as any
      expect(tx.result.from.toLowerCase()).toBe(addressOf(keys[0]).toLowerCase())

      // nobody can pay: verify throws before touching the chain
      await setEthBalance(chain.rpcUrl, addressOf(keys[0]), 0n)
      await f.settler.readBalances()
      expect(f.health!()).toMatchObject({ canPay: false })
      proxy.calls.clear()
      await expect(f.verify(await payment(chain.payer.privateKey, req), req)).rejects.toThrow(/pay for gas/)
      expect(proxy.total()).toBe(0)
    } finally {
      await f.close!()
    }
  })

  test('the server: /health shows the settlers and degrades; with no settler able to pay, a paid call is 503 and nothing moves', async () => {
    const [key] = await settlerKeys(chain.rpcUrl, 1, 0n)
    const f = createLocalFacilitator({
      rpcUrl: proxy.url,
      settlerKeys: [key],
      chainId: 8453,
      pollingIntervalMs: 20,
      blockTimeMs: 250,
    })
    const s = await startServerOnChain(chain, {
      entries: withEcho(),
      facilitator: f,
    })
    try {
      await f.settler.init()
      const health = (await (await fetch(s.url + '/health')).json()) as any
      expect(health.status).toBe('degraded')
      expect(health.facilitator).toMatchObject({
        canPay: false,
        settlers: [{ address: addressOf(key), balance_wei: '0', settlements_left: 0, in_flight: 0 }],
      })
      const req = await requirementsAt(s.url + '/api/v1/test-echo')
      const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
      proxy.calls.clear()
      const r = await post(
        s.url + '/api/v1/test-echo',
        { code: 'no gas' },
        { 'payment-signature': await signPayment({ key: chain.payer.privateKey as Hex, requirements: req }) },
      )
      expect(r.status).toBe(503)
      const body = (await r.json()) as any
      expect(body.error.code).toBeString()
      expect(JSON.stringify(body)).not.toContain('NO GAS')
      expect(proxy.total()).toBe(0) // not even a simulation
      expect(await usdcBalance(chain.rpcUrl, chain.payee.address)).toBe(before)
      expect(sqliteOf(s.booted).ledger.byState(['reserved', 'verified', 'settling', 'pending', 'settled'])).toEqual([])
    } finally {
      await s.stop()
    }
  })
})
