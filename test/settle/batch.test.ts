/**
 * Optional batching (#14 item 4): settlements arriving together go out as one Multicall3 aggregate3 transaction
 * (every dev chain has our Multicall3 at its canonical address, contracts/src), allowFailure per call;
 * each payment's outcome comes from its own logs, so one bad authorization fails alone. Reports gas per
 * settlement with and without batching.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { MULTICALL3 } from '../../runtime/chain/addresses'
import { payment, rpc } from './helpers'
import { requirements } from '../support/pay'
import { chainFacilitator } from '../support/on-chain'

let chain: DevChain
beforeAll(async () => {
  chain = await startDevChain({ payerUsdc: 10_000_000n })
})
afterAll(() => chain?.stop())

test('ten settlements and one unfunded payer in one batch: ten paid in one transaction, the bad one fails alone', async () => {
  const f = chainFacilitator(chain, { blockTimeMs: 250, batch: { windowMs: 50 } })
  try {
    const to = privateKeyToAccount(generatePrivateKey()).address
    const req = requirements(to)
    // warm the payee (a first payment to an empty address costs more) so both sides compare like for like
    const first = await f.settle(await payment(chain.payer.privateKey, req), req, () => {})
    const second = await f.settle(await payment(chain.payer.privateKey, req), req, () => {})
    expect(first.success && second.success).toBe(true)
    const single = BigInt(second.gasUsed!)
    const good = await Promise.all(Array.from({ length: 10 }, () => payment(chain.payer.privateKey, req)))
    const bad = await payment(generatePrivateKey(), req) // no USDC: its call reverts inside the batch
    const results = await Promise.all([...good, bad].map((p) => f.settle(p, req, () => {})))
    const ok = results.slice(0, 10)
    expect(ok.every((r) => r.success)).toBe(true)
    expect(new Set(ok.map((r) => r.transaction)).size).toBe(1)
    expect(results[10]).toMatchObject({ success: false, transaction: ok[0].transaction })
    expect(await usdcBalance(chain.rpcUrl, to)).toBe(12_000n)
    const tx = await rpc(chain.rpcUrl, 'eth_getTransactionByHash', [ok[0].transaction])
    expect(tx.to.toLowerCase()).toBe(MULTICALL3.toLowerCase())
    const batched = BigInt(ok[0].gasUsed!)
    console.log(
      `gas per settlement: alone ${first.gasUsed} (empty payee), ${single} (funded payee); in a batch of 11 (10 paid, 1 reverted) ${batched}`,
    )
    expect(batched).toBeLessThan(single)
  } finally {
    await f.close!()
  }
})
