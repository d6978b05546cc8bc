import type { FeeCache } from './fees'
import type { Job } from './lane'
import type { RawReceipt } from './receipt'
import { hexToBig, toHexQ, type Rpc } from './rpc'

/** How many missed blocks one poll catches up on (a longer stall is left to recovery's direct receipt checks). */
const MAX_CATCH_UP = 16

/**
 * One block-driven receipt watcher for every transaction in flight (never a polling loop per payment). While jobs
 * are tracked it reads the head (`eth_getBlockByNumber(latest)`) every `pollMs`; on each new block that contains a
 * tracked hash it fetches that block's receipts in one `eth_getBlockReceipts` call. Jobs older than `stuckBlocks`
 * blocks (or `stuckMs`) are handed to `onStuck` (fee bump / gap fill), once per period per job.
 */
export class BlockWatcher {
  private tracked = new Map<string, Job>()
  private last = -1
  private timer: ReturnType<typeof setTimeout> | null = null
  private closed = false
  head = -1

  constructor(
    private rpc: Rpc,
    private fees: FeeCache,
    private o: { pollMs: number; stuckBlocks: number; stuckMs: number },
    private onReceipt: (job: Job, r: RawReceipt) => void,
    private onStuck: (jobs: Job[]) => Promise<void>,
  ) {}

  track(job: Job): void {
    if (job.receipt) return
    for (const h of job.hashes) this.tracked.set(h, job)
    this.schedule()
  }

  untrack(job: Job): void {
    for (const h of job.hashes) this.tracked.delete(h)
  }

  get size() {
    return this.tracked.size
  }

  close(): void {
    this.closed = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
  }

  private schedule(): void {
    if (this.timer || this.closed || this.tracked.size === 0) return
    this.timer = setTimeout(
      () =>
        void this.tick().finally(() => {
          this.timer = null
          this.schedule()
        }),
      this.o.pollMs,
    )
  }

  private async tick(): Promise<void> {
    let head: { number: string; transactions: string[] }
    try {
      head = await this.rpc('eth_getBlockByNumber', ['latest', false])
    } catch {
      return // node unreachable: try again next period
    }
    const n = Number(hexToBig(head.number))
    this.head = Math.max(this.head, n)
    this.fees.observeBlock(n)
    // first look: the tracked transactions may already be in one of the last few blocks
    if (this.last < 0) this.last = n - MAX_CATCH_UP - 1
    if (n > this.last) {
      const blocks: Array<{ n: number; txs: string[] }> = [{ n, txs: head.transactions }]
      for (let b = Math.max(0, this.last + 1, n - MAX_CATCH_UP); b < n; b++) {
        const blk = await this.rpc<{ transactions: string[] } | null>('eth_getBlockByNumber', [toHexQ(b), false]).catch(
          () => null,
        )
        if (blk) blocks.push({ n: b, txs: blk.transactions })
      }
      for (const b of blocks) {
        if (!b.txs.some((h) => this.tracked.has(h))) continue
        let receipts = await this.rpc<RawReceipt[] | null>('eth_getBlockReceipts', [toHexQ(b.n)]).catch(() => null)
        // an RPC without eth_getBlockReceipts: one receipt per tracked transaction of this block
        receipts ??= (
          await Promise.all(
            b.txs
              .filter((h) => this.tracked.has(h))
              .map((h) => this.rpc<RawReceipt | null>('eth_getTransactionReceipt', [h]).catch(() => null)),
          )
        ).filter((r): r is RawReceipt => r !== null)
        for (const r of receipts) {
          const job = this.tracked.get(r.transactionHash)
          if (job) {
            this.untrack(job)
            this.onReceipt(job, r)
          }
        }
      }
      this.last = n
    }
    const now = Date.now()
    for (const j of this.tracked.values()) if (j.sentBlock < 0) j.sentBlock = n
    const stuck = [...new Set(this.tracked.values())].filter(
      (j) => !j.receipt && (n - j.sentBlock >= this.o.stuckBlocks || now - j.sentAt >= this.o.stuckMs),
    )
    if (stuck.length) await this.onStuck(stuck).catch(() => {})
  }
}
