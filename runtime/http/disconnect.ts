/** The caller closed its connection before its answer was ready. */
export class ClientGone extends Error {
  constructor() {
    super('client disconnected')
  }
}

/**
 * Resolves like `work`, or rejects with ClientGone as soon as `signal` aborts (Bun aborts a request's signal when
 * its client disconnects). The work itself is not stopped here; its caller aborts it.
 */
export function unlessDisconnected<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new ClientGone())
  let onAbort: () => void = () => {}
  const gone = new Promise<never>((_, reject) => {
    onAbort = () => reject(new ClientGone())
    signal.addEventListener('abort', onAbort, { once: true })
  })
  return Promise.race([work, gone]).finally(() => signal.removeEventListener('abort', onAbort))
}
