/**
 * Fixed-window counter per client (e.g. refused payments per minute). Memory is bounded: at most `maxKeys`
 * clients are tracked; the oldest windows are dropped first.
 */
export class Throttle {
  private windows = new Map<string, { start: number; count: number }>()

  constructor(
    private limit: number,
    private windowMs = 60_000,
    private maxKeys = 10_000,
    private now = () => Date.now(),
  ) {}

  /** True when `key` has used up its allowance in the current window (never when the limit is 0). */
  blocked(key: string): boolean {
    if (this.limit <= 0) return false
    const w = this.windows.get(key)
    return !!w && this.now() - w.start < this.windowMs && w.count >= this.limit
  }

  /** Counts one event for `key`. */
  hit(key: string): void {
    if (this.limit <= 0) return
    const t = this.now()
    const w = this.windows.get(key)
    if (w && t - w.start < this.windowMs) {
      w.count++
      return
    }
    this.windows.delete(key)
    this.windows.set(key, { start: t, count: 1 })
    if (this.windows.size > this.maxKeys) this.windows.delete(this.windows.keys().next().value!)
  }

  /** Seconds until `key`'s window ends. */
  retryAfter(key: string): number {
    const w = this.windows.get(key)
    return w ? Math.max(1, Math.ceil((w.start + this.windowMs - this.now()) / 1000)) : 1
  }
}

/**
 * The operator console's sign-in policy: failed sign-ins (and bad bearer tokens) allowed per client per window, then
 * 429 (shared by every instance on Postgres). Here, beside the throttle, so the storage can build it without loading
 * the console.
 */
export const SIGN_IN_LIMIT = 10
export const SIGN_IN_WINDOW_MS = 5 * 60_000

/**
 * Failing paid runs per payer (issue #32 item 4): one authorization buys at most MAX_FAILED_RUNS failing runs
 * (runtime/pay/schemes/exact/gate.ts), but a new authorization costs nothing to sign. So the one finish
 * (runtime/pay/server/paid-call.ts `conclude`) counts every failed paid run (any status but 503, a client that left
 * included; JSON, stream and MCP alike) against the payer recovered from the payment, and a payer past
 * PAYER_FAILED_RUNS in one window is answered 429 `TOO_MANY_FAILED_RUNS` with Retry-After (until the window ends)
 * before any handler runs, whatever authorization it signs (docs/reliability.md "Failing runs per payer"). Here,
 * beside the throttle, so the storage builds the counter (in memory on SQLite, bucket `failed-runs` on Postgres).
 */
export const PAYER_FAILED_RUNS = 5
export const PAYER_FAILED_RUNS_WINDOW_MS = 10 * 60_000
