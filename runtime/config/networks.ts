/**
 * Payment and networks. One model: `networks`, a list of the accepted networks, each with its token and its backend.
 * NETWORKS with two or more networks reads each one's per-chain variables (`RPC_URL_<CHAINID>`, ...); otherwise the
 * list has one network, read from NETWORK and the global variables (RPC_URL, SETTLER_PRIVATE_KEY(S), FACILITATOR_URL,
 * ASSET*).
 */
import { type Family, type Reader, perChain, variable, yamlSetting } from './declare'
import { isAddress, isEip155, isHttpUrl, listOf, looksHttp, maskUrl, validSettlerKeys } from './parse'
import type { Config, NetworkSetting } from './types'

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

/** Coinbase's hosted facilitator (needs CDP_API_KEY_ID / CDP_API_KEY_SECRET). */
export const CDP_FACILITATOR_URL = 'https://api.cdp.coinbase.com/platform/v2/x402'

export const PAY_TO = variable({
  name: 'PAY_TO',
  yaml: 'payment.pay_to',
  concern: 'payment',
  valid: 'a 0x address',
  description: 'the receiving wallet (required with a real chain: RPC_URL, FACILITATOR_URL or NETWORKS)',
})
export const NETWORK = variable({
  name: 'NETWORK',
  yaml: 'payment.network',
  default: 'eip155:8453',
  concern: 'payment',
  valid: 'a CAIP-2 eip155 id',
  description:
    "the CAIP-2 network. The asset and its EIP-712 domain come from `@x402/evm`'s defaults for every network it knows (e.g. `eip155:84532` Base Sepolia → USDC `0x036C…CF7e`, name `USDC`, version `2`); registry.yaml's `payment.asset*` apply only while its `payment.network` is the one in use. The embedded dev chain is always Base (8453)",
})
export const NETWORKS = variable({
  name: 'NETWORKS',
  concern: 'payment',
  valid: 'comma-separated CAIP-2 eip155 ids, each once',
  description:
    'accept several networks at once, comma-separated CAIP-2 (e.g. `eip155:8453,eip155:84532`); the first is the main one. Each network then needs its own backend from the per-chain variables below; the global `RPC_URL`, `SETTLER_PRIVATE_KEY(S)` and `FACILITATOR_URL` are for one network only and refused with `NETWORKS`. A one-item `NETWORKS` is `NETWORK`',
})
export const ASSET = variable({
  name: 'ASSET',
  yaml: 'payment.asset',
  defaultText: "the network's USDC",
  concern: 'payment',
  valid: 'a 0x address',
  description:
    'the token; required (with ASSET_NAME and ASSET_VERSION) for a network `@x402/evm` has no EIP-3009 USDC for',
})
export const ASSET_NAME = variable({
  name: 'ASSET_NAME',
  yaml: 'payment.asset_name',
  defaultText: "the network's USDC",
  concern: 'payment',
  description: "the token's EIP-712 domain name",
})
export const ASSET_VERSION = variable({
  name: 'ASSET_VERSION',
  yaml: 'payment.asset_version',
  defaultText: "the network's USDC",
  concern: 'payment',
  description: "the token's EIP-712 domain version",
})
export const RPC_URL = variable({
  name: 'RPC_URL',
  yaml: 'payment.rpc_url',
  concern: 'payment',
  valid: 'an http(s) URL',
  description:
    'a chain RPC: with `SETTLER_PRIVATE_KEY(S)`, self-facilitation (verify by simulation, settle `transferWithAuthorization` from the settler wallet, which pays gas in ETH); beside `FACILITATOR_URL` (read-only), every settle answer is proven on chain. Without RPC_URL and FACILITATOR_URL, `npm start` runs the embedded dev chain',
})
export const SETTLER_PRIVATE_KEY = variable({
  name: 'SETTLER_PRIVATE_KEY',
  secret: true,
  concern: 'payment',
  valid: 'a 32-byte hex key',
  description: 'the settler key for self-facilitation (with `RPC_URL`)',
})
export const SETTLER_PRIVATE_KEYS = variable({
  name: 'SETTLER_PRIVATE_KEYS',
  secret: true,
  list: true,
  concern: 'payment',
  valid: 'comma-separated 32-byte hex keys',
  description:
    'instead of `SETTLER_PRIVATE_KEY`: a pool of settler keys; each key is its own nonce lane and each settlement goes to the least-loaded key that can pay gas, so one stuck nonce never stalls every payment',
})
export const FACILITATOR_URL = variable({
  name: 'FACILITATOR_URL',
  yaml: 'payment.facilitator_url',
  defaultText: "Coinbase's when only CDP_API_KEY_* are set",
  concern: 'payment',
  valid: 'comma-separated http(s) URLs',
  description:
    'remote x402 facilitators (`/verify`, `/settle`, `/supported`): one URL or a comma-separated list tried in order, each behind a circuit breaker',
})
export const FACILITATOR_AUTH_HEADER = variable({
  name: 'FACILITATOR_AUTH_HEADER',
  secret: true,
  concern: 'payment',
  description: 'a fixed `Authorization` value sent to every facilitator',
})
export const CDP_API_KEY_ID = variable({
  name: 'CDP_API_KEY_ID',
  concern: 'payment',
  valid: 'set with CDP_API_KEY_SECRET',
  description: `a Coinbase CDP API key id: every facilitator request carries \`Authorization: Bearer <JWT>\` signed with the key, fresh per request. Without \`FACILITATOR_URL\` it selects Coinbase's facilitator \`${CDP_FACILITATOR_URL}\``,
})
export const CDP_API_KEY_SECRET = variable({
  name: 'CDP_API_KEY_SECRET',
  secret: true,
  concern: 'payment',
  valid: 'set with CDP_API_KEY_ID',
  description:
    'the CDP API key secret: ES256 PEM (PKCS#8 or SEC1, `\\n` escapes accepted) or Ed25519 base64. Set both or neither',
})
export const FACILITATOR_BREAKER_FAILURES = variable({
  name: 'FACILITATOR_BREAKER_FAILURES',
  yaml: 'payment.facilitator_breaker_failures',
  default: 3,
  min: 1,
  concern: 'payment',
  description: 'a facilitator failing this many times in a row is skipped for the cool-down',
})
export const FACILITATOR_BREAKER_COOLDOWN_SECONDS = variable({
  name: 'FACILITATOR_BREAKER_COOLDOWN_SECONDS',
  yaml: 'payment.facilitator_breaker_cooldown_seconds',
  default: 30,
  min: 1,
  concern: 'payment',
  description: 'how long a failing facilitator is skipped; then one call tries it again',
})
export const MAX_TIMEOUT_SECONDS = yamlSetting({
  yaml: 'payment.max_timeout_seconds',
  default: 60,
  min: 10,
  concern: 'payment',
  description: "the 402's `maxTimeoutSeconds`: how long a payment authorization must stay valid",
})

