import { wrapFetchWithPayment, x402Client } from '@x402/fetch'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { privateKeyToAccount } from 'viem/accounts'
import type { Hex } from 'viem'

/**
 * The official client (@x402/fetch with @x402/evm's `exact` scheme on Base) paying as `key`: each paid call signs a
 * new authorization (a fresh nonce). `base` is the fetch it wraps.
 */
export const payingFetch = (key: Hex, base: typeof fetch = fetch) =>
  wrapFetchWithPayment(base, new x402Client().register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(key))))
