/**
 * The spec's rules of the batch-settlement contracts (contracts/src) that the official packages never exercise on
 * the happy path: who may call what, refused signatures and amounts, the refund nonce, a refund shrinking a pending
 * withdrawal, channel events. Driven with viem on the dev chain (startDevChain installs the contracts).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import {
  createWalletClient,
  encodeAbiParameters,
  http,
  keccak256,
  parseEventLogs,
  publicActions,
  recoverTypedDataAddress,
  type Hex,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { BATCH_SETTLEMENT, ERC3009_DEPOSIT_COLLECTOR } from '../../runtime/chain/addresses'
import { abiOf } from '../../runtime/chain/contracts'
import { voucherSigner, type ChannelConfig } from '../../runtime/pay/schemes/batch-settlement/voucher'
import { TRANSFER_WITH_AUTHORIZATION } from '../../runtime/pay/eip3009-abi'
import { fundPayer, startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { localBase, setEthBalance, usdcBalance } from '../../runtime/chain/usdc'

const abi = abiOf('X402BatchSettlement')
const collectorAbi = abiOf('ERC3009DepositCollector')
let chain: DevChain
const receiverAuthorizer = privateKeyToAccount(generatePrivateKey())

const wallet = (account: PrivateKeyAccount) =>
  createWalletClient({
    chain: localBase(chain.rpcUrl),
    transport: http(chain.rpcUrl),
    account,
    pollingInterval: 20,
  }).extend(publicActions)

beforeAll(async () => {
  chain = await startDevChain()
})
afterAll(() => chain?.stop())

type Config = ChannelConfig

/** A funded payer (USDC and gas), its channel config with us as receiver, and helpers to act on it. */
async function channel(usdc = 1_000_000n, withdrawDelay = 900) {
  const payer = privateKeyToAccount(generatePrivateKey())
  await Promise.all([
    fundPayer(chain, payer.address, usdc),
    setEthBalance(chain.rpcUrl, payer.address, 10n ** 17n),
    setEthBalance(chain.rpcUrl, receiverAuthorizer.address, 10n ** 17n),
  ])
  const config: Config = {
    payer: payer.address,
    payerAuthorizer: payer.address,
    receiver: chain.payee.address,
    receiverAuthorizer: receiverAuthorizer.address,
    token: chain.usdc,
    withdrawDelay,
    salt: keccak256(payer.address),
  }
  const settler = wallet(privateKeyToAccount(chain.settler.privateKey))
  const id = (await settler.readContract({
    address: BATCH_SETTLEMENT,
    abi,
    functionName: 'getChannelId',
    args: [config],
  })) as Hex
  const domain = { name: 'x402 Batch Settlement', version: '1', chainId: 8453, verifyingContract: BATCH_SETTLEMENT }
  const voucherTyped = (max: bigint) => ({
    domain,
    types: {
      Voucher: [
        { name: 'channelId', type: 'bytes32' },
        { name: 'maxClaimableAmount', type: 'uint128' },
      ],
    },
    primaryType: 'Voucher' as const,
    message: { channelId: id, maxClaimableAmount: max },
  })
  const send = async (from: PrivateKeyAccount, functionName: string, args: unknown[]) => {
    const w = wallet(from)
    const hash = await w.writeContract({ address: BATCH_SETTLEMENT, abi, functionName, args } as never)
    return w.waitForTransactionReceipt({ hash })
  }
  const read = (functionName: string, args: unknown[]) =>
    settler.readContract({ address: BATCH_SETTLEMENT, abi, functionName, args } as never) as Promise<unknown>
  return {
    payer,
    config,
    id,
    send,
    read,
    state: async () => {
      const [balance, totalClaimed] = (await read('channels', [id])) as [bigint, bigint]
      const [wdAmount, wdAt] = (await read('pendingWithdrawals', [id])) as [bigint, number]
      return { balance, totalClaimed, wdAmount, wdAt, refundNonce: (await read('refundNonce', [id])) as bigint }
    },
    /** Deposits `amount` with the payer's ERC-3009 ReceiveWithAuthorization to the collector, sent by the settler. */
    deposit: async (amount: bigint, cfg: Config = config) => {
      const salt = BigInt(
        keccak256(`0x${Date.now().toString(16).padStart(16, '0')}${Math.random().toString(16).slice(2, 10)}`),
      )
      const nonce = keccak256(encodeAbiParameters([{ type: 'bytes32' }, { type: 'uint256' }], [id, salt]))
      const validBefore = BigInt(Math.floor(Date.now() / 1000) + 3600)
      const signature = await payer.signTypedData({
        domain: { name: 'USD Coin', version: '2', chainId: 8453, verifyingContract: chain.usdc },
        // ReceiveWithAuthorization has the same fields as TransferWithAuthorization (EIP-3009)
        types: { ReceiveWithAuthorization: TRANSFER_WITH_AUTHORIZATION },
        primaryType: 'ReceiveWithAuthorization',
        message: {
          from: payer.address,
          to: ERC3009_DEPOSIT_COLLECTOR,
          value: amount,
          validAfter: 0n,
          validBefore,
          nonce,
        },
      })
      const data = encodeAbiParameters(
        [{ type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }, { type: 'bytes' }],
        [0n, validBefore, salt, signature],
      )
      return send(privateKeyToAccount(chain.settler.privateKey), 'deposit', [
        cfg,
        amount,
        ERC3009_DEPOSIT_COLLECTOR,
        data,
      ])
    },
    typed: (max: bigint) => voucherTyped(max),
    voucher: (max: bigint, signer: PrivateKeyAccount = payer) => signer.signTypedData(voucherTyped(max)),
    refundSig: (nonce: bigint, amount: bigint, signer: PrivateKeyAccount = receiverAuthorizer) =>
      signer.signTypedData({
        domain,
        types: {
          Refund: [
            { name: 'channelId', type: 'bytes32' },
            { name: 'nonce', type: 'uint256' },
            { name: 'amount', type: 'uint128' },
          ],
        },
        primaryType: 'Refund',
        message: { channelId: id, nonce, amount },
      }),
  }
}

