import type { RawReceipt } from './receipt'
import { bumped } from './fees'
import type { Job, Lane } from './lane'
import type { Settler } from './settler'

/** Fee bumps / re-sends of one transaction before recovery stops touching it (the watcher keeps looking). */
const MAX_RECOVERIES = 18

/**
 * Stuck transactions: first ask for a receipt of every version (it may have been mined in a block the watcher
 * skipped); a job whose nonce the chain has passed without any of our versions was displaced, so it gets a new
 * nonce; the rest are re-sent at the same nonce with a bumped fee. Nonces between the chain's count and the
 * lane's counter that no job holds (a send the node refused) are filled with a 0-value self-transfer.
 */
export async function recoverStuck(s: Settler, stuck: Job[]): Promise<void> {
  for (const lane of new Set(stuck.map((j) => j.lane))) {
    const mined = await s.count(lane.address, 'latest')
    for (const job of stuck.filter((j) => j.lane === lane).sort((a, b) => a.nonce - b.nonce)) {
      let r: RawReceipt | null = null
      for (const h of job.hashes) {
        r = await s.rpc<RawReceipt | null>('eth_getTransactionReceipt', [h]).catch(() => null)
        if (r) break
      }
      if (r) {
        s.finish(job, r)
        continue
      }
      if (++job.tries > MAX_RECOVERIES) continue // keep watching; reconciliation owns the payment from here
      if (job.nonce < mined) {
        await lane.resync(() => s.count(lane.address, 'pending')).catch(() => {})
        await s.renonce(job)
        continue
      }
      job.fees = bumped(job.fees, await s.fees.get(true).catch(() => ({ ...job.fees, baseFee: 0n })))
      s.watcher.untrack(job)
      await s.send(job, false)
    }
    for (let n = mined; n < lane.next; n++) if (!lane.jobs.has(n)) fill(s, lane, n)
  }
}

/** A 0-value self-transfer at `nonce`, so later transactions of the lane can be mined. */
function fill(s: Settler, lane: Lane, nonce: number): void {
  const f = s.fees
  void f.get().then(
    (fees) => {
      const job: Job = {
        lane,
        nonce,
        to: lane.address,
        data: '0x',
        gas: 21_000n,
        fees: bumped(fees, fees),
        hashes: [],
        sentAt: 0,
        sentBlock: -1,
        tries: 0,
        resolve: () => {},
        reject: () => {},
        filler: true,
      }
      lane.jobs.set(nonce, job)
      return s.send(job, false)
    },
    () => {},
  )
}
