import { createHash } from 'node:crypto'

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex')

/** The request a payment paid for: service, tier and the SHA-256 of the raw body. */
export function requestHash(slug: string, tier: string, rawBody: string): string {
  return sha256(`${slug}\n${tier}\n${sha256(rawBody)}`)
}
