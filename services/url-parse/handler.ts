import { domainToUnicode } from 'node:url'
import { handlerFor, invalid } from '../../runtime/sdk'
import manifest from './manifest'

const DEFAULT_PORTS: Record<string, number> = { http: 80, https: 443, ftp: 21, ws: 80, wss: 443 }

export default handlerFor(manifest, ({ url }) => {
  let u: URL
  try {
    u = new URL(url.trim())
  } catch {
    throw invalid('url', 'is not an absolute URL (it needs a scheme such as https://)')
  }
  const scheme = u.protocol.replace(/:$/, '')
  const params: Record<string, string | string[]> = {}
  for (const [k, v] of u.searchParams) {
    const prev = params[k]
    params[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v]
  }
  const port = u.port ? Number(u.port) : null
  return {
    href: u.href, scheme, host: u.host, hostname: u.hostname, hostname_unicode: domainToUnicode(u.hostname) || u.hostname,
    port, effective_port: port ?? DEFAULT_PORTS[scheme] ?? null,
    path: u.pathname, path_segments: u.pathname.split('/').filter(Boolean).map((s) => { try { return decodeURIComponent(s) } catch { return s } }),
    query: u.search.replace(/^\?/, ''), params, fragment: u.hash.replace(/^#/, ''), has_credentials: !!(u.username || u.password), origin: u.origin,
  }
})
