/**
 * Verifies a signed receipt of this API (docs/receipts.md) with the offer-receipt extension's verifier.
 *
 *   npm run receipt:verify -- '<receipt>'           # the key is the one its kid names (did:web resolved over HTTP(S))
 *   npm run receipt:verify -- '<receipt>' --key https://api.example.com/.well-known/did.json
 *
 * `<receipt>` is the PAYMENT-RESPONSE header (base64), a settlement response or `{ format, signature }` as JSON, or
 * the bare JWS; `-` reads it from standard input. Prints the verdict as JSON; exit code 0 when valid, 1 when not.
 */
import { verifyReceipt, type EcJwk } from '../runtime/pay/server/receipts'

function receiptOf(text: string): unknown {
  const t = text.trim()
  if (/^[\w-]+\.[\w-]+\.[\w-]+$/.test(t)) return t // a bare JWS
  let v: any
  try {
    v = JSON.parse(t)
  } catch {
    try {
      v = JSON.parse(Buffer.from(t, 'base64').toString('utf8')) // the PAYMENT-RESPONSE header
    } catch {
      return undefined
    }
  }
  return (
    v?.extensions?.['offer-receipt']?.info?.receipt ?? v?.payment?.extensions?.['offer-receipt']?.info?.receipt ?? v
  )
}

const args = process.argv.slice(2)
const keyAt = args.indexOf('--key')
const keyFrom = keyAt >= 0 ? args[keyAt + 1] : undefined
const input = args.find((_, i) => keyAt < 0 || (i !== keyAt && i !== keyAt + 1))
if (!input) {
  console.error("usage: npm run receipt:verify -- '<receipt>' [--key <did.json URL>]")
  process.exit(2)
}
const receipt = receiptOf(input === '-' ? await Bun.stdin.text() : input)
let key: EcJwk | undefined
if (keyFrom) {
  const doc = (await (await fetch(keyFrom)).json()) as { verificationMethod?: Array<{ publicKeyJwk?: EcJwk }> }
  key = doc.verificationMethod?.[0]?.publicKeyJwk
}
const verdict = await verifyReceipt(receipt, key)
console.log(JSON.stringify(verdict, null, 2))
process.exit(verdict.valid ? 0 : 1)
