import { CDP_FACILITATOR_URL, resolveAsset } from '../../../config'

/** One accepted network: its token (EIP-712 domain) and its own payment backend. */
export interface NetworkSetting {
  network: string
  asset: `0x${string}`
  assetName: string
  assetVersion: string
  /** RPC_URL_<CHAINID> (self-facilitation with `settlerPrivateKey`), or the global RPC_URL for a single network. */
  rpcUrl: string
  /** Comma-separated settler keys. */
  settlerPrivateKey: string
  /** Remote facilitators tried in order (FACILITATOR_URL_<CHAINID>). */
  facilitatorUrls: string[]
  /** PAY_TO_<CHAINID>: this network's receiving wallet; absent = PAY_TO. */
  payTo?: `0x${string}`
}

/** A comma-separated variable as trimmed, non-empty items. */
export const listOf = (v: string | undefined): string[] =>
  String(v ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)

const KEY = /^(0x)?[0-9a-fA-F]{64}$/
const httpUrl = (u: string) => {
  try {
    return /^https?:$/.test(new URL(u).protocol) && !/\s/.test(u)
  } catch {
    return false
  }
}

/**
 * NETWORKS with two or more networks: each one's token (ASSET_<CHAINID>, ASSET_NAME_<CHAINID>, ASSET_VERSION_<CHAINID>,
 * else the network's USDC defaults) and backend (RPC_URL_<CHAINID> + SETTLER_PRIVATE_KEYS_<CHAINID>, or
 * FACILITATOR_URL_<CHAINID>; Coinbase's facilitator when only CDP_API_KEY_* are set). The global RPC_URL,
 * SETTLER_PRIVATE_KEY(S) and FACILITATOR_URL are for one network only and are refused here. Every problem is pushed.
 */
export function networkSettings(
  env: Record<string, string | undefined>,
  pay: any,
  networks: string[],
  problems: string[],
): NetworkSetting[] {
  for (const g of ['RPC_URL', 'SETTLER_PRIVATE_KEY', 'SETTLER_PRIVATE_KEYS', 'FACILITATOR_URL'])
    if (env[g])
      problems.push(`${g} applies to a single network; with NETWORKS set ${g}_<CHAINID> for each network instead`)
  if (new Set(networks).size !== networks.length)
    problems.push(`NETWORKS lists a network twice (${networks.join(',')})`)
  return networks.map((network) => {
    if (!/^eip155:\d+$/.test(network))
      problems.push(`NETWORKS must list CAIP-2 eip155 ids like eip155:8453 (got ${network})`)
    const id = network.split(':')[1] ?? ''
    const own = (name: string) => env[`${name}_${id}`]
    const asset = resolveAsset(
      { ASSET: own('ASSET'), ASSET_NAME: own('ASSET_NAME'), ASSET_VERSION: own('ASSET_VERSION') },
      pay,
      network,
      problems,
      `_${id}`,
    )
    const rpcUrl = String(own('RPC_URL') ?? '')
    const settlerPrivateKey = String(own('SETTLER_PRIVATE_KEYS') || own('SETTLER_PRIVATE_KEY') || '')
    const facilitatorUrls = listOf(own('FACILITATOR_URL') || (!rpcUrl && env.CDP_API_KEY_ID ? CDP_FACILITATOR_URL : ''))
    if (!rpcUrl && !facilitatorUrls.length)
      problems.push(
        `NETWORKS: ${network} has no payment backend; set RPC_URL_${id} with SETTLER_PRIVATE_KEYS_${id}, or FACILITATOR_URL_${id}`,
      )
    if (rpcUrl && !/^https?:\/\//.test(rpcUrl)) problems.push(`RPC_URL_${id} must be an http(s) URL`)
    const keys = listOf(settlerPrivateKey)
    if (rpcUrl && !facilitatorUrls.length && (!keys.length || !keys.every((k) => KEY.test(k))))
      problems.push(`RPC_URL_${id} needs SETTLER_PRIVATE_KEYS_${id} (comma-separated 32-byte hex keys)`)
    const payTo = own('PAY_TO') as `0x${string}` | undefined
    if (payTo && !/^0x[0-9a-fA-F]{40}$/.test(payTo)) problems.push(`PAY_TO_${id} must be a 0x address`)
    for (const u of facilitatorUrls)
      if (!httpUrl(u)) problems.push(`FACILITATOR_URL_${id} must be a comma-separated list of http(s) URLs`)
    return { network, ...asset, rpcUrl, settlerPrivateKey, facilitatorUrls, ...(payTo ? { payTo } : {}) }
  })
}
