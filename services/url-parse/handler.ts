import { domainToUnicode } from 'node:url'
import { handlerFor, invalid } from '../../runtime/sdk'
import manifest from './manifest'

/** WHATWG special-scheme ports plus IANA-registered defaults of common non-special schemes. */
const DEFAULT_PORTS: Record<string, number> = {
  http: 80,
  https: 443,
  ws: 80,
  wss: 443,
  ftp: 21,
  ssh: 22,
  sftp: 22,
  git: 9418,
  smtp: 25,
  imap: 143,
  imaps: 993,
  pop3: 110,
  ldap: 389,
  ldaps: 636,
  postgres: 5432,
  postgresql: 5432,
  mysql: 3306,
  redis: 6379,
  rediss: 6379,
  mongodb: 27017,
  amqp: 5672,
  amqps: 5671,
  mqtt: 1883,
}

function hostType(hostname: string, special: boolean): 'domain' | 'ipv4' | 'ipv6' | 'opaque' | 'empty' {
  if (!hostname) return 'empty'
  if (hostname.startsWith('[')) return 'ipv6'
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) && special) return 'ipv4'
  return special ? 'domain' : 'opaque'
}

export default handlerFor(manifest, ({ url }) => {
  const raw = url.trim()
  let u: URL
  try {
    u = new URL(raw)
  } catch {
    throw invalid('url', 'is not a valid absolute URL (it needs a scheme such as https:// and a valid host)')
  }
  const scheme = u.protocol.replace(/:$/, '')
  const special = ['http', 'https', 'ws', 'wss', 'ftp', 'file'].includes(scheme)
  const params: Record<string, string | string[]> = {}
  for (const [k, v] of u.searchParams) {
    const prev = params[k]
    // push, not a copy per repeat: a key repeated 2,000 times copied 2 million values
    if (Array.isArray(prev)) prev.push(v)
    else params[k] = prev === undefined ? v : [prev, v]
  }
  const port = u.port ? Number(u.port) : null
  const hostname = u.hostname.replace(/^\[(.*)\]$/, '$1')
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s)
    } catch {
      return s
    }
  }
  return {
    href: u.href,
    scheme,
    special,
    host: u.host,
    hostname,
    host_type: hostType(u.hostname, special),
    hostname_unicode: (special && domainToUnicode(hostname)) || hostname,
    port,
    effective_port: port ?? DEFAULT_PORTS[scheme] ?? null,
    path: u.pathname,
    path_segments: u.pathname.startsWith('/') ? u.pathname.split('/').filter(Boolean).map(decode) : [],
    query: u.search.replace(/^\?/, ''),
    params,
    fragment: u.hash.replace(/^#/, ''),
    has_credentials: !!(u.username || u.password),
    has_username: u.username !== '',
    has_password: u.password !== '',
    origin: u.origin,
  }
})