/** The per-chain families, read only with NETWORKS (two or more networks); `<CHAINID>` is the eip155 chain id. */
export const RPC_URL_CHAIN = perChain('RPC_URL', {
  concern: 'payment',
  description: "this network's RPC (self-facilitation with its settler keys; beside its facilitator, proof on chain)",
})
export const SETTLER_PRIVATE_KEYS_CHAIN = perChain('SETTLER_PRIVATE_KEYS', {
  concern: 'payment',
  description: "this network's settler keys, comma-separated",
})
export const SETTLER_PRIVATE_KEY_CHAIN = perChain('SETTLER_PRIVATE_KEY', {
  concern: 'payment',
  description: "this network's settler key (one; `SETTLER_PRIVATE_KEYS_<CHAINID>` wins)",
})
export const FACILITATOR_URL_CHAIN = perChain('FACILITATOR_URL', {
  concern: 'payment',
  description:
    "this network's remote facilitators, comma-separated (Coinbase's when only `CDP_API_KEY_*` are set and it has no RPC)",
})
export const ASSET_CHAIN = perChain('ASSET', { concern: 'payment', description: "this network's token" })
export const ASSET_NAME_CHAIN = perChain('ASSET_NAME', {
  concern: 'payment',
  description: "this network's token EIP-712 name",
})
export const ASSET_VERSION_CHAIN = perChain('ASSET_VERSION', {
  concern: 'payment',
  description: "this network's token EIP-712 version",
})
export const PAY_TO_CHAIN = perChain('PAY_TO', {
  concern: 'payment',
  description: "this network's receiving wallet (default `PAY_TO`)",
})

export const paymentVariables = [
  PAY_TO,
  NETWORK,
  NETWORKS,
  ASSET,
  ASSET_NAME,
  ASSET_VERSION,
  RPC_URL,
  SETTLER_PRIVATE_KEY,
  SETTLER_PRIVATE_KEYS,
  FACILITATOR_URL,
  FACILITATOR_AUTH_HEADER,
  CDP_API_KEY_ID,
  CDP_API_KEY_SECRET,
  FACILITATOR_BREAKER_FAILURES,
  FACILITATOR_BREAKER_COOLDOWN_SECONDS,
]
export const perChainFamilies: Family[] = [
  RPC_URL_CHAIN,
  SETTLER_PRIVATE_KEYS_CHAIN,
  SETTLER_PRIVATE_KEY_CHAIN,
  FACILITATOR_URL_CHAIN,
  ASSET_CHAIN,
  ASSET_NAME_CHAIN,
  ASSET_VERSION_CHAIN,
  PAY_TO_CHAIN,
]

