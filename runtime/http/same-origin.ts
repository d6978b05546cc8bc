/**
 * Which web pages may make this server act: MCP tool calls, the free demo (the operator's model budget), the dev
 * payer (a key the server holds) and the console (the operator's session). A browser names the page in `Origin` on
 * every POST. The page may be one of `allowed` (config.allowedOrigins: PUBLIC_URL's, API_BASE_URL's and
 * MCP_ALLOWED_ORIGINS), or this server itself on loopback (`http://localhost:3402` calling `localhost:3402`).
 *
 * The request's Host is never enough: under DNS rebinding an attacker's page at `http://evil.example:3402` reaches
 * this server with `Host: evil.example:3402`, its own origin (MCP 2025-11-25, transports: servers MUST validate
 * Origin). Only a loopback Host matched by the same loopback Origin is the server's own page.
 */

import { ServiceError } from '../sdk'

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])

/** Whether a page at `origin` (the header's value) may act on this server, reached as `host` (the Host header). */
export function originAllowed(origin: string, host: string | null, allowed: readonly string[]): boolean {
  let o: URL
  try {
    o = new URL(origin)
  } catch {
    return false // `null` (a sandboxed frame, a file) and anything unreadable
  }
  if (o.protocol !== 'http:' && o.protocol !== 'https:') return false
  if (allowed.includes(o.origin)) return true
  return host !== null && o.host === host.toLowerCase() && LOOPBACK.has(o.hostname)
}

/**
 * For routes any agent may call (MCP, the demo): true without an Origin (a server-side client: an agent, curl);
 * with one, it must be allowed.
 */
export function originAccepted(req: Request, allowed: readonly string[]): boolean {
  const origin = req.headers.get('origin')
  return origin === null || originAllowed(origin, req.headers.get('host'), allowed)
}

/**
 * CSRF defence for the state-changing requests of the console and the dev payer: the Origin (and Sec-Fetch-Site,
 * sent by modern browsers) must name an allowed page. `originRequired` requests must carry an Origin: those that ride
 * on something the browser or the server holds for the visitor (the console's session cookie, the dev payer's key),
 * which a forged cross-site request would borrow; bearer requests from non-browser clients may omit both headers.
 */
export function sameOrigin(req: Request, allowed: readonly string[], originRequired: boolean): boolean {
  const site = req.headers.get('sec-fetch-site')
  if (site && site !== 'same-origin' && site !== 'none') return false
  const origin = req.headers.get('origin')
  if (!origin) return !originRequired
  return originAllowed(origin, req.headers.get('host'), allowed)
}

/** The 403 a web page of a foreign origin gets (the project's error shape). */
export const crossOrigin = (what: string) =>
  new ServiceError(
    403,
    'CROSS_ORIGIN',
    `Web pages of this origin may not call ${what}: only this server's own pages and MCP_ALLOWED_ORIGINS may (requests without an Origin header are not concerned).`,
  )
