import { Elysia } from 'elysia'
// The reference viewer: Swagger UI from the pinned npm package swagger-ui-dist (Apache-2.0), embedded as files
// (also inside the single binary) and served from our own origin. No CDN, no moving version.
import bundlePath from 'swagger-ui-dist/swagger-ui-bundle.js' with { type: 'file' }
import cssPath from 'swagger-ui-dist/swagger-ui.css' with { type: 'file' }
import { version as VIEWER_VERSION } from 'swagger-ui-dist/package.json'
import { compactForViewer } from './viewer-compact'

type Operation = { summary?: string; description?: string; tags?: string[] }
type OpenApi = { info?: { title?: string; description?: string }; paths?: Record<string, Record<string, Operation>> }

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

/** The price line of an operation's description ("Price: flat $0.001000 (USDC on ...)"), when it has one. */
const priceOf = (op: Operation) => op.description?.match(/Price: ([^(]+)/)?.[1]?.trim()

/** Every operation as a plain HTML list: what the page shows without its script (or when the script fails). */
function operationList(doc: OpenApi): string {
  const items: string[] = []
  for (const [path, ops] of Object.entries(doc.paths ?? {})) {
    for (const m of METHODS) {
      const op = ops[m]
      if (!op) continue
      const price = priceOf(op)
      items.push(
        `<li><code>${m.toUpperCase()} ${escapeHtml(path)}</code> ${escapeHtml(op.summary ?? '')}${price ? ` <small>(${escapeHtml(price)})</small>` : ''}</li>`,
      )
    }
  }
  return `<ul class="ops">${items.join('')}</ul>`
}

/** The page: the viewer's stylesheet and script (our origin) plus the operation list, hidden once the viewer renders. */
function page(doc: OpenApi): string {
  const title = escapeHtml(doc.info?.title ?? 'API reference')
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} — API reference</title>
<link rel="icon" href="icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="docs/swagger-ui.css?v=${VIEWER_VERSION}">
<style>body{margin:0;font-family:system-ui,sans-serif}#fallback{max-width:60rem;margin:1rem auto;padding:0 1rem}#fallback .ops{padding-left:1.2rem;line-height:1.6}#fallback code{font-size:.95em}</style>
</head>
<body>
<div id="swagger-ui"></div>
<main id="fallback">
<h1>${title}: API reference</h1>
<p>The full OpenAPI 3.1 document is <a href="openapi/full.json">/openapi/full.json</a>; the agents' guide is <a href="llms.txt">/llms.txt</a>. Every paid operation is paid per call with x402 (send it unpaid to read the price).</p>
${operationList(doc)}
</main>
<script src="docs/swagger-ui-bundle.js?v=${VIEWER_VERSION}"></script>
<script src="docs/init.js?v=${VIEWER_VERSION}"></script>
</body>
</html>
`
}

/** The document as the viewer reads it: /openapi/full.json in OpenAPI 3.0's words, compacted (./viewer-compact). */
export const viewerDocument = (doc: unknown): unknown => compactForViewer(openApi30(doc))

/**
 * /openapi/full.json (OpenAPI 3.1) written in OpenAPI 3.0's words. Swagger UI
 * reads a 3.1 document through ApiDOM, which on this one (125 operations, ~590 KB of inline schemas) took ~9 s of a
 * new user's Chromium and 30–45 s on a loaded machine (profile: ApiDOM's refract, normalize and subtree resolution,
 * 85 % of the page's script; docs/benchmarks.md); a 3.0 document takes its older resolver. The same operations,
 * schemas and descriptions: the few 3.1 keywords the document uses are restated as 3.0 has them (`const` as a
 * one-value `enum`, a numeric `exclusiveMinimum`/`exclusiveMaximum` as the bound with the boolean flag, a schema's
 * `examples` as its first `example`, a type list with "null" as `nullable`). The 3.1 document stays the published one.
 */
export function openApi30(doc: unknown): unknown {
  const schema = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(schema)
    if (!v || typeof v !== 'object') return v
    const out: Record<string, unknown> = {}
    for (const [k, x] of Object.entries(v)) out[k] = schema(x)
    if ('const' in out && !('enum' in out)) {
      out.enum = [out.const]
      delete out.const
    }
    for (const [ex, bound] of [
      ['exclusiveMinimum', 'minimum'],
      ['exclusiveMaximum', 'maximum'],
    ] as const)
      if (typeof out[ex] === 'number') {
        out[bound] = out[ex]
        out[ex] = true
      }
    if (Array.isArray(out.examples) && out.type !== undefined) {
      if (out.examples.length && !('example' in out)) out.example = out.examples[0]
      delete out.examples
    }
    if (Array.isArray(out.type)) {
      const types = out.type.filter((t) => t !== 'null')
      if (types.length < out.type.length) out.nullable = true
      if (types.length === 1) out.type = types[0]
      else {
        delete out.type
        if (types.length > 1) out.anyOf = types.map((t) => ({ type: t }))
      }
    }
    return out
  }
  return { ...(schema(doc) as object), openapi: '3.0.3' }
}

/**
 * Starts the viewer on the document above and hides the plain list once it has rendered; without it the list stays.
 * The tags are drawn collapsed (`docExpansion: 'none'`): drawing all 125 operations at once was most of the page's
 * remaining script (React rendering them; 4–6 s on a loaded 2-core machine, docs/benchmarks.md §13). Opening a tag
 * draws its operations; a deep link (`#/tag/operation`) opens its own; the filter box finds one by tag.
 */
const INIT_JS = `'use strict'
if (typeof window.SwaggerUIBundle === 'function') {
  window.SwaggerUIBundle({
    url: 'docs/openapi.json',
    dom_id: '#swagger-ui',
    validatorUrl: null,
    deepLinking: true,
    docExpansion: 'none',
    filter: true,
    defaultModelsExpandDepth: -1,
    onComplete: function () {
      document.getElementById('fallback').hidden = true
      document.body.dataset.viewer = 'ready'
    },
  })
}
`

/** Only our own origin: the page can load nothing from elsewhere (Swagger UI uses inline styles and data: icons). */
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"

const headers = (type: string, cache: string) => ({
  'content-type': `${type}; charset=utf-8`,
  'cache-control': cache,
  'x-content-type-options': 'nosniff',
})

/** GET /docs and its assets: the reference viewer for `document` (the full OpenAPI), all from this origin. */
export function docsRoutes(document: () => unknown) {
  let html: string | undefined
  let viewer: string | undefined
  const immutable = 'public, max-age=86400'
  return new Elysia({ name: 'docs' })
    .get(
      '/docs',
      () =>
        new Response((html ??= page(document() as OpenApi)), {
          headers: { ...headers('text/html', 'public, max-age=300'), 'content-security-policy': CSP },
        }),
    )
    .get('/docs/swagger-ui.css', () => new Response(Bun.file(cssPath), { headers: headers('text/css', immutable) }))
    .get(
      '/docs/swagger-ui-bundle.js',
      () => new Response(Bun.file(bundlePath), { headers: headers('text/javascript', immutable) }),
    )
    .get(
      '/docs/openapi.json',
      () =>
        new Response((viewer ??= JSON.stringify(viewerDocument(document()))), {
          headers: headers('application/json', 'public, max-age=300'),
        }),
    )
    .get('/docs/init.js', () => new Response(INIT_JS, { headers: headers('text/javascript', immutable) }))
}
