/**
 * Our channel id and voucher check (runtime/pay/batch-settlement/voucher.ts, the hot path of a voucher-paid call) against
 * the official client's own computation and signatures (@x402/evm batch-settlement client), native and pure-JS.
 */
import { expect, test } from 'bun:test'
import { computeChannelId, signVoucher } from '@x402/evm/batch-settlement/client'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { keccak256, type Hex } from 'viem'
import { channelIdOf, voucherSigner, type ChannelConfig } from '../../runtime/pay/batch-settlement/voucher'

const addr = () => privateKeyToAccount(generatePrivateKey()).address
const config = (): ChannelConfig => ({
  payer: addr(),
  payerAuthorizer: addr(),
  receiver: addr(),
  receiverAuthorizer: addr(),
  token: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  withdrawDelay: 900 + Math.floor(Math.random() * 1_000_000),
  salt: keccak256(addr()),
})

test('channel ids equal the official client computation on Base and another chain', () => {
  for (let i = 0; i < 20; i++) {
    const c = config()
    expect(channelIdOf(c, 8453)).toBe(computeChannelId(c, 'eip155:8453'))
    expect(channelIdOf(c, 84532)).toBe(computeChannelId(c, 'eip155:84532'))
  }
})

test('a voucher signed by the official client recovers to its signer; another amount, channel or chain does not', async () => {
  const signer = privateKeyToAccount(generatePrivateKey())
  const id = channelIdOf(config(), 8453)
  const v = await signVoucher(signer as never, id, '123456789', 'eip155:8453')
  expect(v.channelId).toBe(id)
  expect((await voucherSigner(id, 123_456_789n, v.signature as Hex, 8453)).toLowerCase()).toBe(
    signer.address.toLowerCase(),
  )
  const other = channelIdOf(config(), 8453)
  for (const [cid, amount, chain] of [
    [id, 123_456_790n, 8453],
    [other, 123_456_789n, 8453],
    [id, 123_456_789n, 84532],
  ] as const) {
    expect((await voucherSigner(cid, amount, v.signature as Hex, chain)).toLowerCase()).not.toBe(
      signer.address.toLowerCase(),
    )
  }
  await expect(voucherSigner(id, 1n, '0x1234', 8453)).rejects.toThrow()
})
