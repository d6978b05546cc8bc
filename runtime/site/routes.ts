import { Elysia } from 'elysia'
import html from './index.html' with { type: 'text' }
import css from './site.css' with { type: 'text' }
import js from './site.js' with { type: 'text' }
import { importingUi, UI_JS } from './ui-version'
// ~500 KiB: embedded as a file (read on request), not as a string built at every boot.
import payJsPath from './pay.bundle.js' with { type: 'file' }

const asset = (body: string, type: string) => () =>
  new Response(body, {
    headers: {
      'content-type': `${type}; charset=utf-8`,
      'cache-control': 'public, max-age=300',
      'x-content-type-options': 'nosniff',
    },
  })

/** The catalog and dashboard page at `/` (embedded as text, so it ships inside the single binary). */
export const siteRoutes = new Elysia({ name: 'site' })
  .get('/', asset(html as unknown as string, 'text/html'))
  .get('/site.css', asset(css as unknown as string, 'text/css'))
  .get('/site.js', asset(importingUi(js as unknown as string), 'text/javascript'))
  // DOM, table and chart helpers shared by /site.js and the operator console's /admin/admin.js (ES module),
  // imported as /ui.js?v=<hash of its content> (runtime/site/ui-version.ts).
  .get('/ui.js', asset(UI_JS, 'text/javascript'))
  // The browser payment client (@x402/fetch with @x402/evm + viem and @x402/svm), loaded only when a visitor pays from the try-it panel.
  .get(
    '/pay.js',
    () =>
      new Response(Bun.file(payJsPath as unknown as string), {
        headers: {
          'content-type': 'text/javascript; charset=utf-8',
          'cache-control': 'public, max-age=300',
          'x-content-type-options': 'nosniff',
        },
      }),
  )
