import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import type { Hex } from 'viem'
import { startAnvil, type Anvil } from './anvil'
import { installUsdc, mintUsdc, setEthBalance, USDC_BASE } from './usdc'

export interface DevAccount {
  address: Hex
  privateKey: Hex
}

export interface DevChain {
  rpcUrl: string
  chainId: 8453
  usdc: typeof USDC_BASE
  admin: DevAccount
  /** Pays gas for settlements (funded with ETH). */
  settler: DevAccount
  /** A funded payer for demos and tests (USDC, no ETH needed). */
  payer: DevAccount
  /** Receives the payments. */
  payee: DevAccount
  anvil: Anvil
  stop(): Promise<void>
}

const account = (): DevAccount => {
  const privateKey = generatePrivateKey()
  return { privateKey, address: privateKeyToAccount(privateKey).address }
}

/**
 * A real local Base replica for the dev server and the tests: anvil (chain id 8453) with Circle's FiatTokenV2_2 at
 * the real USDC address, a settler with ETH for gas, and a payer holding `payerUsdc` atomic USDC (default 1,000 USDC).
 * Fresh random keys every time. NOT real money.
 */
export async function startDevChain(o: { payerUsdc?: bigint; port?: number } = {}): Promise<DevChain> {
  const anvil = await startAnvil({ port: o.port })
  try {
    const [admin, settler, payer, payee] = [account(), account(), account(), account()]
    await Promise.all([setEthBalance(anvil.url, admin.address, 10n ** 20n), setEthBalance(anvil.url, settler.address, 10n ** 20n)])
    await installUsdc(anvil.url, admin.privateKey)
    await mintUsdc(anvil.url, admin.privateKey, payer.address, o.payerUsdc ?? 1_000_000_000n)
    return { rpcUrl: anvil.url, chainId: 8453, usdc: USDC_BASE, admin, settler, payer, payee, anvil, stop: () => anvil.stop() }
  } catch (e) {
    await anvil.stop()
    throw e
  }
}

/** Mints USDC to another payer on a dev chain (tests use fresh payers). */
export async function fundPayer(chain: DevChain, address: Hex, atomic: bigint): Promise<void> {
  await mintUsdc(chain.rpcUrl, chain.admin.privateKey, address, atomic)
}
