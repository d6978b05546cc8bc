// Baseline: the raw Bun.serve limit for a JSON GET and a JSON POST on this machine.
const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  async fetch(req) {
    if (req.method === 'POST') {
      const body = await req.json().catch(() => ({}))
      return Response.json({ ok: true, keys: Object.keys(body as object).length })
    }
    return Response.json({ status: 'ok', version: '1.0.0', uptime_seconds: 1 })
  },
})
console.log(`PORT ${server.port}`)