type Asset = Pick<NetworkSetting, 'asset' | 'assetName' | 'assetVersion'>

/**
 * The payment asset: ASSET / ASSET_NAME / ASSET_VERSION (or their `_<CHAINID>` members) when set; registry.yaml's
 * payment.asset* only while its payment.network is the network in use; otherwise the network's USDC from
 * @x402/evm's defaults. A network without known defaults needs all three explicitly.
 */
function resolveAsset(
  set: { asset?: string; name?: string; version?: string },
  pay: any,
  network: string,
  problems: string[],
  suffix = '',
): Asset {
  const yaml = (pay.network ?? NETWORK.default) === network ? pay : {}
  const explicit = {
    asset: set.asset ?? yaml.asset,
    name: set.name ?? yaml.asset_name,
    version: set.version ?? yaml.asset_version,
  }
  const known = isEip155(network) ? assetDefaults(network) : undefined
  const sameToken = known && (!explicit.asset || String(explicit.asset).toLowerCase() === known.asset.toLowerCase())
  const out = {
    asset: String(explicit.asset ?? known?.asset ?? '') as `0x${string}`,
    assetName: String(explicit.name ?? (sameToken ? known.name : '')),
    assetVersion: String(explicit.version ?? (sameToken ? known.version : '')),
  }
  if (!out.asset || !out.assetName || !out.assetVersion)
    problems.push(
      `NETWORK ${network} has no known USDC defaults for this asset: set ASSET${suffix}, ASSET_NAME${suffix} and ASSET_VERSION${suffix} (the token's EIP-712 domain)`,
    )
  return out
}

/**
 * NETWORKS with two or more networks: each one's token (ASSET_<CHAINID>, ASSET_NAME_<CHAINID>, ASSET_VERSION_<CHAINID>,
 * else the network's USDC defaults) and backend (RPC_URL_<CHAINID> + SETTLER_PRIVATE_KEYS_<CHAINID>, or
 * FACILITATOR_URL_<CHAINID>; Coinbase's facilitator when only CDP_API_KEY_* are set). The global RPC_URL,
 * SETTLER_PRIVATE_KEY(S) and FACILITATOR_URL are for one network only and are refused here. Every problem is pushed.
 */
function perChainNetworks(r: Reader, pay: any, networks: string[]): NetworkSetting[] {
  const problems = r.problems
  for (const g of [RPC_URL, SETTLER_PRIVATE_KEY, SETTLER_PRIVATE_KEYS, FACILITATOR_URL])
    if (r.env(g))
      problems.push(
        `${g.name} applies to a single network; with NETWORKS set ${g.name}_<CHAINID> for each network instead`,
      )
  if (new Set(networks).size !== networks.length)
    problems.push(`NETWORKS lists a network twice (${networks.join(',')})`)
  return networks.map((network) => {
    if (!isEip155(network)) problems.push(`NETWORKS must list CAIP-2 eip155 ids like eip155:8453 (got ${network})`)
    const id = network.split(':')[1] ?? ''
    const own = (f: Family) => r.member(f, id)
    const asset = resolveAsset(
      { asset: own(ASSET_CHAIN), name: own(ASSET_NAME_CHAIN), version: own(ASSET_VERSION_CHAIN) },
      pay,
      network,
      problems,
      `_${id}`,
    )
    const rpcUrl = String(own(RPC_URL_CHAIN) ?? '')
    const settlerPrivateKey = String(own(SETTLER_PRIVATE_KEYS_CHAIN) || own(SETTLER_PRIVATE_KEY_CHAIN) || '')
    const facilitatorUrls = listOf(
      own(FACILITATOR_URL_CHAIN) || (!rpcUrl && r.env(CDP_API_KEY_ID) ? CDP_FACILITATOR_URL : ''),
    )
    if (!rpcUrl && !facilitatorUrls.length)
      problems.push(
        `NETWORKS: ${network} has no payment backend; set RPC_URL_${id} with SETTLER_PRIVATE_KEYS_${id}, or FACILITATOR_URL_${id}`,
      )
    if (rpcUrl && !looksHttp(rpcUrl)) problems.push(`RPC_URL_${id} must be an http(s) URL`)
    if (rpcUrl && !facilitatorUrls.length && !validSettlerKeys(settlerPrivateKey))
      problems.push(`RPC_URL_${id} needs SETTLER_PRIVATE_KEYS_${id} (comma-separated 32-byte hex keys)`)
    const payTo = own(PAY_TO_CHAIN) as `0x${string}` | undefined
    if (payTo && !isAddress(payTo)) problems.push(`PAY_TO_${id} must be a 0x address`)
    for (const u of facilitatorUrls)
      if (!isHttpUrl(u)) problems.push(`FACILITATOR_URL_${id} must be a comma-separated list of http(s) URLs`)
    return { network, ...asset, rpcUrl, settlerPrivateKey, facilitatorUrls, ...(payTo ? { payTo } : {}) }
  })
}

