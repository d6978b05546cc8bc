/**
 * Our channel id and voucher check (runtime/pay/schemes/batch-settlement/voucher.ts, the hot path of a voucher-paid call) against
 * the official client's own computation and signatures (@x402/evm batch-settlement client) and viem's generic EIP-712
 * (`hashTypedData`, `recoverTypedDataAddress`) over the spec's types, for random keys, amounts and chains; and the
 * signatures the settlement contract's `claim` refuses (OpenZeppelin ECDSA: v 27/28, low s), refused here too.
 */
import { expect, test } from 'bun:test'
import { computeChannelId, signVoucher } from '@x402/evm/batch-settlement/client'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { hashTypedData, keccak256, recoverTypedDataAddress, type Hex } from 'viem'
import { BATCH_SETTLEMENT } from '../../runtime/chain/addresses'
import {
  channelIdOf,
  voucherDigest,
  voucherSigner,
  type ChannelConfig,
} from '../../runtime/pay/schemes/batch-settlement/voucher'

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

/** The voucher as the spec types it, for viem's generic EIP-712 (an independent computation of the digest). */
const typed = (channelId: Hex, maxClaimableAmount: bigint, chainId: number) => ({
  domain: { name: 'x402 Batch Settlement', version: '1', chainId, verifyingContract: BATCH_SETTLEMENT as Hex },
  types: {
    Voucher: [
      { name: 'channelId', type: 'bytes32' },
      { name: 'maxClaimableAmount', type: 'uint128' },
    ],
  },
  primaryType: 'Voucher' as const,
  message: { channelId, maxClaimableAmount },
})
const hexOf = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}` as Hex
const randomAmount = () => {
  const bits = [1, 20, 64, 127][Math.floor(Math.random() * 4)]
  return (BigInt(keccak256(addr())) & ((1n << BigInt(bits)) - 1n)) + 1n
}

test('digests and signers equal viem hashTypedData / recoverTypedDataAddress and the official client, random keys and amounts', async () => {
  for (let i = 0; i < 25; i++) {
    const key = privateKeyToAccount(generatePrivateKey())
    const chainId = [8453, 84532, 1, 31337][i % 4]
    const id = channelIdOf(config(), chainId)
    const amount = randomAmount()
    const t = typed(id, amount, chainId)
    expect(hexOf(voucherDigest(id, amount, chainId))).toBe(hashTypedData(t))
    const viemSig = await key.signTypedData(t)
    const official = (await signVoucher(key as never, id, amount.toString(), `eip155:${chainId}`)).signature as Hex
    expect(official).toBe(viemSig) // RFC 6979: the same key and digest give the same signature
    for (const sig of [viemSig, official]) {
      const ours = await voucherSigner(id, amount, sig, chainId)
      expect(ours.toLowerCase()).toBe((await recoverTypedDataAddress({ ...t, signature: sig })).toLowerCase())
      expect(ours.toLowerCase()).toBe(key.address.toLowerCase())
    }
  }
})

test('the channel id kept per config is the official one, also when a field differs only by case or one digit', () => {
  const c = config()
  const id = computeChannelId(c, 'eip155:8453')
  for (let i = 0; i < 3; i++) expect(channelIdOf(c, 8453)).toBe(id)
  expect(channelIdOf({ ...c, payer: c.payer.toLowerCase() as Hex }, 8453)).toBe(id)
  const other = { ...c, withdrawDelay: c.withdrawDelay + 1 }
  expect(channelIdOf(other, 8453)).toBe(computeChannelId(other, 'eip155:8453'))
  expect(channelIdOf(other, 8453)).not.toBe(id)
})

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const word = (x: bigint) => x.toString(16).padStart(64, '0')

test('signatures the contract refuses are refused: high s (its malleable twin), v 0/1 or not 27/28, wrong length, r or s 0', async () => {
  const key = privateKeyToAccount(generatePrivateKey())
  const id = channelIdOf(config(), 8453)
  const t = typed(id, 1000n, 8453)
  const sig = await key.signTypedData(t)
  const [r, s, v] = [sig.slice(2, 66), BigInt(`0x${sig.slice(66, 130)}`), Number.parseInt(sig.slice(130), 16)]
  expect((await voucherSigner(id, 1000n, sig, 8453)).toLowerCase()).toBe(key.address.toLowerCase())
  const twin = `0x${r}${word(N - s)}${(v === 27 ? 28 : 27).toString(16)}` as Hex
  const recid = `0x${r}${word(s)}${(v - 27).toString(16).padStart(2, '0')}` as Hex
  // viem recovers the signer from both (so would a check built on it); OpenZeppelin's ECDSA, in `claim`, does not
  for (const accepted of [twin, recid])
    expect((await recoverTypedDataAddress({ ...t, signature: accepted })).toLowerCase()).toBe(key.address.toLowerCase())
  const refused = [
    twin,
    recid,
    `0x${r}${word(s)}1d`,
    `0x${r}${word(s)}1a`,
    sig.slice(0, 130),
    `${sig}00`,
    `0x${word(0n)}${word(s)}1b`,
    `0x${r}${word(0n)}1b`,
    `0x${word(N)}${word(s)}1b`,
    '0x1234',
  ] as Hex[]
  for (const bad of refused) {
    const got = await voucherSigner(id, 1000n, bad, 8453).catch(() => 'refused')
    expect([bad, got]).toEqual([bad, 'refused'])
  }
})

test('vouchers of a few payers, interleaved, each recover to their own signer (an address kept per public key)', async () => {
  const keys = Array.from({ length: 3 }, () => privateKeyToAccount(generatePrivateKey()))
  const id = channelIdOf(config(), 8453)
  for (let i = 0; i < 12; i++) {
    const key = keys[i % 3]
    const amount = BigInt(1000 * (i + 1))
    const sig = await key.signTypedData(typed(id, amount, 8453))
    expect((await voucherSigner(id, amount, sig, 8453)).toLowerCase()).toBe(key.address.toLowerCase())
    // the same signature over another amount recovers a key no one holds, not a kept one
    expect((await voucherSigner(id, amount + 1n, sig, 8453)).toLowerCase()).not.toBe(key.address.toLowerCase())
  }
})
