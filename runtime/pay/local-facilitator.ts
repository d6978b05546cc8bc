import {
  BaseError, ContractFunctionRevertedError, createPublicClient, createWalletClient, defineChain, encodeFunctionData,
  getAddress, http, isAddressEqual, parseEventLogs, parseSignature, type Hex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { EIP3009_ABI, revertReason } from './eip3009-abi'
import type { DecodedPayment, Facilitator, PaymentRequirements, SettleResult, VerifyResult } from './types'

export interface LocalFacilitatorOptions {
  rpcUrl: string
  settlerKey: Hex
  chainId: number
  /** How long to wait for a receipt before recording the settlement as pending (ms). */
  receiptTimeoutMs?: number
  pollingIntervalMs?: number
  rpcTimeoutMs?: number
}

/** True when a viem error is a contract revert (the payment is invalid), not a transport failure. */
function isRevert(e: unknown): string | null {
  if (!(e instanceof BaseError)) return null
  const revert = e.walk((x) => x instanceof ContractFunctionRevertedError)
  if (revert) return (revert as ContractFunctionRevertedError).reason ?? (revert as ContractFunctionRevertedError).shortMessage ?? 'reverted'
  const msg = `${e.shortMessage} ${e.details ?? ''}`
  return /execution reverted|revert/i.test(msg) ? msg : null
}

/** Retries a read-only RPC call on transport/transient errors (not on reverts): up to 2 more tries, 50 ms apart. */
async function read<T>(fn: () => Promise<T>, tries = 3): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn()
    } catch (e) {
      if (i >= tries || isRevert(e) !== null) throw e
      await new Promise((r) => setTimeout(r, 50 * i))
    }
  }
}

/**
 * Self-facilitation: verifies with an eth_call simulation of transferWithAuthorization from the settler and
 * settles by sending it. Sends are serialized with a locally managed nonce, receipts are awaited in parallel.
 */
export function createLocalFacilitator(o: LocalFacilitatorOptions): Facilitator {
  const chain = defineChain({ id: o.chainId, name: `eip155:${o.chainId}`, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [o.rpcUrl] } } })
  const transport = http(o.rpcUrl, { timeout: o.rpcTimeoutMs ?? 10_000, retryCount: 0 })
  const account = privateKeyToAccount(o.settlerKey)
  const pub = createPublicClient({ chain, transport, pollingInterval: o.pollingIntervalMs ?? 250 })
  const wallet = createWalletClient({ chain, transport, account, pollingInterval: o.pollingIntervalMs ?? 250 })
  let nextNonce: number | null = null
  let queue: Promise<unknown> = Promise.resolve()
  const serialized = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn)
    queue = run.catch(() => {})
    return run
  }

  const callArgs = (p: DecodedPayment) => {
    const a = p.payload.authorization
    const base = [getAddress(a.from), getAddress(a.to), BigInt(a.value), BigInt(a.validAfter), BigInt(a.validBefore), a.nonce] as const
    const sig = p.payload.signature
    if ((sig.length - 2) / 2 === 65) {
      const { r, s, v, yParity } = parseSignature(sig)
      return [...base, Number(v ?? BigInt(27 + yParity!)), r, s] as const
    }
    return [...base, sig] as const
  }
  const data = (p: DecodedPayment) => encodeFunctionData({ abi: EIP3009_ABI, functionName: 'transferWithAuthorization', args: callArgs(p) as never })

  return {
    kind: 'local',
    async verify(p, req): Promise<VerifyResult> {
      const payer = p.payload.authorization.from
      try {
        await read(() => pub.call({ account: account.address, to: getAddress(req.asset), data: data(p) }))
        return { isValid: true, payer }
      } catch (e) {
        const reason = isRevert(e)
        if (reason === null) throw e
        return { isValid: false, invalidReason: revertReason(reason), payer }
      }
    },
    async settle(p, req, onSubmitted): Promise<SettleResult> {
      const payer = p.payload.authorization.from
      const to = getAddress(req.asset)
      let hash: Hex
      try {
        hash = await serialized(async () => {
          const gas = await read(() => pub.estimateGas({ account: account.address, to, data: data(p) }))
          if (nextNonce === null) nextNonce = await read(() => pub.getTransactionCount({ address: account.address, blockTag: 'pending' }))
          const nonce = nextNonce
          try {
            const h = await wallet.sendTransaction({ to, data: data(p), gas: (gas * 12n) / 10n, nonce, chain })
            nextNonce = nonce + 1
            return h
          } catch (e) {
            nextNonce = null // resync from the chain on the next send
            throw e
          }
        })
      } catch (e) {
        const reason = isRevert(e)
        if (reason !== null) return { success: false, transaction: '', network: req.network, payer, errorReason: revertReason(reason) }
        throw e
      }
      onSubmitted(hash)
      try {
        const receipt = await pub.waitForTransactionReceipt({ hash, timeout: o.receiptTimeoutMs ?? 30_000, pollingInterval: o.pollingIntervalMs ?? 250 })
        if (receipt.status !== 'success') return { success: false, transaction: hash, network: req.network, payer, errorReason: 'invalid_exact_evm_transaction_failed' }
        const a = p.payload.authorization
        const ok = parseEventLogs({ abi: EIP3009_ABI, logs: receipt.logs, eventName: 'Transfer' }).some(
          (l) => isAddressEqual(l.address, to) && isAddressEqual(l.args.from, a.from) && isAddressEqual(l.args.to, a.to) && l.args.value === BigInt(a.value),
        )
        if (!ok) return { success: false, transaction: hash, network: req.network, payer, errorReason: 'invalid_exact_evm_transfer_event_mismatch' }
        return { success: true, transaction: hash, network: req.network, payer }
      } catch {
        return { success: false, pending: true, transaction: hash, network: req.network, payer, errorReason: 'settlement_pending' }
      }
    },
    async status(tx, p, req) {
      if (tx) {
        const receipt = await pub.getTransactionReceipt({ hash: tx as Hex }).catch(() => null)
        if (receipt) return receipt.status === 'success' ? 'settled' : 'failed'
      }
      const a = p.payload.authorization
      const used = await pub.readContract({ address: getAddress(req.asset), abi: EIP3009_ABI, functionName: 'authorizationState', args: [getAddress(a.from), a.nonce] })
      if (used) return 'settled'
      return BigInt(a.validBefore) < BigInt(Math.floor(Date.now() / 1000)) ? 'failed' : 'unknown'
    },
  }
}

export type { PaymentRequirements }