type Payment = Pick<
  Config,
  | 'networks'
  | 'payTo'
  | 'maxTimeoutSeconds'
  | 'facilitatorUrl'
  | 'facilitatorAuthHeader'
  | 'facilitatorFailures'
  | 'facilitatorCooldownSeconds'
  | 'cdp'
>

/** The accepted networks (a list of one without NETWORKS) and the payment backend settings, every problem pushed. */
export function readPayment(r: Reader, doc: any): Payment {
  const pay = doc.payment ?? {}
  const problems = r.problems
  const listed = listOf(r.env(NETWORKS))
  const cdp = { apiKeyId: r.env(CDP_API_KEY_ID) ?? '', apiKeySecret: r.env(CDP_API_KEY_SECRET) ?? '' }
  // The single-network variables (refused beside a NETWORKS list of two or more).
  const rpcUrl = r.text(RPC_URL)
  const settlerPrivateKey = String(r.env(SETTLER_PRIVATE_KEYS) || r.env(SETTLER_PRIVATE_KEY) || '')
  // With a CDP key and no FACILITATOR_URL, payments go through Coinbase's CDP facilitator.
  const facilitatorUrl = r.text(FACILITATOR_URL) || (cdp.apiKeyId ? CDP_FACILITATOR_URL : '')
  const facilitatorUrls = listOf(facilitatorUrl)
  let networks: NetworkSetting[]
  if (listed.length > 1) networks = perChainNetworks(r, pay, listed)
  else {
    const network = String(listed[0] ?? r.raw(NETWORK) ?? NETWORK.default)
    const asset = resolveAsset(
      { asset: r.env(ASSET), name: r.env(ASSET_NAME), version: r.env(ASSET_VERSION) },
      pay,
      network,
      problems,
    )
    networks = [{ network, ...asset, rpcUrl, settlerPrivateKey, facilitatorUrls }]
  }
  const payment: Payment = {
    networks,
    payTo: r.text(PAY_TO) as Config['payTo'],
    maxTimeoutSeconds: r.yamlNumber(MAX_TIMEOUT_SECONDS),
    facilitatorUrl,
    facilitatorAuthHeader: r.env(FACILITATOR_AUTH_HEADER) ?? '',
    facilitatorFailures: r.number(FACILITATOR_BREAKER_FAILURES),
    facilitatorCooldownSeconds: r.number(FACILITATOR_BREAKER_COOLDOWN_SECONDS),
    cdp,
  }
  const [main] = networks
  if (!isEip155(main.network))
    problems.push(`NETWORK must be a CAIP-2 eip155 id like eip155:8453 (got ${main.network})`)
  if (main.asset && !isAddress(main.asset)) problems.push(`payment.asset must be a 0x address (got ${main.asset})`)
  if (payment.payTo && !isAddress(payment.payTo)) problems.push(`PAY_TO must be a 0x address (got ${payment.payTo})`)
  // The global variables are checked as set, with or without NETWORKS.
  if (rpcUrl && !looksHttp(rpcUrl)) problems.push(`RPC_URL must be an http(s) URL`)
  if (rpcUrl && !facilitatorUrl && !validSettlerKeys(settlerPrivateKey))
    problems.push(
      'RPC_URL needs SETTLER_PRIVATE_KEY (a 32-byte hex key) or SETTLER_PRIVATE_KEYS (comma-separated) for self-facilitation',
    )
  for (const u of facilitatorUrls)
    if (!isHttpUrl(u))
      problems.push(`FACILITATOR_URL must be a comma-separated list of http(s) URLs (got ${maskUrl(u)})`)
  if (Boolean(cdp.apiKeyId) !== Boolean(cdp.apiKeySecret))
    problems.push('CDP_API_KEY_ID and CDP_API_KEY_SECRET go together: set both or neither')
  if ((rpcUrl || facilitatorUrl || listed.length > 1) && !payment.payTo)
    problems.push('PAY_TO is required when payments go to a real chain (RPC_URL, FACILITATOR_URL or NETWORKS)')
  return payment
}

/** True when neither a chain nor a facilitator is configured: `start` then runs the embedded dev chain. */
export const usesDevChain = (c: Config) => c.networks.length < 2 && !c.networks[0].rpcUrl && !c.facilitatorUrl
