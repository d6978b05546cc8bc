/** Server and public URLs: where it listens, what it publishes, registry.yaml's location, outbound requests. */
import type { Config } from './types'
import { type Family, type Reader, variable, yamlSetting } from './declare'
import { listOf } from './parse'

export const PORT = variable({
  name: 'PORT',
  yaml: 'server.port',
  default: 3402,
  min: 0,
  concern: 'server',
  description: 'listen port',
})
export const HOST = variable({
  name: 'HOST',
  yaml: 'server.host',
  default: '0.0.0.0',
  concern: 'server',
  description: 'listen address',
})
export const PUBLIC_URL = variable({
  name: 'PUBLIC_URL',
  yaml: 'provider.website',
  defaultText: 'http://localhost:<PORT>',
  concern: 'server',
  description:
    "the site's public URL, published in discovery documents; without it (and with registry.yaml's shipped `http://localhost:3402`) it follows `PORT`",
})
export const API_BASE_URL = variable({
  name: 'API_BASE_URL',
  yaml: 'provider.api_base',
  defaultText: 'PUBLIC_URL',
  concern: 'server',
  description: 'the API base published in discovery documents and in the 402 `resource`; default `PUBLIC_URL`',
})
export const ICON_URL = variable({
  name: 'ICON_URL',
  yaml: 'provider.icon_url',
  concern: 'server',
  description: 'the Bazaar `iconUrl` (default `PUBLIC_URL/icon.svg`; indexers drop loopback and IP-literal icons)',
})
export const MCP_ALLOWED_ORIGINS = variable({
  name: 'MCP_ALLOWED_ORIGINS',
  list: true,
  concern: 'server',
  valid: 'each item is an http(s) origin',
  description:
    "comma-separated origins (`https://app.example`) whose web pages may call /mcp, the demo, the dev payer and the console, beside this server's own (`PUBLIC_URL`, `API_BASE_URL`, and itself on loopback); a request with any other `Origin` gets 403, one without `Origin` (an agent, curl) is not concerned",
})
export const OWNERSHIP_PROOFS = variable({
  name: 'OWNERSHIP_PROOFS',
  yaml: 'provider.ownership_proofs',
  concern: 'server',
  description:
    "signatures of the origin (`API_BASE_URL`'s, by default `PUBLIC_URL`'s, e.g. `https://api.example.com`: the origin the resources are on) made offline with each `payTo` key (EIP-191, `scripts/ownership-proof.ts`), comma-separated: `ownershipProofs` in /.well-known/x402",
})
export const REGISTRY_PATH = variable({
  name: 'REGISTRY_PATH',
  default: 'registry.yaml',
  concern: 'server',
  valid: 'the file exists',
  description: 'another registry.yaml (default `./registry.yaml`, else the copy built into the binary)',
})
export const TRUSTED_PROXIES = variable({
  name: 'TRUSTED_PROXIES',
  yaml: 'server.trusted_proxies',
  default: 0,
  min: 0,
  concern: 'server',
  description: 'how many reverse proxies append to `X-Forwarded-For` (0: the socket address is the client)',
})
export const STREAM_HEARTBEAT_MS = variable({
  name: 'STREAM_HEARTBEAT_MS',
  default: 15_000,
  min: 10,
  concern: 'server',
  description: 'interval of `: keep-alive` comments on an idle streamed answer (HTTP and MCP; see docs/streaming.md)',
})
export const FETCH_ALLOW_HOSTS = variable({
  name: 'FETCH_ALLOW_HOSTS',
  concern: 'server',
  description:
    'comma-separated host[:port] the safe fetcher may reach even if private (the address check only; for tests against loopback fixtures)',
})
export const UPSTREAM_USER_AGENT = variable({
  name: 'UPSTREAM_USER_AGENT',
  yaml: 'upstream_user_agent',
  defaultText: '<provider name>/1.0 (+<PUBLIC_URL or provider website>)',
  concern: 'server',
  description: 'User-Agent of live-data upstream requests; name yourself and a contact (Wikipedia requires one)',
})
export const UPSTREAM_URL: Family = {
  prefix: 'UPSTREAM_',
  part: '<NAME>',
  suffix: '_URL',
  concern: 'server',
  description:
    'base URL of a live-data upstream (NAME = its name in upper case, `-` as `_`, e.g. `UPSTREAM_OPEN_METEO_URL`); overrides registry.yaml `upstreams.<name>.url` and the default in services/upstreams.ts',
}
export const UPSTREAM_KEY: Family = {
  prefix: 'UPSTREAM_',
  part: '<NAME>',
  suffix: '_KEY',
  concern: 'server',
  description: "an upstream's API key (registry.yaml `upstreams.<name>.key`)",
}
export const PROVIDER_NAME = yamlSetting({
  yaml: 'provider.name',
  default: 'Agent Utility API',
  concern: 'server',
  description: 'the provider name shown on the site and in discovery documents',
})
export const PROVIDER_DESCRIPTION = yamlSetting({
  yaml: 'provider.description',
  concern: 'server',
  description: 'the provider description shown in discovery documents',
})

