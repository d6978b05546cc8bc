/**
 * Makes an ownership proof offline: the origin (e.g. `https://api.example.com`, no path, no trailing slash) signed
 * with a payTo key as an EIP-191 personal message, the rule x402scan verifies (`recoverMessageAddress` over the
 * origin string equals a payTo). Put the printed signature in OWNERSHIP_PROOFS (comma-separated, one per key).
 * The key is read from standard input, never from the command line or a file in the repository:
 *   printf '%s' "$KEY" | bun scripts/ownership-proof.ts https://api.example.com
 */
import { privateKeyToAccount } from 'viem/accounts'

export async function ownershipProof(origin: string, key: `0x${string}`) {
  const o = new URL(origin).origin
  const account = privateKeyToAccount(key)
  return { origin: o, address: account.address, signature: await account.signMessage({ message: o }) }
}

if (import.meta.main) {
  const origin = process.argv[2]
  const key = (await Bun.stdin.text()).trim()
  if (!origin || !/^0x[0-9a-fA-F]{64}$/.test(key)) {
    console.error('usage: printf %s "$PAY_TO_KEY" | bun scripts/ownership-proof.ts https://your.origin')
    process.exit(2)
  }
  const p = await ownershipProof(origin, key as `0x${string}`)
  console.log(`origin ${p.origin}\naddress ${p.address}\nOWNERSHIP_PROOFS=${p.signature}`)
}
