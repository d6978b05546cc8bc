/**
 * Error answers by code per service, for the console, counted from the outside: a response hook (installed by the
 * admin routes, so only when ADMIN_TOKEN is set) looks at answers of /api/<slug> with status >= 400 and reads the
 * code from the one error shape. Successful answers are not touched. In memory, since the process started;
 * bounded by the number of services × codes (codes must look like UPPER_SNAKE, at most 64 per service).
 */
export class ErrorCodes {
  private bySlug = new Map<string, Map<string, { status: number; count: number }>>()

  record(slug: string, status: number, code: string): void {
    if (!/^[A-Z][A-Z0-9_]{0,63}$/.test(code)) code = 'OTHER'
    let m = this.bySlug.get(slug)
    if (!m) this.bySlug.set(slug, (m = new Map()))
    const row = m.get(code)
    if (row) row.count++
    else if (m.size < 64) m.set(code, { status, count: 1 })
  }

  rows(): Array<{ slug: string; code: string; status: number; count: number }> {
    return [...this.bySlug]
      .flatMap(([slug, m]) => [...m].map(([code, r]) => ({ slug, code, ...r })))
      .sort((a, b) => b.count - a.count || a.slug.localeCompare(b.slug))
  }
}

const API_PATH = /^\/api\/(?:v1\/)?([a-z0-9-]+)\/?$/

/** Feeds `counter` from one answer (called before it is sent; reads a clone of error bodies only). */
export function observeAnswer(counter: ErrorCodes, known: Set<string>, request: Request, response: unknown): void {
  if (!(response instanceof Response) || response.status < 400) return
  // A 402 is the normal unpaid challenge (a hot path: leave it before any parsing); it is an error only when a
  // payment was offered and refused.
  if (response.status === 402 && !request.headers.has('payment-signature') && !request.headers.has('x-payment')) return
  const slug = new URL(request.url).pathname.match(API_PATH)?.[1]
  if (!slug || !known.has(slug)) return
  const status = response.status
  response
    .clone()
    .json()
    .then(
      (b: any) => counter.record(slug, status, status === 402 ? 'PAYMENT_REFUSED' : String(b?.error?.code ?? 'OTHER')),
      () => counter.record(slug, status, 'OTHER'),
    )
}
