/** The payment asset of a network: token address and its EIP-712 domain (what EIP-3009 signatures commit to). */
export interface AssetDefaults {
  asset: `0x${string}`
  name: string
  version: string
}

/** Base mainnet USDC, the default network (kept inline so the common boot does not load @x402/evm). */
const BASE_USDC: AssetDefaults = { asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', name: 'USD Coin', version: '2' }

/**
 * The default USDC of `network` from @x402/evm's table (Base, Base Sepolia, Ethereum, Arbitrum, Polygon, ...),
 * or undefined for a network it does not know. Only EIP-3009 tokens qualify (permit2-only assets need another scheme).
 */
export function assetDefaults(network: string): AssetDefaults | undefined {
  if (network === 'eip155:8453') return BASE_USDC
  // Loaded lazily: importing @x402/evm costs ~150 ms, paid only by operators on another network.
  const { getDefaultAsset } = require('@x402/evm') as typeof import('@x402/evm')
  try {
    const d = getDefaultAsset(network as `${string}:${string}`)
    if (d.assetTransferMethod && d.assetTransferMethod !== 'eip3009') return undefined
    return { asset: d.asset as `0x${string}`, name: d.name, version: d.version }
  } catch {
    return undefined
  }
}
