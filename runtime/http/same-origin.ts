/**
 * CSRF defence for state-changing requests: a browser always sends Origin on a POST, and Sec-Fetch-Site in modern
 * browsers; both must name this site (the request's own Host, or one of `allowedOrigins`). `originRequired`
 * requests must carry an Origin: those that ride on something the browser or the server holds for the visitor (the
 * console's session cookie, the dev payer's key), which a forged cross-site request would borrow; bearer requests
 * from non-browser clients may omit both headers. Used by the console and the dev payer.
 */
export function sameOrigin(req: Request, allowedOrigins: string[], originRequired: boolean): boolean {
  const site = req.headers.get('sec-fetch-site')
  if (site && site !== 'same-origin' && site !== 'none') return false
  const origin = req.headers.get('origin')
  if (!origin) return !originRequired
  const host = req.headers.get('host')
  let o: URL
  try {
    o = new URL(origin)
  } catch {
    return false
  }
  if (host && o.host === host) return true
  return allowedOrigins.includes(o.origin)
}
