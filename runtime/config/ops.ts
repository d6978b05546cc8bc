/** Operations: the Prometheus endpoint, the paid canary's payer, OpenTelemetry's standard variables (docs/operations.md). */
import { type Reader, variable } from './declare'
import type { Config } from './types'

export const METRICS_PORT = variable({
  name: 'METRICS_PORT',
  min: 0,
  concern: 'console',
  description:
    'serves Prometheus `/metrics` without a token on this port of `METRICS_HOST` (0: a free port; unset: `/metrics` is on the main port behind `Authorization: Bearer <ADMIN_TOKEN>`, and absent without `ADMIN_TOKEN`)',
})
export const METRICS_HOST = variable({
  name: 'METRICS_HOST',
  default: '127.0.0.1',
  concern: 'console',
  description: 'listen address of `METRICS_PORT` (keep it private: a scraper on the same host or network)',
})
export const CANARY_PAYER = variable({
  name: 'CANARY_PAYER',
  concern: 'console',
  valid: 'a 0x address (comma-separated for several)',
  description:
    "the paid canary's payer address(es) (`npm run canary`): its paid calls are published at `GET /reliability` and in the console (unset: `/reliability` does not exist)",
})
export const OTEL_EXPORTER_OTLP_ENDPOINT = variable({
  name: 'OTEL_EXPORTER_OTLP_ENDPOINT',
  concern: 'console',
  description:
    'OpenTelemetry collector base URL (OTLP/HTTP, JSON): traces go to `<it>/v1/traces` (unset with the next one: tracing is off and its SDK never loaded). `OTEL_EXPORTER_OTLP_HEADERS`, `..._TIMEOUT`, `OTEL_BSP_*` are read by the exporter',
})
export const OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = variable({
  name: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  concern: 'console',
  description: 'the traces URL itself (wins over `OTEL_EXPORTER_OTLP_ENDPOINT`)',
})
export const OTEL_SERVICE_NAME = variable({
  name: 'OTEL_SERVICE_NAME',
  default: 'x402-api',
  concern: 'console',
  description: "the traces' `service.name`",
})
export const OTEL_SDK_DISABLED = variable({
  name: 'OTEL_SDK_DISABLED',
  concern: 'console',
  valid: 'true | false',
  description: '`true` turns tracing off even with an endpoint set',
})
export const OTEL_TRACES_EXPORTER = variable({
  name: 'OTEL_TRACES_EXPORTER',
  concern: 'console',
  description: '`none` turns tracing off even with an endpoint set',
})

export const opsVariables = [
  METRICS_PORT,
  METRICS_HOST,
  CANARY_PAYER,
  OTEL_EXPORTER_OTLP_ENDPOINT,
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
  OTEL_SERVICE_NAME,
  OTEL_SDK_DISABLED,
  OTEL_TRACES_EXPORTER,
]

export function readOps(r: Reader): Pick<Config, 'ops'> {
  const port = r.raw(METRICS_PORT)
  const canaryPayers = (r.env(CANARY_PAYER) ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean)
  for (const a of canaryPayers)
    if (!/^0x[0-9a-f]{40}$/.test(a)) r.problems.push(`CANARY_PAYER must be 0x addresses (got ${JSON.stringify(a)})`)
  return {
    ops: {
      metricsPort: port === undefined || port === '' ? null : r.number(METRICS_PORT),
      metricsHost: r.text(METRICS_HOST),
      canaryPayers,
    },
  }
}
