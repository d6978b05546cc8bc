/**
 * Every route of the app outside the paid services (`POST /api/<slug>`, `POST /api/v1/<slug>`), declared once:
 * method, path and one line. docs/api.md's endpoint table is generated from this list (`scripts/gen-endpoints.ts`,
 * checked for drift by `--check` in scripts/test.ts), and test/http/public-routes.test.ts boots the app and checks
 * it both ways: every declared route answers (never the unknown-path 404), and every registered route is declared.
 * Preflight (`OPTIONS`, answered on every path) is not listed. Adding a route to the app means adding it here.
 */

export interface PublicRoute {
  /** `METHOD /path` (`ALL` = any method; `:id` and `*` as the router writes them). */
  routes: string[]
  /** One line for the endpoint table. */
  what: string
  /** The route exists only in this setup (elsewhere it answers the unknown-path 404). */
  only?: 'dev-chain' | 'admin' | 'canary'
}

export const PUBLIC_ROUTES: PublicRoute[] = [
  {
    routes: ['GET /health'],
    what: 'status, version, uptime, database, services, network(s), payee; the payment backend (facilitators and their breakers, or the settler keys); 503 while the database is down',
  },
  {
    routes: ['GET /services'],
    what: 'every service: slug, name, description, category, model, availability, tiers and prices, endpoints, input/output schemas, aliases, examples; the free demo',
  },
  {
    routes: ['GET /stats', 'GET /stats/today'],
    what: 'calls, paid calls, revenue and settlement gas (from the ledger’s settled rows), errors, tokens, demo calls; totals, per day, per service, per network',
  },
  {
    routes: ['GET /discovery/resources'],
    what: 'the x402 Bazaar list of every paid resource (`limit`, `offset`, filters)',
  },
  { routes: ['GET /discovery/search'], what: 'services ranked by relevance to `query` (`limit`, `cursor`, filters)' },
  {
    routes: ['GET /.well-known/x402', 'GET /.well-known/x402.json'],
    what: 'the x402 discovery manifest (spec §2.6)',
  },
  {
    routes: ['GET /llms.txt'],
    what: 'the agent guide generated from the catalog: how to pay, every service with its price and fields',
  },
  {
    routes: ['GET /openapi.json'],
    what: 'compact OpenAPI 3.1 for agents: the free routes and one templated `POST /api/v1/{slug}`',
  },
  {
    routes: ['GET /openapi/full.json'],
    what: 'the full OpenAPI 3.1 reference: one operation per service with its schemas and price',
  },
  {
    routes: [
      'GET /docs',
      'GET /docs/swagger-ui.css',
      'GET /docs/swagger-ui-bundle.js',
      'GET /docs/init.js',
      'GET /docs/openapi.json',
    ],
    what: 'browsable reference of `/openapi/full.json` (Swagger UI served from this origin, works offline; it reads the same document restated in OpenAPI 3.0 words, `/docs/openapi.json`, which it parses far faster)',
  },
  {
    routes: ['POST /api/demo/explain'],
    what: 'free demo: explain-code at the quick tier, 5 successful calls per client per UTC day',
  },
  {
    routes: ['POST /mcp', 'GET /mcp', 'DELETE /mcp'],
    what: 'MCP Streamable HTTP endpoint, paid per tool call ([mcp.md](mcp.md)); stateless, so GET and DELETE answer 405',
  },
  {
    routes: ['GET /.well-known/agent-card.json', 'POST /a2a'],
    what: 'the A2A agent card (one skill per service, with its price; the x402 extension) and its JSON-RPC endpoint (A2A 1.0 and 0.3; model answers streamed as SSE), paid with the x402 A2A flow ([a2a.md](a2a.md))',
  },
  {
    routes: ['GET /.well-known/did.json'],
    what: 'the DID document with the key that signs receipts ([receipts.md](receipts.md))',
  },
  { routes: ['POST /receipts/verify'], what: 'checks a signed receipt ([receipts.md](receipts.md))' },
  {
    routes: ['GET /', 'GET /site.css', 'GET /site.js', 'GET /ui.js', 'GET /pay.js'],
    what: 'the catalog and live dashboard page and its assets (`/pay.js`: the browser payment client, loaded only to pay)',
  },
  {
    routes: ['GET /icon.svg', 'GET /favicon.svg', 'GET /favicon.ico'],
    what: 'the service icon (the Bazaar `iconUrl`)',
  },
  {
    routes: ['GET /api/dev-payer', 'POST /api/dev-payer/sign'],
    what: 'the demo payer the try-it panel pays with (same origin only)',
    only: 'dev-chain',
  },
  {
    routes: ['GET /api/dev-payer/solana', 'POST /api/dev-payer/solana/sign', 'POST /api/dev-payer/solana/rpc'],
    what: "the Solana demo payer the try-it panel pays with on Solana, and the relay of the client's two chain reads (same origin only)",
    only: 'dev-chain',
  },
  {
    routes: [
      'GET /admin',
      'GET /admin/admin.css',
      'GET /admin/admin.js',
      'POST /admin/login',
      'POST /admin/logout',
      'GET /admin/api/payments',
      'GET /admin/api/payments/:id',
      'GET /admin/api/overview',
      'GET /admin/api/channels',
      'POST /admin/api/reconcile',
      'ALL /admin/*',
    ],
    what: 'the operator console and its JSON API, behind the token ([operations.md](operations.md#operator-console))',
    only: 'admin',
  },
  {
    routes: ['GET /metrics'],
    what: 'Prometheus metrics (text exposition) behind `Authorization: Bearer <ADMIN_TOKEN>`; with `METRICS_PORT` on that port instead, without a token ([operations.md](operations.md#metrics))',
    only: 'admin',
  },
  {
    routes: ['GET /reliability'],
    what: "the paid canary's last runs as this instance saw them: success rate, latency per scheme, the last failure ([operations.md](operations.md#canary))",
    only: 'canary',
  },
]
