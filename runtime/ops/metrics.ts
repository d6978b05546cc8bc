/**
 * This process's Prometheus metrics (docs/operations.md "Metrics"): what the paid calls, the model, the worker pool
 * and the HTTP answers did since the process started, recorded by one call per event from the paths that see it.
 * Figures that live in the database (pending settlements, channel escrow, claim backlog) and in the payment backend
 * (settler balances) are read at scrape time by ./collect.ts. Every instance exposes its own.
 * @module ops/metrics
 */
import { Registry } from './registry'

export const registry = new Registry()

/**
 * Whether the paid-call, model and MCP hooks record anything: set at boot when metrics (ADMIN_TOKEN, METRICS_PORT),
 * the canary (CANARY_PAYER) or tracing are configured. Nothing configured: each hook returns at its first line.
 */
export const observing = { on: false }

/** USDC has 6 decimals on every network this server sells on. */
export const usdc = (atomic: string | bigint | number): number => Number(atomic) / 1e6

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]

export const m = {
  paidCalls: registry.counter(
    'x402_paid_calls_total',
    'Paid calls charged (settled exact payments and committed channel charges) by service, scheme and network.',
    ['service', 'scheme', 'network'],
  ),
  revenue: registry.counter(
    'x402_revenue_usdc_total',
    'USDC charged for paid calls (settled or committed) by service, scheme and network.',
    ['service', 'scheme', 'network'],
  ),
  refusals: registry.counter(
    'x402_payment_refusals_total',
    'Payments refused before the handler (402 with an x402 reason, 429 throttled, 503 unavailable) by reason.',
    ['reason'],
  ),
  collected: registry.counter(
    'x402_paid_results_collected_total',
    'Kept paid results collected again by a repeated payment (nothing ran, nothing charged again).',
  ),
  settlements: registry.counter(
    'x402_settlements_total',
    'Settlement attempts after a successful handler by scheme, network and outcome (settled, pending, failed).',
    ['scheme', 'network', 'outcome'],
  ),
  settleSeconds: registry.histogram(
    'x402_settle_duration_seconds',
    'Time to settle (exact: transfer confirmed; channel: charge committed) by scheme and network.',
    ['scheme', 'network'],
    SECONDS,
  ),
  runsFailed: registry.counter(
    'x402_paid_runs_failed_total',
    'Admitted paid calls whose handler failed or whose client left (nothing charged) by service and code.',
    ['service', 'code'],
  ),
  poolKills: registry.counter(
    'x402_worker_kills_total',
    'Handler workers ended by the pool (deadline, memory, client gone, crash) by reason.',
    ['reason'],
  ),
  modelSeconds: registry.histogram(
    'x402_model_request_duration_seconds',
    'Model calls (the whole completion, retries included) by model and outcome (ok, error).',
    ['model', 'outcome'],
    SECONDS,
  ),
  modelTokens: registry.counter('x402_model_tokens_total', 'Model tokens used by model and service.', [
    'model',
    'service',
  ]),
  modelErrors: registry.counter('x402_model_errors_total', 'Model calls that failed by model and error code.', [
    'model',
    'code',
  ]),
  http: registry.counter(
    'x402_http_responses_total',
    'HTTP answers by route group (api, demo, mcp, discovery, site, admin, ops, other) and status code.',
    ['route', 'status'],
  ),
  mcpSeconds: registry.histogram(
    'mcp_server_operation_duration_seconds',
    'MCP requests handled (OpenTelemetry MCP semantic conventions: mcp.server.operation.duration) by method and tool.',
    ['mcp_method_name', 'gen_ai_tool_name', 'error_type'],
    SECONDS,
  ),
}

/** A paid call was charged: `amount` in atomic USDC units. */
export function paid(service: string, scheme: string, network: string, amount: string | bigint): void {
  const l = { service, scheme, network }
  m.paidCalls.inc(l)
  m.revenue.inc(l, usdc(amount))
}

/** The worker pool ended a handler's worker (deadline, memory, client gone, crash, shutdown): by the error's code. */
export function workerEnded(err: unknown): void {
  m.poolKills.inc({ reason: String((err as { code?: unknown })?.code ?? 'CRASH') })
}
