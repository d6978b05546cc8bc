/** Block explorers of the networks we settle on. The embedded dev chain has none: its hashes exist only locally. */
const EXPLORERS: Record<string, string> = {
  'eip155:8453': 'https://basescan.org',
  'eip155:84532': 'https://sepolia.basescan.org',
}

/** The explorer base URL for transactions on `network`, or null (unknown network, or the local dev chain). */
export function explorerBase(network: string, devChain: boolean): string | null {
  return devChain ? null : (EXPLORERS[network] ?? null)
}

export const txUrl = (base: string | null, tx: string | null) =>
  base && tx && /^0x[0-9a-fA-F]{64}$/.test(tx) ? `${base}/tx/${tx}` : null

/** The explorer link of a payment's transaction on the network the payment was made on (or null). */
export const paymentTxUrl = (p: { network: string; tx_hash: string | null }, devChain: boolean) =>
  txUrl(explorerBase(p.network, devChain), p.tx_hash)
