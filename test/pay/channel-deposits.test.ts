/**
 * The official batch-settlement facilitator writing through this server's settlement pipeline (settlerSigner): many
 * channels opened at once all land (one settler key, nonces from its lane, 1 s blocks), then one claim of every
 * channel and one sweep pay the receiver exactly. A stand-in on the SDK's own wallet signer lost most first
 * deposits under the same burst (nonce reuse; issue #26).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { x402Facilitator } from '@x402/core/facilitator'
import { toClientEvmSigner } from '@x402/evm'
import { BatchSettlementEvmScheme as FacilitatorScheme } from '@x402/evm/batch-settlement/facilitator'
import { BatchSettlementEvmScheme as ClientScheme } from '@x402/evm/batch-settlement/client'
import { createPublicClient, http, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { BATCH_SETTLEMENT } from '../../runtime/chain/addresses'
import { fundPayer, startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { localBase, usdcBalance } from '../../runtime/chain/usdc'
import { settlerSigner } from '../../runtime/pay/facilitator/settler-signer'
import { createRpc } from '../../runtime/pay/facilitator/settle/rpc'
import { Settler } from '../../runtime/pay/facilitator/settle/settler'

const NETWORK = 'eip155:8453'
const CHANNELS = 24
let chain: DevChain
let settler: Settler

beforeAll(async () => {
  chain = await startDevChain()
  settler = new Settler(createRpc(chain.rpcUrl), {
    chainId: 8453,
    keys: [chain.settler.privateKey],
    blockTimeMs: 1000,
    pollMs: 100,
    stuckBlocks: 3,
  })
})
afterAll(() => chain?.stop())

test(`${CHANNELS} channels opened at once through one settler key: every deposit lands, one claim and one sweep pay exactly`, async () => {
  const receiverAuthorizer = privateKeyToAccount(generatePrivateKey())
  const facilitator = new x402Facilitator().register(
    NETWORK,
    new FacilitatorScheme(settlerSigner(settler) as never, receiverAuthorizer as never),
  )
  const requirements = {
    scheme: 'batch-settlement',
    network: NETWORK,
    amount: '1000',
    asset: chain.usdc,
    payTo: chain.payee.address,
    maxTimeoutSeconds: 300,
    extra: { receiverAuthorizer: receiverAuthorizer.address, withdrawDelay: 900, name: 'USD Coin', version: '2' },
  }
  const publicClient = createPublicClient({ chain: localBase(chain.rpcUrl), transport: http(chain.rpcUrl) })
  const payers = await Promise.all(
    Array.from({ length: CHANNELS }, async () => {
      const account = privateKeyToAccount(generatePrivateKey())
      await fundPayer(chain, account.address, 100_000n)
      return new ClientScheme(toClientEvmSigner(account, publicClient as never), {
        depositPolicy: { depositMultiplier: 10 },
      })
    }),
  )
  const payloads = await Promise.all(payers.map((c) => c.createPaymentPayload(2, requirements as never)))
  for (const p of payloads) expect((p.payload as { type: string }).type).toBe('deposit')
  // funded on an automining chain; from here on, 1 s blocks like a real chain
  await fetch(chain.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'evm_setIntervalMining', params: [1] }),
  })

  const settled = await Promise.all(
    payloads.map((p) => facilitator.settle({ ...p, accepted: requirements } as never, requirements as never)),
  )
  expect(settled.filter((s) => s.success).length).toBe(CHANNELS)
  expect(new Set(settled.map((s) => s.transaction)).size).toBe(CHANNELS)
  const deposited = settled.reduce((sum, s) => sum + BigInt(s.amount ?? '0'), 0n)
  expect(await usdcBalance(chain.rpcUrl, BATCH_SETTLEMENT)).toBe(deposited)

  // one voucher per channel (charged 1,000 each), claimed in one transaction, swept in another
  const claims = payloads.map((p) => {
    const pl = p.payload as { channelConfig: unknown; voucher: { maxClaimableAmount: string; signature: Hex } }
    return {
      voucher: { channel: pl.channelConfig, maxClaimableAmount: pl.voucher.maxClaimableAmount },
      signature: pl.voucher.signature,
      totalClaimed: pl.voucher.maxClaimableAmount,
    }
  })
  const claim = await facilitator.settle(
    { x402Version: 2, accepted: requirements, payload: { type: 'claim', claims } } as never,
    requirements as never,
  )
  expect(claim.success).toBe(true)
  const payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const sweep = await facilitator.settle(
    {
      x402Version: 2,
      accepted: requirements,
      payload: { type: 'settle', receiver: chain.payee.address, token: chain.usdc },
    } as never,
    requirements as never,
  )
  expect(sweep.success).toBe(true)
  expect(await usdcBalance(chain.rpcUrl, chain.payee.address)).toBe(payeeBefore + BigInt(CHANNELS) * 1000n)
}, 120_000)
