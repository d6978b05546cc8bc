import { FailedTransactionMetadata, LiteSVM } from 'litesvm'
import { errorJson, type TransactionErrorJson } from './errors'

/** What the dev chain knows about a transaction it accepted (the answer of getSignatureStatuses). */
export interface LandedStatus {
  slot: bigint
  /** null when it succeeded; otherwise the error in the RPC's JSON shape. */
  err: TransactionErrorJson | null
}

/** A landed transaction as getTransaction and getSignaturesForAddress tell it. */
export interface Landed extends LandedStatus {
  signature: string
  /** The fully signed wire transaction. */
  wire: Uint8Array
  /** Unix seconds when it landed. */
  blockTime: number
}

/** The outcome of a simulation. */
export interface Simulation {
  err: TransactionErrorJson | null
  logs: string[]
  unitsConsumed: bigint
}

type Tx = Parameters<LiteSVM['sendTransaction']>[0]

/** Transactions LiteSVM remembers by signature (its default of ~32 lets an old one land twice). */
const HISTORY = 1_000_000n

/**
 * The dev chain's state machine around LiteSVM: every accepted transaction moves the slot on by one (a "block"), and
 * a signature already seen is refused before it reaches the VM (a second guard beside LiteSVM's own history), while
 * its status stays answerable. One caller at a time: LiteSVM is synchronous, so each method runs to completion.
 */
export class SolanaLedger {
  readonly svm: LiteSVM = new LiteSVM().withTransactionHistory(HISTORY).withSigverify(true).withBlockhashCheck(true)
  private readonly statuses = new Map<string, LandedStatus>()
  private readonly landed = new Map<string, Landed>()
  /** Signatures per account the transaction named, oldest first. */
  private readonly byAccount = new Map<string, string[]>()

  slot(): bigint {
    return this.svm.getClock().slot
  }

  status(signature: string): LandedStatus | null {
    return this.statuses.get(signature) ?? null
  }

  transaction(signature: string): Landed | null {
    return this.landed.get(signature) ?? null
  }

  /** The transactions that named `account`, newest first (at most `limit`). */
  history(account: string, limit: number): Landed[] {
    const sigs = this.byAccount.get(account) ?? []
    return sigs
      .slice(-limit)
      .reverse()
      .map((s) => this.landed.get(s) as Landed)
  }

  /**
   * Lands a fully signed transaction whose first (fee-payer) signature is `signature`. Returns null when that
   * signature was already seen (refused, nothing runs); otherwise the recorded status, failed or not. `accounts` (the
   * message's static accounts) and `wire` are kept for getSignaturesForAddress and getTransaction.
   */
  send(tx: Tx, signature: string, accounts: string[] = [], wire?: Uint8Array): LandedStatus | null {
    if (this.statuses.has(signature)) return null
    const result = this.svm.sendTransaction(tx)
    const slot = this.slot()
    const status: LandedStatus = {
      slot,
      err: result instanceof FailedTransactionMetadata ? errorJson(result.err()) : null,
    }
    this.statuses.set(signature, status)
    if (wire) {
      this.landed.set(signature, { ...status, signature, wire, blockTime: Math.floor(Date.now() / 1000) })
      for (const a of accounts) this.byAccount.set(a, [...(this.byAccount.get(a) ?? []), signature])
    }
    this.svm.warpToSlot(slot + 1n)
    return status
  }

  /** Runs `tx` without landing it; signatures and the blockhash are checked only when asked. */
  simulate(tx: Tx, opts: { sigVerify: boolean; replaceRecentBlockhash: boolean }): Simulation {
    this.svm.withSigverify(opts.sigVerify).withBlockhashCheck(!opts.replaceRecentBlockhash)
    try {
      const result = this.svm.simulateTransaction(tx)
      const meta = result.meta()
      return {
        err: result instanceof FailedTransactionMetadata ? errorJson(result.err()) : null,
        logs: meta.logs(),
        unitsConsumed: meta.computeUnitsConsumed(),
      }
    } finally {
      this.svm.withSigverify(true).withBlockhashCheck(true)
    }
  }
}
