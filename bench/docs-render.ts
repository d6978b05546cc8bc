/**
 * /docs in headless Chromium with every request outside the server's origin blocked (offline, as issue #38's new
 * user): time from navigation to the viewer's `ready` mark with its tags drawn (collapsed), then to every operation drawn
 * with every tag opened, and the browser's own CPU for it. `bun bench/docs-render.ts [--runs 3]`. Not a test (no timed assertion): test/site/docs.test.ts checks
 * the page itself.
 */
import { launchChromium } from '../test/support/browser'
import { startServer } from '../test/support/server'

const args = process.argv.slice(2)
const runs = Number(args[args.indexOf('--runs') + 1] || 3) || 3
const s = await startServer()
const doc = (await (await fetch(`${s.url}/openapi/full.json`)).json()) as { paths: Record<string, object> }
const operations = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0)
const browser = await launchChromium()
try {
  const origin = new URL(s.url).origin
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext()
    await context.route('**/*', (route) =>
      new URL(route.request().url()).origin === origin ? route.continue() : route.abort('internetdisconnected'),
    )
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send('Performance.enable')
    if (args.includes('--profile')) {
      await cdp.send('Profiler.enable')
      await cdp.send('Profiler.setSamplingInterval', { interval: 1000 })
      await cdp.send('Profiler.start')
    }
    const t0 = performance.now()
    await page.goto(s.url + '/docs')
    await page.waitForSelector('body[data-viewer="ready"]', { timeout: 120_000 })
    await page.waitForSelector('.opblock-tag')
    const ms = performance.now() - t0
    // the page's own CPU and profile up to the ready mark
    const m = (await cdp.send('Performance.getMetrics')).metrics as Array<{ name: string; value: number }>
    const get = (n: string) => m.find((x) => x.name === n)?.value ?? NaN
    const profile = args.includes('--profile')
      ? ((await cdp.send('Profiler.stop')) as { profile: ChromeProfile }).profile
      : null
    // every operation is reachable: opening every tag draws them all
    const tags = await page.locator('.opblock-tag').count()
    const t1 = performance.now()
    for (const tag of await page.locator('.opblock-tag').all()) await tag.click()
    await page.waitForFunction((n) => document.querySelectorAll('.opblock').length >= n, operations)
    const openMs = performance.now() - t1
    console.log(
      `run ${i + 1}: ready with ${tags} tags in ${ms.toFixed(0)} ms; page script ${(get('ScriptDuration') * 1000).toFixed(0)} ms, layout ${(get('LayoutDuration') * 1000).toFixed(0)} ms, style ${(get('RecalcStyleDuration') * 1000).toFixed(0)} ms, task ${(get('TaskDuration') * 1000).toFixed(0)} ms, ${get('Nodes')} DOM nodes; then every tag opened: ${await page.locator('.opblock').count()} operations in ${openMs.toFixed(0)} ms more`,
    )
    if (profile) printProfile(profile)
    await context.close()
  }
} finally {
  await browser.close()
  await s.stop()
}

interface ChromeProfile {
  nodes: Array<{
    id: number
    callFrame: { functionName: string; url: string; lineNumber: number }
    children?: number[]
  }>
  samples: number[]
}
/** `--profile`: the page's hottest functions by self samples, and by inclusive samples. */
function printProfile(p: ChromeProfile) {
  const byId = new Map(p.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const name = (n: ChromeProfile['nodes'][number]) =>
    `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`
  const self = new Map<string, number>()
  const inc = new Map<string, number>()
  for (const sId of p.samples) {
    const n = byId.get(sId)!
    self.set(name(n), (self.get(name(n)) ?? 0) + 1)
    const seen = new Set<string>()
    for (let c: number | undefined = sId; c !== undefined; c = parent.get(c)) {
      const k = name(byId.get(c)!)
      if (!seen.has(k)) inc.set(k, (inc.get(k) ?? 0) + 1)
      seen.add(k)
    }
  }
  const top = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 25)
      .map(([k, v]) => `  ${((100 * v) / p.samples.length).toFixed(1)}% ${v} ${k}`)
      .join('\n')
  // Swagger UI's resolver (swagger-client: resolve, resolveSubtree, specmap), which `$ref`s would make work harder
  const resolver = [...inc].filter(([k]) => /resolve|specmap/i.test(k))
  console.log(
    `${p.samples.length} samples (count and share each):\nself:\n${top(self)}\ninclusive:\n${top(inc)}\nresolver (inclusive):\n${resolver.length ? top(new Map(resolver)) : '  none sampled'}`,
  )
}
