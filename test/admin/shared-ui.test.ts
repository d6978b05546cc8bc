/**
 * The console shares the site's code: its page loads the site's stylesheet and the site's helpers module (/ui.js),
 * its own stylesheet repeats no rule of the site's, and neither script defines its own DOM/table/chart helpers.
 * Over real HTTP: the shared assets are served, and the console keeps its no-store and CSP headers.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { startServer, type TestServer } from '../support/server'

const TOKEN = 'shared-ui-test-token-0123456789abcdef'
const read = (p: string) => readFileSync(join(import.meta.dir, '..', '..', 'runtime', p), 'utf8')
let s: TestServer
beforeAll(async () => {
  s = await startServer({ env: { ADMIN_TOKEN: TOKEN } })
})
afterAll(() => s?.stop())

/** Top-level rules of a stylesheet as `selector{declarations}` with whitespace removed (@media blocks skipped). */
function rules(css: string): string[] {
  const flat = css.replace(/\/\*[\s\S]*?\*\//g, '').replace(/@media[^{]*\{(?:[^{}]*\{[^{}]*\})*\s*\}/g, '')
  return [...flat.matchAll(/([^{}]+)\{([^{}]*)\}/g)].map(
    ([, sel, body]) =>
      `${sel.replace(/\s+/g, '')}{${body
        .split(';')
        .map((d) => d.replace(/\s+/g, ''))
        .filter(Boolean)
        .sort()
        .join(';')}}`,
  )
}
/** Declarations `selector|property:value` of a stylesheet's top-level rules. */
const declarations = (css: string) =>
  rules(css).flatMap((r) => {
    const [sel, body] = r.slice(0, -1).split('{')
    return sel.split(',').flatMap((one) => body.split(';').map((d) => `${one}|${d}`))
  })

test("admin.css repeats no declaration of the site's stylesheet (the site's is the one source of base styles)", () => {
  const site = new Set(declarations(read('site/site.css')))
  const admin = declarations(read('admin/admin.css'))
  expect(admin.length).toBeGreaterThan(50)
  expect(admin.filter((d) => site.has(d))).toEqual([])
  // the base rules are the site's: the console stylesheet does not define the palette, the reset or the controls
  expect(read('admin/admin.css')).not.toMatch(/--fg:|box-sizing|font-family: system-ui/)
})

test('the DOM, table and chart helpers have one source (/ui.js), imported by both scripts', () => {
  for (const file of ['site/site.js', 'admin/admin-site.js']) {
    const js = read(file)
    expect(js).toMatch(/^import \{[^}]+\} from '\/ui\.js'$/m)
    expect(js).not.toMatch(/const (el|\$|svg) = |function (table|bars)\(/)
  }
  expect(read('site/ui.js')).toMatch(/export const el = [\s\S]*export function table\([\s\S]*export function bars\(/)
})

test('the console page loads the shared assets and keeps its own headers; the assets are served', async () => {
  const login = await fetch(s.url + '/admin/login', {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: s.url },
    body: new URLSearchParams({ token: TOKEN }).toString(),
  })
  const cookie = login.headers.get('set-cookie')!.split(';')[0]
  for (const headers of [{}, { cookie }] as Array<Record<string, string>>) {
    const page = await fetch(s.url + '/admin', { headers })
    expect(page.headers.get('cache-control')).toBe('no-store')
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    const html = await page.text()
    expect(html.indexOf('href="/site.css"')).toBeGreaterThan(0)
    expect(html.indexOf('href="/site.css"')).toBeLessThan(html.indexOf('href="/admin/admin.css"'))
    if (headers.cookie) expect(html).toContain('<script type="module" src="/admin/admin.js"></script>')
  }
  for (const [path, type] of [
    ['/ui.js', 'text/javascript'],
    ['/site.css', 'text/css'],
    ['/admin/admin.js', 'text/javascript'],
    ['/admin/admin.css', 'text/css'],
  ]) {
    const r = await fetch(s.url + path)
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toStartWith(type)
    expect(r.headers.get('x-content-type-options')).toBe('nosniff')
  }
  expect(await (await fetch(s.url + '/ui.js')).text()).toBe(read('site/ui.js'))
})

test('both scripts are served importing ui.js at a URL versioned by its content (no new script against an old cached ui.js)', async () => {
  const ui = read('site/ui.js')
  const expected = `/ui.js?v=${Bun.hash(ui).toString(36)}`
  for (const path of ['/site.js', '/admin/admin.js']) {
    const js = await (await fetch(s.url + path)).text()
    const imports = [...js.matchAll(/from '(\/ui\.js[^']*)'/g)].map((m) => m[1])
    expect(imports).toEqual([expected])
  }
  const r = await fetch(s.url + expected)
  expect(r.status).toBe(200)
  expect(r.headers.get('content-type')).toStartWith('text/javascript')
  expect(await r.text()).toBe(ui)
})
