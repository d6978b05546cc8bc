/** Shared pieces of the settlement tests: signed payments, raw RPC, settler keys. */
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { createWalletClient, http, parseSignature, type Hex } from 'viem'
import { localBase, USDC_BASE } from '../../runtime/chain/usdc'
import { EIP3009_ABI } from '../../runtime/pay/eip3009-abi'
import { decodePayment } from '../../runtime/pay/wire'
import type { DecodedPayment, PaymentRequirements } from '../../runtime/pay/types'
import { setEthBalance } from '../../runtime/chain/usdc'
import { signPayment } from '../support/pay'

/** A signed, decoded payment of `req` by `key` (optionally with a chosen nonce / recipient). */
export async function payment(
  key: Hex,
  req: PaymentRequirements,
  o: { nonce?: Hex; to?: string; value?: string; validBefore?: number } = {},
): Promise<DecodedPayment> {
  return decodePayment(await signPayment({ key, requirements: req, ...o }), 2)
}

export async function rpc<T = any>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const j = (await res.json()) as { result?: T; error?: { message: string } }
  if (j.error) throw new Error(`${method}: ${j.error.message}`)
  return j.result as T
}

/** Fresh settler keys holding `eth` wei each. */
export async function settlerKeys(rpcUrl: string, n: number, wei = 10n ** 18n): Promise<Hex[]> {
  const keys = Array.from({ length: n }, () => generatePrivateKey())
  await Promise.all(keys.map((k) => setEthBalance(rpcUrl, privateKeyToAccount(k).address, wei)))
  return keys
}

export const addressOf = (k: Hex) => privateKeyToAccount(k).address
export const txCount = async (url: string, address: string, tag = 'latest') =>
  Number(BigInt(await rpc<string>(url, 'eth_getTransactionCount', [address, tag])))

/**
 * Submits an authorization to the token from a third party's wallet (not our settler: a front-runner, or a transfer
 * our records lost). Resolves with its hash once sent (on an automining chain, once mined).
 */
export async function submitElsewhere(rpcUrl: string, p: DecodedPayment, key: Hex): Promise<Hex> {
  const w = createWalletClient({ chain: localBase(rpcUrl), transport: http(rpcUrl), account: privateKeyToAccount(key) })
  const a = p.payload.authorization
  const { v, r, s } = parseSignature(p.payload.signature)
  return w.writeContract({
    address: USDC_BASE,
    abi: EIP3009_ABI,
    functionName: 'transferWithAuthorization',
    args: [a.from, a.to, BigInt(a.value), BigInt(a.validAfter), BigInt(a.validBefore), a.nonce, Number(v), r, s],
    gas: 200_000n,
  })
}
