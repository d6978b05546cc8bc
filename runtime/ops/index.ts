/**
 * Operations at boot (docs/operations.md): tracing started when an OTLP endpoint is configured, the `/metrics`,
 * `/reliability` routes and the HTTP status counter when metrics or the canary are configured, the separate metrics
 * listener on `METRICS_PORT`. Nothing configured: nothing is loaded, routed or hooked.
 * @module ops
 */
import type { Config } from '../config'
import type { Env } from '../config/declare'
import type { CollectDeps } from './collect'
import { observing, workerEnded } from './metrics'
import { watchCanary } from './reliability'
import { startTracing, stopTracing, tracing } from './tracing'

export { observedContext } from './context'
export { observeAdmit } from './paid-call'
export { tracedFetch } from './tracing'

export async function startOps(o: { config: Config; env: Env; version: string } & CollectDeps) {
  const { config } = o
  const traces = await startTracing(o.env, o.log, o.version)
  watchCanary(config.ops.canaryPayers)
  // The routes module (and the collectors) load only when something is configured (literal specifier: bundled).
  const enabled = Boolean(config.adminToken || config.ops.metricsPort !== null || config.ops.canaryPayers.length)
  observing.on = enabled || traces !== undefined
  if (o.pool) o.pool.onWorkerEnded = workerEnded
  const routes = enabled ? await import('./routes') : undefined
  const metricsPort = routes?.serveMetricsPort(config, o)
  return {
    /** The routes and the status counter for the app (undefined: nothing configured). */
    routes: routes?.opsRoutes({ config, collect: o }),
    metricsPort: metricsPort?.port,
    async close() {
      metricsPort?.stop()
      if (traces && tracing() === traces) await traces.flush().catch(() => {})
    },
  }
}

export { stopTracing }
