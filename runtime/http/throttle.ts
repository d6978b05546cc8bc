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
