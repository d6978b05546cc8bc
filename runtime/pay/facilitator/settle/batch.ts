import type { Hex } from 'viem'
import { encodeFunctionData, parseAbi } from 'viem/utils'
import { onFirstUse } from '../../../chain/on-first-use'
import type { RawReceipt } from './receipt'
import type { Settler } from './settler'

const AGGREGATE3 = onFirstUse(() =>
  parseAbi([
    'function aggregate3((address target, bool allowFailure, bytes callData)[] calls) payable returns ((bool success, bytes returnData)[] returnData)',
  ]),
)
/** Gas of the batch transaction itself on top of its calls (21k base, calldata, the loop). */
const BATCH_OVERHEAD_GAS = 50_000n

export interface BatchOptions {
  /** How long a settlement waits for others to join its batch (ms); a fraction of the block time. */
  windowMs: number
  /** A batch is sent at once when it reaches this many settlements. */
  max: number
  /** Multicall3 (aggregate3) address. */
  multicall: Hex
  /** Gas bound of one call. */
  perCallGas: bigint
}

interface Waiting {
  target: Hex
  data: Hex
  onHash?: (h: Hex) => void
  resolve(v: { receipt: RawReceipt; size: number }): void
  reject(e: Error): void
}

/**
 * Optional batching: settlements that arrive within `windowMs` go out as one Multicall3 `aggregate3` transaction,
 * each call with allowFailure = true, so one bad authorization never sinks the others. Every caller gets the
 * batch's receipt and reads its own outcome from its own AuthorizationUsed/Transfer logs (proof.ts), never from
 * the batch's return data. A batch of one is sent as a plain transaction.
 */
export class SettlementBatcher {
  private waiting: Waiting[] = []
  private timer: ReturnType<typeof setTimeout> | null = null

  constructor(
    private settler: Settler,
    private o: BatchOptions,
  ) {}

  add(target: Hex, data: Hex, onHash?: (h: Hex) => void): Promise<{ receipt: RawReceipt; size: number }> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ target, data, onHash, resolve, reject })
      if (this.waiting.length >= this.o.max) this.flush()
      else this.timer ??= setTimeout(() => this.flush(), this.o.windowMs)
    })
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    const batch = this.waiting.splice(0)
    if (batch.length === 0) return
    const [to, data, gas] =
      batch.length === 1
        ? [batch[0].target, batch[0].data, this.o.perCallGas]
        : [
            this.o.multicall,
            encodeFunctionData({
              abi: AGGREGATE3(),
              functionName: 'aggregate3',
              args: [batch.map((b) => ({ target: b.target, allowFailure: true, callData: b.data }))],
            }),
            this.o.perCallGas * BigInt(batch.length) + BATCH_OVERHEAD_GAS,
          ]
    this.settler
      .submit(to, data, gas, (h) => {
        for (const b of batch) b.onHash?.(h)
      })
      .then(
        (receipt) => {
          for (const b of batch) b.resolve({ receipt, size: batch.length })
        },
        (e: Error) => {
          for (const b of batch) b.reject(e)
        },
      )
  }

  close(): void {
    this.flush()
  }
}
