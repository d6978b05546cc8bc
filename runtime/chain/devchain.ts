import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import type { Address, Hex } from 'viem'
import { startAnvil, type Anvil } from './anvil'
import { installBatchSettlement } from './contracts'
import { BASE_CHAIN_ID, CHAIN_IDS, installUsdc, mintUsdc, setEthBalance, USDC_BASE } from './usdc'

/** A key pair on the dev chain. */
export interface DevAccount {
  address: Address
  privateKey: Hex
}

/** A running local Base replica with USDC installed and funded accounts (see {@link startDevChain}). */
export interface DevChain {
  rpcUrl: string
  /** 8453 unless `chainId` was given. */
  chainId: number
  usdc: typeof USDC_BASE
  /** Owner and master minter of the token (10 ETH for gas). */
  admin: DevAccount
  /** Pays gas for settlements (100 ETH). */
  settler: DevAccount
  /** A payer holding test USDC (no ETH needed: EIP-3009 transfers are gasless for the signer). */
  payer: DevAccount
  /** Receives payments; starts empty. */
  payee: DevAccount
  /** The underlying node. */
  anvil: Anvil
  /** Stops the node (idempotent). All chain state is lost. */
  stop(): Promise<void>
}

/** Options of {@link startDevChain}. */
export interface DevChainOptions {
  /** USDC (atomic, 6 decimals) minted to the payer; default 1_000_000_000n = 1,000 USDC. */
  payerUsdc?: bigint
  /** Port for anvil; default a free one. Use a stopped chain's port to restart it at the same URL (state is not kept). */
  port?: number
  /** Seconds between blocks (anvil `--block-time`, e.g. 2 like Base); absent means automine. */
  blockTime?: number
  /** Chain id (default 8453, Base): the token's EIP-712 domain uses it, so signatures do not cross chains. */
  chainId?: number
  /** EVM hardfork of the node (see AnvilOptions.hardfork); default anvil's latest. */
  hardfork?: string
  /** Reuse keys (e.g. after a restart) instead of fresh random ones. */
  keys?: Partial<Record<'admin' | 'settler' | 'payer' | 'payee', Hex>>
}

const ETH = 10n ** 18n

const account = (privateKey: Hex = generatePrivateKey()): DevAccount => ({
  privateKey,
  address: privateKeyToAccount(privateKey).address,
})

/**
 * Starts a real local Base replica for the dev server and the tests: anvil with chain id 8453, Circle's FiatTokenV2_2
 * at the real USDC address, the x402 batch-settlement contracts and Multicall3 at their canonical addresses, a settler with 100 ETH and a payer with `payerUsdc` USDC. Fresh random keys every time
 * unless `keys` are given. NOT real money. Boots in roughly 50–100 ms (anvil startup dominates).
 */
export async function startDevChain(opts: DevChainOptions = {}): Promise<DevChain> {
  const anvil = await startAnvil(opts) // port, blockTime, chainId, hardfork
  if (opts.chainId !== undefined) CHAIN_IDS.set(anvil.url, opts.chainId)
  try {
    const k = opts.keys ?? {}
    const [admin, settler, payer, payee] = [account(k.admin), account(k.settler), account(k.payer), account(k.payee)]
    await Promise.all([
      setEthBalance(anvil.url, admin.address, 10n * ETH),
      setEthBalance(anvil.url, settler.address, 100n * ETH),
      installBatchSettlement(anvil.url),
    ])
    await installUsdc(anvil.url, admin.privateKey, [{ to: payer.address, amount: opts.payerUsdc ?? 1_000_000_000n }])
    return {
      rpcUrl: anvil.url,
      chainId: opts.chainId ?? BASE_CHAIN_ID,
      usdc: USDC_BASE,
      admin,
      settler,
      payer,
      payee,
      anvil,
      stop: () => {
        CHAIN_IDS.delete(anvil.url)
        return anvil.stop()
      },
    }
  } catch (e) {
    CHAIN_IDS.delete(anvil.url)
    await anvil.stop()
    throw e
  }
}

/** Mints `atomic` USDC to another payer on a dev chain (tests use fresh payers). Safe to call concurrently. */
export async function fundPayer(
  chain: Pick<DevChain, 'rpcUrl' | 'admin'>,
  address: Address,
  atomic: bigint,
): Promise<void> {
  await mintUsdc(chain.rpcUrl, chain.admin.privateKey, address, atomic)
}
