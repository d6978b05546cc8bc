/**
 * `npm run demo`: pays a few services of a running dev server with the official @x402/fetch client and prints
 * each result and its on-chain transaction. Start the server first with `npm start` (embedded dev chain).
 * Uses DEMO_PAYER_KEY / API_URL when set, else the dev payer that `start` wrote to data/dev-payer.json.
 */
import { existsSync, readFileSync } from 'node:fs'
import { wrapFetchWithPayment, x402Client } from '@x402/fetch'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { privateKeyToAccount } from 'viem/accounts'
import type { Hex } from 'viem'

const file = 'data/dev-payer.json'
const dev = existsSync(file)
  ? (JSON.parse(readFileSync(file, 'utf8')) as { privateKey: Hex; apiUrl: string })
  : undefined
const key = (process.env.DEMO_PAYER_KEY as Hex | undefined) ?? dev?.privateKey
const api = process.env.API_URL ?? dev?.apiUrl ?? 'http://localhost:3402'
if (!key) {
  console.error('No payer key: start the server with the embedded dev chain (`npm start`) or set DEMO_PAYER_KEY.')
  process.exit(1)
}
const pay = wrapFetchWithPayment(
  fetch,
  new x402Client().register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(key))),
)
const calls: Array<[string, unknown]> = [
  ['/api/v1/slugify', { text: 'Hello, paid world!' }],
  ['/api/v1/hash-digest', { text: 'abc', algo: 'sha256' }],
  ['/api/v1/roman-numeral', { value: 2026 }],
  ['/api/v1/iso-week-date', { date: '2026-11-22' }],
]
let failures = 0
for (const [path, body] of calls) {
  const r = await pay(api + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const receipt = r.headers.get('payment-response')
  const tx = receipt ? JSON.parse(Buffer.from(receipt, 'base64').toString()).transaction : '-'
  console.log(`${r.status} POST ${path}\n    result: ${(await r.text()).slice(0, 200)}\n    tx: ${tx}`)
  if (r.status !== 200) failures++
}
process.exit(failures ? 1 : 0)
