import { createHmac, timingSafeEqual } from 'node:crypto'
import type { SessionGenerationStore } from '../db/store'

export const SESSION_TTL_MS = 8 * 3_600_000
/** How far ahead of this instance's clock another instance may have set an expiry (clock skew between instances). */
const SKEW_MS = 60_000
const VALUE = /^(\d{1,15})\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/

/**
 * Console sessions that any instance can check with no session store: the cookie is
 * `<generation>.<expiry ms>.<HMAC-SHA256>` with a key derived from ADMIN_TOKEN, so only a holder of the token can
 * make one, rotating the token ends every session, and a restart ends none. Signing out moves the database's
 * session generation on (one row), which ends every session issued before it, on every instance; the only read
 * per check is that one row, and it happens after the signature and expiry passed (a forged cookie costs no I/O).
 */
export class SignedSessions {
  private key: Buffer

  constructor(
    token: string,
    private generation: SessionGenerationStore,
    private ttlMs = SESSION_TTL_MS,
    private now = () => Date.now(),
  ) {
    this.key = createHmac('sha256', token).update('admin-console-session-v1').digest()
  }

  private sign(gen: number, expires: number): string {
    return createHmac('sha256', this.key).update(`${gen}.${expires}`).digest('base64url')
  }

  /** A new cookie value (never contains the token) and its lifetime. */
  async create(): Promise<{ value: string; maxAgeSeconds: number }> {
    const gen = await this.generation.current()
    const expires = this.now() + this.ttlMs
    return { value: `${gen}.${expires}.${this.sign(gen, expires)}`, maxAgeSeconds: Math.floor(this.ttlMs / 1000) }
  }

  /** True for a cookie this server signed, not expired, of the current generation (throws when the database fails). */
  async valid(value: string | null | undefined): Promise<boolean> {
    const m = value && value.length <= 100 ? value.match(VALUE) : null
    if (!m) return false
    const gen = Number(m[1]),
      expires = Number(m[2])
    const want = Buffer.from(this.sign(gen, expires))
    const got = Buffer.from(m[3])
    if (got.length !== want.length || !timingSafeEqual(got, want)) return false
    const now = this.now()
    if (expires <= now || expires > now + this.ttlMs + SKEW_MS) return false
    return gen === Number(await this.generation.current())
  }

  /** Ends every session issued so far, on every instance (sign-out). */
  async endAll(): Promise<void> {
    await this.generation.next()
  }
}