export const serverVariables = [
  OWNERSHIP_PROOFS,
  PORT,
  HOST,
  PUBLIC_URL,
  API_BASE_URL,
  ICON_URL,
  MCP_ALLOWED_ORIGINS,
  REGISTRY_PATH,
  TRUSTED_PROXIES,
  STREAM_HEARTBEAT_MS,
  FETCH_ALLOW_HOSTS,
  UPSTREAM_USER_AGENT,
]

const DEFAULT_LOCAL_URL = 'http://localhost:3402'

/** The listen address and the public URLs (registry.yaml's shipped `http://localhost:3402` follows the port). */
export function readServer(r: Reader) {
  const port = r.number(PORT)
  const name = String(r.yaml(PROVIDER_NAME) ?? PROVIDER_NAME.default)
  const configured = (url: unknown) =>
    url === undefined || url === null || url === '' || url === DEFAULT_LOCAL_URL ? undefined : url
  const local = `http://localhost:${port}`
  const provider: Config['provider'] = {
    name,
    description: String(r.yaml(PROVIDER_DESCRIPTION) ?? ''),
    website: String(r.env(PUBLIC_URL) ?? configured(r.yaml(PUBLIC_URL)) ?? local),
    apiBase: String(r.env(API_BASE_URL) ?? r.env(PUBLIC_URL) ?? configured(r.yaml(API_BASE_URL)) ?? local),
    iconUrl: r.text(ICON_URL),
    ownershipProofs: listOf(r.text(OWNERSHIP_PROOFS)),
  }
  const allowedOrigins = [provider.website, provider.apiBase, ...listOf(r.env(MCP_ALLOWED_ORIGINS))].flatMap((u) => {
    const o = originOf(u)
    if (!o)
      r.problems.push(`MCP_ALLOWED_ORIGINS, PUBLIC_URL and API_BASE_URL hold http(s) URLs (got ${JSON.stringify(u)})`)
    return o ? [o] : []
  })
  return {
    provider,
    port,
    host: r.text(HOST),
    trustedProxies: r.number(TRUSTED_PROXIES),
    allowedOrigins: [...new Set(allowedOrigins)],
    name,
  }
}

/** The origin (`scheme://host[:port]`) of an http(s) URL, or undefined. */
function originOf(url: string): string | undefined {
  try {
    const u = new URL(url)
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined
  } catch {
    return undefined
  }
}

/** Outbound requests: the safe fetcher's exemptions, upstreams (registry.yaml overlaid by UPSTREAM_<NAME>_*). */
export function readOutbound(r: Reader, doc: any, name: string) {
  const upstreams: Config['upstreams'] = doc.upstreams ?? {}
  for (const [family, field] of [
    [UPSTREAM_URL, 'url'],
    [UPSTREAM_KEY, 'key'],
  ] as const)
    for (const [part, v] of r.members(family)) {
      const upstream = part.toLowerCase().replace(/_/g, '-')
      upstreams[upstream] = { ...upstreams[upstream], [field]: v }
    }
  return {
    fetchAllowHosts: listOf(r.env(FETCH_ALLOW_HOSTS)).map((h) => h.toLowerCase()),
    upstreams,
    upstreamUserAgent: String(
      r.raw(UPSTREAM_USER_AGENT) ??
        `${name}/1.0 (+${String(r.env(PUBLIC_URL) ?? r.yaml(PUBLIC_URL) ?? 'http://localhost')})`,
    ),
  }
}
