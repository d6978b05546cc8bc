/** Block explorers of the networks we settle on. The embedded dev chain has none: its hashes exist only locally. */
const EXPLORERS: Record<string, string> = {
  'eip155:8453': 'https://basescan.org',
  'eip155:84532': 'https://sepolia.basescan.org',
  'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp': 'https://solscan.io',
  'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1': 'https://solscan.io',
}
/** Solana explorers name the cluster in a query string (mainnet is the default). */
const CLUSTER: Record<string, string> = { 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1': '?cluster=devnet' }

/** The explorer base URL for transactions on `network`, or null (unknown network, or the local dev chain). */
export function explorerBase(network: string, devChain: boolean): string | null {
  return devChain ? null : (EXPLORERS[network] ?? null)
}

/** An EVM transaction hash, or a Solana transaction signature (base58 of 64 bytes). */
const TX = /^(0x[0-9a-fA-F]{64}|[1-9A-HJ-NP-Za-km-z]{64,88})$/

export const txUrl = (base: string | null, tx: string | null, suffix = '') =>
  base && tx && TX.test(tx) ? `${base}/tx/${tx}${suffix}` : null

/** The explorer link of a payment's transaction on the network the payment was made on (or null). */
export const paymentTxUrl = (p: { network: string; tx_hash: string | null }, devChain: boolean) =>
  txUrl(explorerBase(p.network, devChain), p.tx_hash, CLUSTER[p.network])
