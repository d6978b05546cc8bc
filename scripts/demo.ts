/**
 * `npm run demo`: pays a few services of a running dev server with the official @x402/fetch client and prints
 * each result and its on-chain transaction: on Base (@x402/evm), then on Solana (@x402/svm) when the server runs the
 * embedded Solana dev chain too. Start the server first with `npm start` (embedded dev chains).
 * Uses DEMO_PAYER_KEY / DEMO_SOLANA_PAYER_KEY (+ SOLANA_RPC_URL) / API_URL when set, else the dev payers that
 * `start` wrote to data/dev-payer.json. NOT real money.
 */
import { existsSync, readFileSync } from 'node:fs'
import { createKeyPairSignerFromBytes, getBase58Encoder } from '@solana/kit'
import { wrapFetchWithPayment, x402Client } from '@x402/fetch'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { ExactSvmScheme } from '@x402/svm/exact/client'
import { privateKeyToAccount } from 'viem/accounts'
import type { Hex } from 'viem'

const file = 'data/dev-payer.json'
const dev = existsSync(file)
  ? (JSON.parse(readFileSync(file, 'utf8')) as {
      privateKey: Hex
      apiUrl: string
      solana?: { secretKey: string; rpcUrl: string }
    })
  : undefined
const key = (process.env.DEMO_PAYER_KEY as Hex | undefined) ?? dev?.privateKey
const solanaKey = process.env.DEMO_SOLANA_PAYER_KEY ?? dev?.solana?.secretKey
const solanaRpc = process.env.SOLANA_RPC_URL ?? dev?.solana?.rpcUrl
const api = process.env.API_URL ?? dev?.apiUrl ?? 'http://localhost:3402'
if (!key) {
  console.error('No payer key: start the server with the embedded dev chain (`npm start`) or set DEMO_PAYER_KEY.')
  process.exit(1)
}
const onBase = wrapFetchWithPayment(
  fetch,
  new x402Client().register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(key))),
)
const onSolana =
  solanaKey && solanaRpc
    ? wrapFetchWithPayment(
        fetch,
        new x402Client().register(
          'solana:*',
          new ExactSvmScheme(await createKeyPairSignerFromBytes(getBase58Encoder().encode(solanaKey)), {
            rpcUrl: solanaRpc,
          }),
        ),
      )
    : undefined
type Pay = typeof onBase
const calls: Array<[string, Pay, string, unknown]> = [
  ['Base', onBase, '/api/v1/slugify', { text: 'Hello, paid world!' }],
  ['Base', onBase, '/api/v1/hash-digest', { text: 'abc', algo: 'sha256' }],
  ['Base', onBase, '/api/v1/roman-numeral', { value: 2026 }],
  ['Base', onBase, '/api/v1/iso-week-date', { date: '2026-11-22' }],
  ...(onSolana
    ? ([
        ['Solana', onSolana, '/api/v1/slugify', { text: 'Hello from Solana!' }],
        ['Solana', onSolana, '/api/v1/roman-numeral', { value: 1999 }],
      ] as Array<[string, Pay, string, unknown]>)
    : []),
]
let failures = 0
for (const [chain, pay, path, body] of calls) {
  const r = await pay(api + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const receipt = r.headers.get('payment-response')
  const tx = receipt ? JSON.parse(Buffer.from(receipt, 'base64').toString()).transaction : '-'
  console.log(
    `${r.status} POST ${path} (paid on ${chain})\n    result: ${(await r.text()).slice(0, 200)}\n    tx: ${tx}`,
  )
  if (r.status !== 200) failures++
}
if (!onSolana) console.log('(no Solana payer: the server runs without the embedded Solana dev chain)')
process.exit(failures ? 1 : 0)
