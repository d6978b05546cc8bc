// Baseline: raw Bun.serve answering every request with the same bytes as one of the app's answers, the unpaid 402
// (bench/challenge.ts) or /health (bench/health.ts): status, headers and body read from the JSON file RAW_402_FILE.
// What the answer's size costs on its own, before any of the app's work. A POST's body is read, as the app does.
import { readFileSync } from 'node:fs'

const answer = JSON.parse(readFileSync(process.env.RAW_402_FILE!, 'utf8')) as {
  status: number
  headers: Record<string, string>
  body: string
}
const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  async fetch(req) {
    if (req.method === 'POST') await req.json().catch(() => ({}))
    return new Response(answer.body, { status: answer.status, headers: answer.headers })
  },
})
console.log(`PORT ${server.port}`)
