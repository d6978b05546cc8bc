import type { ErrorCountStore } from '../db/store'

/**
 * Error answers by code per service, for the console, counted from the outside: a response hook (installed by the
 * admin routes, so only when ADMIN_TOKEN is set) looks at answers of /api/<slug> with status >= 400 and reads the
 * code from the one error shape. Successful answers are not touched. The counts go to the storage engine's
 * ErrorCountStore (runtime/db/store.ts): batched in memory, written once a second, shared by every instance.
 */
const API_PATH = /^\/api\/(?:v1\/)?([a-z0-9-]+)\/?$/

/** Feeds `counter` from one answer (called before it is sent; reads a clone of error bodies only). */
export function observeAnswer(
  counter: Pick<ErrorCountStore, 'record'>,
  known: Set<string>,
  request: Request,
  response: unknown,
): void {
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
