import { hexToBig, toHexQ, type Rpc } from './rpc'

/** A block's number and timestamp (unix seconds). */
interface BlockRef {
  number: number
  timestamp: number
}

/** A bracket is done once it is this many blocks wide: searching a few extra blocks is cheaper than finding them. */
const SLACK = 64
/** Reads at most this many blocks per bracket (the bisection steps alone need about 2·log2(head)). */
const MAX_READS = 80

async function block(rpc: Rpc, tag: string): Promise<BlockRef> {
  const b = await rpc<{ number: string; timestamp: string } | null>('eth_getBlockByNumber', [tag, false])
  if (!b) throw new Error(`eth_getBlockByNumber: no block ${tag}`)
  return { number: Number(hexToBig(b.number)), timestamp: Number(hexToBig(b.timestamp)) }
}

/** The chain's head block. */
export const latestBlock = (rpc: Rpc) => block(rpc, 'latest')

/**
 * Finds blocks by timestamp below a known head, for one search: every block read is cached, and each search starts
 * from the tightest blocks already read. Block timestamps never decrease with the number (anvil may repeat one).
 */
export class BlockClock {
  private seen = new Map<number, number>()

  constructor(
    private rpc: Rpc,
    readonly head: BlockRef,
    /** Expected seconds per block: only the first guess uses it, the chain's own timestamps correct it. */
    private secondsPerBlock = 2,
  ) {
    if (!(secondsPerBlock > 0.001)) this.secondsPerBlock = 2
    this.seen.set(head.number, head.timestamp)
  }

  /** Blocks read so far (the head included). */
  get reads(): number {
    return this.seen.size
  }

  private async time(n: number): Promise<number> {
    const hit = this.seen.get(n)
    if (hit !== undefined) return hit
    const t = (await block(this.rpc, toHexQ(n))).timestamp
    this.seen.set(n, t)
    return t
  }

  /**
   * [lo, hi] with timestamp(lo) < t <= timestamp(hi) and hi - lo <= SLACK (unless the read cap is hit, then wider,
   * still true): the first block at or after `t` is in (lo, hi]. lo = -1 when block 0 is already at or after `t`;
   * hi = head + 1 when the head is still before `t`.
   */
  async bracket(t: number): Promise<[number, number]> {
    let lo = -1
    let hi = this.head.number + 1
    let tLo = -Infinity
    let tHi = Infinity
    for (const [n, ts] of this.seen) {
      if (ts < t && n > lo) [lo, tLo] = [n, ts]
      if (ts >= t && n < hi) [hi, tHi] = [n, ts]
    }
    let back = SLACK / 2
    let bisect = false
    for (let reads = 0; hi - lo > SLACK && reads < MAX_READS; reads++) {
      let m: number
      if (lo < 0) {
        // Nothing known before t: step back from hi at the expected block time, further each time it falls short.
        m = hi - Math.ceil((tHi - t) / this.secondsPerBlock) - back
        back *= 2
      } else if (bisect || !(tHi > tLo) || hi > this.head.number) m = Math.floor((lo + hi) / 2)
      else {
        // Interpolate, then aim a little past the estimate on the far side so the bracket can close from both ends.
        const est = lo + ((t - tLo) * (hi - lo)) / (tHi - tLo)
        m = Math.round(est - lo < hi - est ? est + SLACK / 4 : est - SLACK / 4)
      }
      m = Math.min(hi - 1, Math.max(lo + 1, m))
      const width = hi - lo
      const tm = await this.time(m)
      if (tm < t) [lo, tLo] = [m, tm]
      else [hi, tHi] = [m, tm]
      // An interpolation that did not halve the bracket (uneven block times, a time jump): bisect next.
      bisect = !bisect && lo >= 0 && (hi - lo) * 2 > width
    }
    return [lo, hi]
  }

  /**
   * The blocks whose timestamps can lie in [from, to] (seconds, inclusive), a few extra at each end: null when none
   * is mined yet. `to` beyond the head's timestamp ends at the head.
   */
  async span(from: number, to: number): Promise<{ from: number; to: number } | null> {
    if (from > to || from > this.head.timestamp) return null
    const [lo] = await this.bracket(from)
    const end = to >= this.head.timestamp ? this.head.number : (await this.bracket(to + 1))[1] - 1
    const start = lo + 1
    return start <= end ? { from: start, to: end } : null
  }
}