const events = (receipt: { logs: never[] }) =>
  parseEventLogs({ abi, logs: receipt.logs }).map((l) => (l as { eventName?: string }).eventName)

describe('deposits', () => {
  test('a deposit credits the channel and emits ChannelCreated once', async () => {
    const c = await channel()
    expect(events((await c.deposit(5000n)) as never)).toEqual(['ChannelCreated', 'Deposited'])
    expect(events((await c.deposit(3000n)) as never)).toEqual(['Deposited'])
    expect((await c.state()).balance).toBe(8000n)
  })

  test('withdraw delay outside 15 min - 30 days and a zero receiver authorizer are refused', async () => {
    const c = await channel()
    await expect(c.deposit(1000n, { ...c.config, withdrawDelay: 899 })).rejects.toThrow()
    await expect(c.deposit(1000n, { ...c.config, withdrawDelay: 2_592_001 })).rejects.toThrow()
    await expect(c.deposit(1000n, { ...c.config, receiverAuthorizer: `0x${'00'.repeat(20)}` })).rejects.toThrow()
  })

  test('only the settlement contract may call the collector', async () => {
    const c = await channel()
    const w = wallet(c.payer)
    await expect(
      w.simulateContract({
        address: ERC3009_DEPOSIT_COLLECTOR,
        abi: collectorAbi,
        functionName: 'collect',
        args: [c.payer.address, chain.usdc, 1n, c.id, '0x'],
      } as never),
    ).rejects.toThrow(/OnlySettlement/)
  })
})

describe('claims', () => {
  const entry = (c: Awaited<ReturnType<typeof channel>>, max: bigint, sig: Hex, total: bigint) => ({
    voucher: { channel: c.config, maxClaimableAmount: max },
    signature: sig,
    totalClaimed: total,
  })

  test('the receiver authorizer claims; a stranger, a forged voucher, a claim above the voucher or balance cannot', async () => {
    const c = await channel()
    await c.deposit(10_000n)
    const stranger = privateKeyToAccount(generatePrivateKey())
    await setEthBalance(chain.rpcUrl, stranger.address, 10n ** 17n)
    const sig = await c.voucher(4000n)
    await expect(c.send(stranger, 'claim', [[entry(c, 4000n, sig, 4000n)]])).rejects.toThrow()
    await expect(
      c.send(receiverAuthorizer, 'claim', [[entry(c, 4000n, await c.voucher(4000n, stranger), 4000n)]]),
    ).rejects.toThrow()
    await expect(c.send(receiverAuthorizer, 'claim', [[entry(c, 4000n, sig, 4001n)]])).rejects.toThrow()
    const big = await c.voucher(20_000n)
    await expect(c.send(receiverAuthorizer, 'claim', [[entry(c, 20_000n, big, 10_001n)]])).rejects.toThrow()
    expect(events((await c.send(receiverAuthorizer, 'claim', [[entry(c, 4000n, sig, 3000n)]])) as never)).toEqual([
      'Claimed',
    ])
    // an older (lower) claim is a no-op, never a lowering
    expect(events((await c.send(receiverAuthorizer, 'claim', [[entry(c, 4000n, sig, 2000n)]])) as never)).toEqual([])
    expect((await c.state()).totalClaimed).toBe(3000n)
  })

  test("a voucher's high-s twin or its v 0/1 form: viem recovers the payer, claim refuses it, and so does the server's check", async () => {
    const c = await channel()
    await c.deposit(10_000n)
    const sig = await c.voucher(3000n)
    const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
    const [r, sHex, v] = [sig.slice(2, 66), sig.slice(66, 130), Number.parseInt(sig.slice(130), 16)]
    const twin = `0x${r}${(N - BigInt(`0x${sHex}`)).toString(16).padStart(64, '0')}${v === 27 ? '1c' : '1b'}` as Hex
    const recid = `0x${r}${sHex}0${v - 27}` as Hex
    for (const bad of [twin, recid]) {
      expect((await recoverTypedDataAddress({ ...c.typed(3000n), signature: bad })).toLowerCase()).toBe(
        c.payer.address.toLowerCase(),
      )
      await expect(c.send(receiverAuthorizer, 'claim', [[entry(c, 3000n, bad, 3000n)]])).rejects.toThrow()
      await expect(voucherSigner(c.id, 3000n, bad, 8453)).rejects.toThrow()
    }
    expect((await voucherSigner(c.id, 3000n, sig, 8453)).toLowerCase()).toBe(c.payer.address.toLowerCase())
    await c.send(receiverAuthorizer, 'claim', [[entry(c, 3000n, sig, 3000n)]])
    expect((await c.state()).totalClaimed).toBe(3000n)
  })

  test('claimWithSignature needs the receiver authorizer signature over exactly these rows', async () => {
    const c = await channel()
    await c.deposit(10_000n)
    const rows = [entry(c, 5000n, await c.voucher(5000n), 5000n)]
    const digest = (await c.read('getClaimBatchDigest', [rows])) as Hex
    const good = await receiverAuthorizer.sign({ hash: digest })
    const relayer = privateKeyToAccount(generatePrivateKey())
    await setEthBalance(chain.rpcUrl, relayer.address, 10n ** 17n)
    const other = [entry(c, 5000n, rows[0].signature, 4999n)]
    await expect(c.send(relayer, 'claimWithSignature', [other, good])).rejects.toThrow()
    await c.send(relayer, 'settle', [chain.payee.address, chain.usdc]) // sweep earlier tests' claims first
    await c.send(relayer, 'claimWithSignature', [rows, good])
    expect((await c.state()).totalClaimed).toBe(5000n)
    // the claimed funds reach the receiver only through settle (permissionless)
    const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
    await c.send(relayer, 'settle', [chain.payee.address, chain.usdc])
    expect(await usdcBalance(chain.rpcUrl, chain.payee.address)).toBe(before + 5000n)
  })
})

