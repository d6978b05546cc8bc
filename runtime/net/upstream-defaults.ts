import type { Attribution, UpstreamDefault } from '../sdk'

/** The env variable names of an upstream, e.g. `UPSTREAM_OPEN_METEO_URL`. */
export const upstreamEnvName = (name: string, what: 'URL' | 'KEY') =>
  `UPSTREAM_${name.toUpperCase().replace(/-/g, '_')}_${what}`

type Merged = {
  url: string
  key?: string
  timeoutMs?: number
  keyParam?: string
  keyHeader?: string
  attribution?: Attribution
}

/**
 * The services' upstream defaults (services/upstreams.ts, handed to boot by the entry point) overlaid with the
 * configuration (registry.yaml / env, as runtime/config/ reads them): a configured url/key/timeoutMs wins; an
 * upstream only in the configuration is kept when it has a url. A declared upstream keeps its attribution.
 */

export function withUpstreamDefaults(
  defaults: Record<string, UpstreamDefault>,
  config: Record<
    string,
    { url?: string; key?: string; timeoutMs?: number; keyParam?: string; keyHeader?: string }
  > = {},
): Record<string, Merged> {
  const out: Record<string, Merged> = {}
  for (const [name, d] of Object.entries(defaults)) {
    const c = config[name] ?? {}
    out[name] = {
      url: c.url || d.url,
      key: c.key || undefined,
      timeoutMs: c.timeoutMs ?? d.timeoutMs,
      keyParam: c.keyParam ?? d.keyParam,
      keyHeader: c.keyHeader ?? d.keyHeader,
      attribution: d.attribution,
    }
  }
  for (const [name, c] of Object.entries(config)) if (!out[name] && c.url) out[name] = { ...c, url: c.url }
  return out
}
