// Baseline: raw Bun.serve answering every request with the same bytes as the app's unpaid 402 (status, headers and
// body read from the JSON file RAW_402_FILE): what the 402's size costs on its own, before any of the app's work.
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
    await req.json().catch(() => ({}))
    return new Response(answer.body, { status: answer.status, headers: answer.headers })
  },
})
console.log(`PORT ${server.port}`)