describe('withdrawal and refund', () => {
  test('only the payer side starts a withdrawal, for at most the unclaimed escrow', async () => {
    const c = await channel()
    await c.deposit(10_000n)
    await expect(c.send(receiverAuthorizer, 'initiateWithdraw', [c.config, 1000n])).rejects.toThrow()
    await expect(c.send(c.payer, 'initiateWithdraw', [c.config, 10_001n])).rejects.toThrow()
    await c.send(c.payer, 'initiateWithdraw', [c.config, 8000n])
    expect((await c.state()).wdAmount).toBe(8000n)
    await expect(c.send(c.payer, 'finalizeWithdraw', [c.config])).rejects.toThrow()
  })

  test('the refund nonce moves first, even for a refund of nothing; a stale nonce or a forged signature is refused', async () => {
    const c = await channel()
    await c.deposit(2000n)
    const relayer = privateKeyToAccount(chain.settler.privateKey)
    await expect(
      c.send(relayer, 'refundWithSignature', [c.config, 500n, 0n, await c.refundSig(0n, 500n, c.payer)]),
    ).rejects.toThrow()
    await expect(
      c.send(relayer, 'refundWithSignature', [c.config, 500n, 0n, await c.refundSig(0n, 600n)]),
    ).rejects.toThrow()
    const before = await usdcBalance(chain.rpcUrl, c.payer.address)
    await c.send(relayer, 'refundWithSignature', [c.config, 2000n, 0n, await c.refundSig(0n, 2000n)])
    expect(await usdcBalance(chain.rpcUrl, c.payer.address)).toBe(before + 2000n)
    expect(await c.state()).toMatchObject({ balance: 0n, refundNonce: 1n })
    await expect(
      c.send(relayer, 'refundWithSignature', [c.config, 1n, 0n, await c.refundSig(0n, 1n)]),
    ).rejects.toThrow()
    const noop = await c.send(relayer, 'refundWithSignature', [c.config, 1n, 1n, await c.refundSig(1n, 1n)])
    expect(events(noop as never)).toEqual([])
    expect((await c.state()).refundNonce).toBe(2n)
  })

  test('a refund shrinks a pending withdrawal, cancels it when it covers it, and a drained channel is closed', async () => {
    const c = await channel()
    await c.deposit(10_000n)
    await c.send(c.payer, 'initiateWithdraw', [c.config, 6000n])
    await c.send(receiverAuthorizer, 'refund', [c.config, 2000n])
    expect(await c.state()).toMatchObject({ balance: 8000n, wdAmount: 4000n })
    const last = await c.send(receiverAuthorizer, 'refund', [c.config, 9000n])
    expect(events(last as never)).toEqual(['Refunded', 'ChannelClosed'])
    expect(await c.state()).toMatchObject({ balance: 0n, wdAmount: 0n, wdAt: 0 })
  })
})
