import { hexToBig, type Rpc } from './rpc'

export interface Fees {
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
  /** The next block's base fee the estimate was made from. */
  baseFee: bigint
}

/** Priority fee floor: Base includes transactions with ~0.001 gwei; we never offer less. */
export const MIN_PRIORITY_FEE = 1_000_000n

/**
 * EIP-1559 fees from one `eth_feeHistory(1, latest, [50])` call, cached and refreshed at most once per block:
 * a newer block seen anywhere (a receipt, the watcher) or `maxAgeMs` marks the cache stale, and the next `get()`
 * refreshes it in the background while answering with the cached value (only the very first call waits).
 * maxFee = 2 × next base fee + tip, which stays valid through ~6 full blocks of base-fee growth.
 */
export class FeeCache {
  private fees: Fees | null = null
  private block = -1
  private at = 0
  private stale = true
  private inflight: Promise<Fees> | null = null

  constructor(
    private rpc: Rpc,
    private maxAgeMs: number,
  ) {}

  /** The last estimate, if any (no I/O). */
  get current(): Fees | null {
    return this.fees
  }

  /** A block number seen elsewhere: if newer than the one the fees came from, the next get() refreshes. */
  observeBlock(n: number): void {
    if (n > this.block) this.stale = true
  }

  /** Cached fees (refreshing in the background when stale); waits only when there is no estimate yet or `fresh`. */
  async get(fresh = false): Promise<Fees> {
    const expired = this.stale || Date.now() - this.at > this.maxAgeMs
    if (this.fees && !fresh) {
      if (expired) void this.refresh().catch(() => {})
      return this.fees
    }
    return this.refresh()
  }

  private refresh(): Promise<Fees> {
    this.inflight ??= (async () => {
      try {
        const h = await this.rpc<{ baseFeePerGas: string[]; reward?: string[][]; oldestBlock: string }>(
          'eth_feeHistory',
          [1, 'latest', [50]],
        )
        const baseFee = hexToBig(h.baseFeePerGas[h.baseFeePerGas.length - 1])
        const tip = hexToBig(h.reward?.[0]?.[0])
        const prio = tip > MIN_PRIORITY_FEE ? tip : MIN_PRIORITY_FEE
        this.fees = { baseFee, maxPriorityFeePerGas: prio, maxFeePerGas: baseFee * 2n + prio }
        this.block = Number(hexToBig(h.oldestBlock)) + h.baseFeePerGas.length - 2
        this.at = Date.now()
        this.stale = false
        return this.fees
      } finally {
        this.inflight = null
      }
    })()
    return this.inflight
  }
}

/** Replacement fees for a stuck transaction: +12.5 % (nodes require ≥ 10 %) and at least the current estimate. */
export function bumped(
  prev: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint },
  now: Fees,
): { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } {
  const up = (x: bigint) => x + x / 8n + 1n
  const prio =
    up(prev.maxPriorityFeePerGas) > now.maxPriorityFeePerGas ? up(prev.maxPriorityFeePerGas) : now.maxPriorityFeePerGas
  const max = up(prev.maxFeePerGas) > now.maxFeePerGas ? up(prev.maxFeePerGas) : now.maxFeePerGas
  return { maxFeePerGas: max > prio ? max : prio, maxPriorityFeePerGas: prio }
}
