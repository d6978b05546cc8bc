import type { Hex } from 'viem'
import { decodeAbiParameters, encodeFunctionData, getAddress } from 'viem/utils'
import { EIP3009_ABI, revertReason } from '../eip3009-abi'
import { REASON } from '../reasons'
import { ESTIMATE_MARGIN_PCT, TRANSFER_WITH_AUTHORIZATION_GAS } from './settle/gas'
import { settlerHealth } from './settle/health'
import { tokenBalance } from './settle/balance'
import { chainStatus, findUse, paysUs } from './settle/proof'
import { succeeded, type RawReceipt } from './settle/receipt'
import { createRpc, hexToBig, RpcError, withReadRetry, type Rpc } from './settle/rpc'
import { Settler } from './settle/settler'
import { SettlementBatcher } from './settle/batch'
import { MULTICALL3 } from '../../chain/addresses'
import type {
  DecodedPayment,
  Facilitator,
  FacilitatorHealth,
  PaymentRequirements,
  SettleResult,
  VerifyResult,
} from '../types'

export interface LocalFacilitatorOptions {
  rpcUrl: string
  /** One settler key (SETTLER_PRIVATE_KEY)… */
  settlerKey?: Hex
  /** …or a pool (SETTLER_PRIVATE_KEYS): each key is its own nonce lane. */
  settlerKeys?: Hex[]
  chainId: number
  /** How long settle() waits for a receipt before answering pending (the ledger reconciles it later), ms. */
  receiptTimeoutMs?: number
  /** Head polling period of the shared receipt watcher (ms); default blockTimeMs / 8, at least 20. */
  pollingIntervalMs?: number
  rpcTimeoutMs?: number
  /** Expected block interval (ms), default 2000 (Base). */
  blockTimeMs?: number
  /** Re-send a transaction with a bumped fee after this many blocks without a receipt; default 3. */
  stuckBlocks?: number
  /** Most blocks reconciliation searches for one authorization's AuthorizationUsed log (its validity window); default 10,000. */
  logLookbackBlocks?: number
  /** Settler balance refresh period (ms); default 60,000. */
  balanceEveryMs?: number
  /**
   * Optional batching of EOA settlements into one Multicall3 aggregate3 transaction (off by default): settlements
   * arriving within `windowMs` share a transaction (at most `max`, default 50). `multicall` defaults to Multicall3.
   */
  batch?: { windowMs: number; max?: number; multicall?: Hex }
}

/** How far back a failed settlement looks for a front-runner's transaction (it was mined while our handler ran). */
const FRONT_RUN_LOOKBACK = 300

/** The revert message of an eth_call / eth_estimateGas error, or null when the error is not a revert. */
function revertOf(e: unknown): string | null {
  if (!(e instanceof RpcError)) return null
  let reason = ''
  if (e.data?.startsWith('0x08c379a0')) {
    try {
      reason = decodeAbiParameters([{ type: 'string' }], `0x${e.data.slice(10)}`)[0]
    } catch {
      /* not an Error(string) */
    }
  }
  if (reason || e.code === 3 || /revert/i.test(e.message)) return `${e.message} ${reason}`
  return null
}

/** The recovery byte of a 65-byte signature that ECDSA can use (0, 1, 27, 28), as 27/28; null for anything else. */
function ecdsaV(sig: string): number | null {
  if ((sig.length - 2) / 2 !== 65) return null
  const v = Number.parseInt(sig.slice(130, 132), 16)
  return v === 0 || v === 1 ? v + 27 : v === 27 || v === 28 ? v : null
}

/**
 * Call arguments: the (v, r, s) variant for 65-byte signatures whose v is an ECDSA recovery byte, the bytes variant
 * otherwise: other lengths and other v (a Safe's eth_sign signatures carry v = 31/32), which only a contract wallet's
 * EIP-1271 check can read; the chain decides.
 */
