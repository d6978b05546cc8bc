/** x402 v1 network names of the CAIP-2 networks this server can sell on (v1 payloads and v1 facilitators use them). */
export const V1_NETWORKS: Readonly<Record<string, string>> = { 'eip155:8453': 'base', 'eip155:84532': 'base-sepolia' }
/** The v1 name of a CAIP-2 network (itself when it has none). */
export const v1NetworkOf = (network: string): string => V1_NETWORKS[network] ?? network
/** The CAIP-2 network of a v1 name, or undefined for a name this server does not know. */
export const networkOfV1 = (name: string): string | undefined =>
  Object.keys(V1_NETWORKS).find((k) => V1_NETWORKS[k] === name)
