import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { recoverMessageAddress } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { ownershipProof } from '../../scripts/ownership-proof'
import { startApp, type TestServer } from '../support/server'

const key = generatePrivateKey()
const payTo = privateKeyToAccount(key).address
let s: TestServer
let proof: Awaited<ReturnType<typeof ownershipProof>>

beforeAll(async () => {
  proof = await ownershipProof('https://api.example.com/some/path', key)
  s = await startApp({ payTo, env: { PUBLIC_URL: 'https://api.example.com', OWNERSHIP_PROOFS: proof.signature } })
})
afterAll(() => s.stop())

describe('ownershipProofs in /.well-known/x402', () => {
  test("a proof made offline is published, and passes x402scan's rule: the origin's EIP-191 signer is the payTo", async () => {
    expect(proof.origin).toBe('https://api.example.com')
    const doc = (await (await s.fetch('/.well-known/x402')).json()) as any
    expect(doc.ownershipProofs).toEqual([proof.signature])
    const origin = new URL(doc.api_base).origin
    const signer = await recoverMessageAddress({ message: origin, signature: doc.ownershipProofs[0] })
    expect(signer.toLowerCase()).toBe(doc.payTo.toLowerCase())
    // over another origin the same signature names someone else
    const other = await recoverMessageAddress({ message: 'https://evil.example', signature: doc.ownershipProofs[0] })
    expect(other.toLowerCase()).not.toBe(payTo.toLowerCase())
  })

  test("x402scan's check end to end: the proofs of the origin's document recover to a payTo of its resources' 402 accepts", async () => {
    // x402scan (apps/scan/src/lib/ownership-proof.ts `verifyAnyOwnershipProof`): for the origin registered, any
    // ownershipProof whose EIP-191 signer over the origin string is any payTo of the resources' accepts verifies it
    const doc = (await (await s.fetch('/.well-known/x402')).json()) as any
    const resource = `${doc.api_base}${doc.resources[0].endpoint}`
    const origin = new URL(resource).origin
    const challenge = await s.fetch(new URL(resource).pathname, { method: 'POST' })
    expect(challenge.status).toBe(402)
    const required = JSON.parse(Buffer.from(challenge.headers.get('payment-required')!, 'base64').toString())
    const payTos = (required.accepts as Array<{ payTo: string }>).map((a) => a.payTo.toLowerCase())
    expect(payTos.length).toBeGreaterThan(0)
    const signers = await Promise.all(
      (doc.ownershipProofs as `0x${string}`[]).map((signature) =>
        recoverMessageAddress({ message: origin, signature }),
      ),
    )
    expect(signers.some((a) => payTos.includes(a.toLowerCase()))).toBe(true)
  })

  test('where a settler key is the payTo, the server signs its origin itself (beside the offline proofs)', async () => {
    const held = await startApp({
      payTo,
      env: { PUBLIC_URL: 'https://api.example.com', SETTLER_PRIVATE_KEY: key, OWNERSHIP_PROOFS: proof.signature },
    })
    try {
      const doc = (await (await held.fetch('/.well-known/x402.json')).json()) as any
      // the same key over the same origin: one proof, not two
      expect(doc.ownershipProofs).toEqual([proof.signature])
      const other = generatePrivateKey()
      const second = await startApp({
        payTo,
        env: { PUBLIC_URL: 'https://api.example.com', SETTLER_PRIVATE_KEYS: `${other},${key}` },
      })
      try {
        const d = (await (await second.fetch('/.well-known/x402')).json()) as any
        expect(d.ownershipProofs).toHaveLength(1)
        const signer = await recoverMessageAddress({
          message: 'https://api.example.com',
          signature: d.ownershipProofs[0],
        })
        expect(signer).toBe(payTo)
        expect(JSON.stringify(d)).not.toContain(key.slice(2))
      } finally {
        await second.stop()
      }
    } finally {
      await held.stop()
    }
  })

  test('without OWNERSHIP_PROOFS the field is absent', async () => {
    const plain = await startApp({ payTo })
    try {
      expect(((await (await plain.fetch('/.well-known/x402')).json()) as any).ownershipProofs).toBeUndefined()
    } finally {
      await plain.stop()
    }
  })
})