function calldata(p: DecodedPayment): Hex {
  let data = calldataOf.get(p)
  if (!data) {
    data = vrsCalldata(p) ?? encodeCalldata(p)
    calldataOf.set(p, data)
  }
  return data
}
/** Each payment's calldata, built once for its simulation and reused by its settlement. */
const calldataOf = new WeakMap<DecodedPayment, Hex>()

/** The (v, r, s) overload's selector, taken from viem once. */
const VRS_SELECTOR = encodeFunctionData({
  abi: EIP3009_ABI,
  functionName: 'transferWithAuthorization',
  args: [MULTICALL3, MULTICALL3, 0n, 0n, 0n, `0x${'0'.repeat(64)}`, 27, `0x${'0'.repeat(64)}`, `0x${'0'.repeat(64)}`],
}).slice(0, 10)
const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const WORD = /^0x[0-9a-fA-F]{64}$/
const UINT = /^\d{1,78}$/
const MAX_UINT256 = (1n << 256n) - 1n
const uintWord = (v: string) => {
  const n = BigInt(v)
  return n <= MAX_UINT256 ? n.toString(16).padStart(64, '0') : null
}

/**
 * The (v, r, s) overload's calldata written word by word (all nine arguments are static): the same bytes as viem's
 * `encodeFunctionData`, which looked the overload up and hashed its signature on every call (3–4 % of the server's
 * CPU per exact paid call, twice per call: simulation and settlement). Null for anything but the plain case (viem
 * encodes, and refuses, those).
 */
export function vrsCalldata(p: DecodedPayment): Hex | null {
  const a = p.payload.authorization
  const sig = p.payload.signature
  const v = ecdsaV(sig)
  if (v === null || !/^0x[0-9a-fA-F]{130}$/.test(sig)) return null
  if (!ADDRESS.test(a.from) || !ADDRESS.test(a.to) || !WORD.test(a.nonce)) return null
  if (![a.value, a.validAfter, a.validBefore].every((x) => UINT.test(String(x)))) return null
  const uints = [a.value, a.validAfter, a.validBefore].map((x) => uintWord(String(x)))
  if (uints.some((x) => x === null)) return null
  const address = (x: string) => x.slice(2).toLowerCase().padStart(64, '0')
  return `${VRS_SELECTOR}${address(a.from)}${address(a.to)}${uints.join('')}${a.nonce.slice(2).toLowerCase()}${v
    .toString(16)
    .padStart(64, '0')}${sig.slice(2, 66).toLowerCase()}${sig.slice(66, 130).toLowerCase()}` as Hex
}

export function encodeCalldata(p: DecodedPayment): Hex {
  const a = p.payload.authorization
  const base = [
    getAddress(a.from),
    getAddress(a.to),
    BigInt(a.value),
    BigInt(a.validAfter),
    BigInt(a.validBefore),
    a.nonce,
  ] as const
  const sig = p.payload.signature
  const v = ecdsaV(sig)
  if (v !== null)
    return encodeFunctionData({
      abi: EIP3009_ABI,
      functionName: 'transferWithAuthorization',
      args: [...base, v, `0x${sig.slice(2, 66)}`, `0x${sig.slice(66, 130)}`],
    })
  return encodeFunctionData({ abi: EIP3009_ABI, functionName: 'transferWithAuthorization', args: [...base, sig] })
}

/**
 * Self-facilitation: verifies with an eth_call simulation of transferWithAuthorization and settles through the
 * settlement pipeline (runtime/pay/facilitator/settle/): pooled settler keys, local nonces, cached fees, raw sends, one
 * receipt per send (EIP-7966) or one shared block watcher, stuck-transaction recovery. A payment counts as
 * settled only with a receipt whose logs show this authorization paying us (settle/proof.ts).
 */
export function createLocalFacilitator(o: LocalFacilitatorOptions): Facilitator & { settler: Settler } {
  const keys = o.settlerKeys?.length ? o.settlerKeys : o.settlerKey ? [o.settlerKey] : []
  const raw: Rpc = createRpc(o.rpcUrl, o.rpcTimeoutMs ?? 10_000)
  const rpc = withReadRetry(raw) // reads only: the settler sends through `raw`
  const blockTimeMs = o.blockTimeMs ?? 2000
  const settler = new Settler(raw, {
    chainId: o.chainId,
    keys,
    blockTimeMs,
    pollMs: o.pollingIntervalMs ?? Math.max(20, blockTimeMs / 8),
    stuckBlocks: o.stuckBlocks ?? 3,
  })
  const batcher = o.batch
    ? new SettlementBatcher(settler, {
        windowMs: o.batch.windowMs,
        max: o.batch.max ?? 50,
        multicall: o.batch.multicall ?? MULTICALL3,
        perCallGas: TRANSFER_WITH_AUTHORIZATION_GAS,
      })
    : null
  const codeCache = new Map<string, { has: boolean; at: number }>()
  let reachable = true
  let lastError: string | undefined
  const refresh = () =>
    settler.readBalances().then(
      () => {
        reachable = true
      },
      (e) => {
        reachable = false
        lastError = (e as Error).message
      },
    )
  void settler.init().then(
    () => {
      reachable = true
    },
    (e) => {
      reachable = false
      lastError = (e as Error).message
    },
  )
  const timer = setInterval(() => void refresh(), o.balanceEveryMs ?? 60_000)
  timer.unref?.()
  const health = (): FacilitatorHealth => settlerHealth(settler, TRANSFER_WITH_AUTHORIZATION_GAS, reachable, lastError)
  /** The payer is an EOA whose 65-byte ECDSA signature was recovered locally (hasCode never said otherwise). */
  const eoaPath = (p: DecodedPayment) =>
    ecdsaV(p.payload.signature) !== null && !codeCache.get(p.payload.authorization.from.toLowerCase())?.has
  const fail = (req: PaymentRequirements, payer: string, errorReason: string, tx = ''): SettleResult => ({
    success: false,
    transaction: tx,
    network: req.network,
    payer,
    errorReason,
  })
  const paid = (req: PaymentRequirements, payer: string, tx: string, r: RawReceipt): SettleResult => ({
    success: true,
    transaction: tx,
    network: req.network,
    payer,
    gasUsed: hexToBig(r.gasUsed).toString(),
    effectiveGasPrice: hexToBig(r.effectiveGasPrice).toString(),
  })

  return {
    kind: 'local',
    settler,
    health,
    async verify(p, req): Promise<VerifyResult> {
      const payer = p.payload.authorization.from
      // Boot reads (nonces, balances, fees) once; if the chain is down this throws and the gate answers 503.
      await settler.init()
      // Before any verification RPC: with no settler able to pay gas the gate answers 503 and nothing is verified.
      if (!health().canPay) throw new Error('no settler key can pay for gas')
      try {
        await rpc('eth_call', [
          { from: settler.lanes[0].address, to: getAddress(req.asset), data: calldata(p) },
          'latest',
        ])
        return { isValid: true, payer }
      } catch (e) {
        const reason = revertOf(e)
        if (reason === null) throw e
        return { isValid: false, invalidReason: revertReason(reason), payer }
      }
    },
    async settle(p, req, onSubmitted): Promise<SettleResult> {
      const a = p.payload.authorization
      const payer = a.from
      const asset = getAddress(req.asset)
      const data = calldata(p)
      let gas = TRANSFER_WITH_AUTHORIZATION_GAS
      if (!eoaPath(p)) {
        try {
          gas =
            (hexToBig(await rpc<string>('eth_estimateGas', [{ from: settler.lanes[0].address, to: asset, data }])) *
              ESTIMATE_MARGIN_PCT) /
            100n
        } catch (e) {
          const reason = revertOf(e)
          if (reason === null) throw e
          const front = await frontRun(p, req)
          return front ?? fail(req, payer, revertReason(reason))
        }
      }
      let first: string | undefined
      const onHash = (h: string) => {
        if (!first) {
          first = h
          onSubmitted(h)
        }
      }
      // EOA settlements may share a batch transaction; `share` is how many settlements its gas is split over.
      let share = 1n
      const sent =
        batcher && gas === TRANSFER_WITH_AUTHORIZATION_GAS
          ? batcher.add(asset, data, onHash).then(({ receipt, size }) => {
              share = BigInt(size)
              return receipt
            })
          : settler.submit(asset, data, gas, onHash)
      let timer: ReturnType<typeof setTimeout> | undefined
      const timeout = new Promise<'timeout'>((r) => {
        timer = setTimeout(() => r('timeout'), o.receiptTimeoutMs ?? 30_000)
      })
      let r: RawReceipt | 'timeout'
      try {
        r = await Promise.race([sent, timeout])
      } catch (e) {
        if (/can pay for gas/.test((e as Error).message)) throw e
        // The node refused the transaction: most likely nothing is on chain, but an RPC behind a load balancer can
        // refuse what another node accepted. Pending, not failed: reconciliation decides from the chain (the
        // authorization used and paying us → settled; unused once expired → failed), so the books never drift.
        return { ...fail(req, payer, 'settlement_rejected_by_node', first ?? ''), pending: true }
      } finally {
        clearTimeout(timer)
      }
      if (r === 'timeout') return { ...fail(req, payer, REASON.settlementPending, first ?? ''), pending: true }
      if (paysUs(r, asset, a))
        return { ...paid(req, payer, r.transactionHash, r), gasUsed: (hexToBig(r.gasUsed) / share).toString() }
      // Reverted (or paid someone else): was this exact authorization already used to pay us (front-running)?
      const front = await frontRun(p, req, r, share).catch(() => null)
      if (front) return front
      return {
        ...fail(req, payer, succeeded(r) ? REASON.transferEventMismatch : REASON.transactionFailed, r.transactionHash),
        gasUsed: (hexToBig(r.gasUsed) / share).toString(),
        effectiveGasPrice: hexToBig(r.effectiveGasPrice).toString(),
      }
    },
    status: (tx, p, req, receivedAtMs) =>
      chainStatus(rpc, tx, p.payload.authorization, req.asset, {
        receivedAtMs,
        maxTimeoutSeconds: req.maxTimeoutSeconds,
        blockTimeMs: o.blockTimeMs,
        maxBlocks: o.logLookbackBlocks,
      }),
    balance: (payer, asset) => tokenBalance(rpc, payer, asset),
    async hasCode(address) {
      const k = address.toLowerCase()
      const hit = codeCache.get(k)
      if (hit && (hit.has || Date.now() - hit.at < 60_000)) return hit.has
      const code = await rpc<string>('eth_getCode', [getAddress(address), 'latest'])
      if (codeCache.size > 10_000) codeCache.clear()
      codeCache.set(k, { has: !!code && code !== '0x', at: Date.now() })
      return code !== '0x' && !!code
    },
    async close() {
      batcher?.close()
      clearInterval(timer)
      settler.close()
    },
  }

  /** Success naming the transaction that used this exact authorization to pay us, if there is one. */
  async function frontRun(
    p: DecodedPayment,
    req: PaymentRequirements,
    ours?: RawReceipt,
    share = 1n,
  ): Promise<SettleResult | null> {
    const found = await findUse(rpc, req.asset, p.payload.authorization, FRONT_RUN_LOOKBACK)
    if (!found?.paid) return null
    const r = await rpc<RawReceipt>('eth_getTransactionReceipt', [found.tx])
    return {
      ...paid(req, p.payload.authorization.from, found.tx, r),
      ...(ours
        ? {
            gasUsed: (hexToBig(ours.gasUsed) / share).toString(),
            effectiveGasPrice: hexToBig(ours.effectiveGasPrice).toString(),
          }
        : { gasUsed: '0', effectiveGasPrice: '0' }),
    }
  }
}

export type { PaymentRequirements }
