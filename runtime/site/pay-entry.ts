/**
 * Browser side of "pay from the page" (bundled by scripts/build-pay-bundle.ts into pay.bundle.js, served at /pay.js,
 * loaded only when a visitor chooses to pay). Exposes `window.x402Pay`:
 *  - wallets(): injected wallets found by EIP-6963 discovery;
 *  - walletSigner(provider, chainId): the visitor's own wallet through viem's `custom` transport (the key stays in
 *    the wallet);
 *  - devSigner(): the embedded dev chain's demo payer; the server signs (test USDC only, refused on a real network);
 *  - devSolanaSigner(): the embedded Solana dev chain's demo payer, as a @solana/kit transaction signer whose
 *    signature the server makes (only for a USDC payment to this server; dev chains only);
 *  - solanaWallets(network) / solanaWalletSigner(wallet, network): the visitor's Solana wallets found by Wallet
 *    Standard discovery, and one of them as a transaction signer (the key stays in the wallet);
 *  - pay(signer, network, url, init, rpcUrl?): the paid request through the official @x402/fetch client (with
 *    @x402/evm's `exact` on an `eip155:` network, @x402/svm's on a `solana:` one, whose reads go to `rpcUrl`), with
 *    the receipt.
 */
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from '@x402/fetch'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { ExactSvmScheme } from '@x402/svm/exact/client'
import {
  type Address,
  getTransactionDecoder,
  getTransactionEncoder,
  type SignatureBytes,
  type Transaction,
  type TransactionPartialSigner,
} from '@solana/kit'
import { createWalletClient, custom, type EIP1193Provider } from 'viem'
import { base, baseSepolia } from 'viem/chains'

export interface WalletInfo {
  uuid: string
  name: string
  icon: string
  rdns: string
}
export interface FoundWallet {
  info: WalletInfo
  provider: EIP1193Provider
}
type TypedData = {
  domain: Record<string, unknown>
  types: Record<string, unknown>
  primaryType: string
  message: Record<string, unknown>
}
export interface Signer {
  address: `0x${string}`
  signTypedData(m: TypedData): Promise<`0x${string}`>
}

/** EIP-6963: asks injected wallets to announce themselves and collects the answers for `waitMs`. */
export function wallets(waitMs = 400): Promise<FoundWallet[]> {
  const found = new Map<string, FoundWallet>()
  const onAnnounce = (e: Event) => {
    const d = (e as CustomEvent<FoundWallet>).detail
    if (d?.info?.uuid && d.provider && typeof d.provider.request === 'function')
      found.set(d.info.uuid, { info: d.info, provider: d.provider })
  }
  window.addEventListener('eip6963:announceProvider', onAnnounce)
  window.dispatchEvent(new Event('eip6963:requestProvider'))
  return new Promise((resolve) =>
    setTimeout(() => {
      window.removeEventListener('eip6963:announceProvider', onAnnounce)
      resolve([...found.values()])
    }, waitMs),
  )
}

/** The visitor's wallet as an x402 signer: asks for an account and for the payment network, signs in the wallet. */
export async function walletSigner(provider: EIP1193Provider, chainId: number): Promise<Signer> {
  const client = createWalletClient({ transport: custom(provider) })
  const [address] = await client.requestAddresses()
  if (!address) throw new Error('The wallet shared no account.')
  if ((await client.getChainId()) !== chainId) {
    try {
      await client.switchChain({ id: chainId })
    } catch (e) {
      // 4902: the wallet does not know the chain yet; offer Base (or Base Sepolia), then switch.
      const known = [base, baseSepolia].find((c) => c.id === chainId)
      if (!known || !hasCode(e, 4902)) throw e
      await client.addChain({ chain: known })
      await client.switchChain({ id: chainId })
    }
  }
  return { address, signTypedData: (m) => client.signTypedData({ account: address, ...(m as any) }) }
}

/** True when an error (or one it wraps) carries the EIP-1193 / EIP-3085 error `code`. */
function hasCode(e: unknown, code: number): boolean {
  for (let x = e as { code?: number; cause?: unknown } | undefined, i = 0; x && i < 8; x = x.cause as typeof x, i++)
    if (x.code === code) return true
  return false
}

const jsonSafe = (v: unknown): unknown =>
  typeof v === 'bigint'
    ? v.toString()
    : Array.isArray(v)
      ? v.map(jsonSafe)
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, jsonSafe(x)]))
        : v

/** The dev chain's demo payer: the server holds its key and signs only transfers to this server's payee. */
export async function devSigner(): Promise<Signer> {
  const res = await fetch('/api/dev-payer')
  if (!res.ok) throw new Error('No demo payer here: this server is not on the embedded dev chain.')
  const { address } = (await res.json()) as { address: `0x${string}` }
  return {
    address,
    async signTypedData(m) {
      const r = await fetch('/api/dev-payer/sign', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(jsonSafe(m)),
      })
      const body = (await r.json().catch(() => ({}))) as { signature?: `0x${string}`; error?: { message: string } }
      if (!r.ok || !body.signature) throw new Error(body.error?.message ?? `The demo payer refused (HTTP ${r.status}).`)
      return body.signature
    },
  }
}

const toBase64 = (b: Uint8Array) => btoa(Array.from(b, (c) => String.fromCharCode(c)).join(''))
const fromBase64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0))

/**
 * The Solana dev chain's demo payer: the server holds its key and signs only a USDC payment to this server's payee;
 * the client's reads go through the same-origin relay (`rpcUrl`).
 */
export async function devSolanaSigner(): Promise<{ signer: TransactionPartialSigner; rpcUrl: string }> {
  const res = await fetch('/api/dev-payer/solana')
  if (!res.ok) throw new Error('No Solana demo payer here: this server is not on the embedded Solana dev chain.')
  const address = ((await res.json()) as { address: string }).address as Address
  const signOne = async (tx: Transaction) => {
    const r = await fetch('/api/dev-payer/solana/sign', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: toBase64(new Uint8Array(tx.messageBytes)) }),
    })
    const body = (await r.json().catch(() => ({}))) as { signature?: string; error?: { message: string } }
    if (!r.ok || !body.signature) throw new Error(body.error?.message ?? `The demo payer refused (HTTP ${r.status}).`)
    return { [address]: fromBase64(body.signature) as SignatureBytes }
  }
  return {
    signer: { address, signTransactions: (txs) => Promise.all(txs.map(signOne)) },
    rpcUrl: `${location.origin}/api/dev-payer/solana/rpc`,
  }
}

/** A Wallet Standard wallet, as much of it as paying needs. */
export interface SolanaWallet {
  name: string
  icon: string
  chains: readonly string[]
  features: Record<string, any>
}
/** Wallet Standard's chain names for the CAIP-2 Solana networks x402 uses. */
const WALLET_CHAINS: Record<string, string> = {
  'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp': 'solana:mainnet',
  'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1': 'solana:devnet',
}
const walletChainOf = (network: string) => {
  const chain = WALLET_CHAINS[network]
  if (!chain) throw new Error(`No wallet chain for ${network}.`)
  return chain
}

/**
 * Wallet Standard discovery (what Solana wallets implement): announces this page as ready and takes the wallets that
 * register, now or within `waitMs`; keeps those that can connect and sign a transaction on `network`.
 */
export function solanaWallets(network: string, waitMs = 400): Promise<SolanaWallet[]> {
  const chain = walletChainOf(network)
  const found = new Set<SolanaWallet>()
  const api = Object.freeze({
    register: (...ws: SolanaWallet[]) => {
      for (const w of ws) found.add(w)
      return () => {
        for (const w of ws) found.delete(w)
      }
    },
  })
  const onRegister = (e: Event) => {
    const callback = (e as CustomEvent<(a: typeof api) => void>).detail
    if (typeof callback === 'function') callback(api)
  }
  window.addEventListener('wallet-standard:register-wallet', onRegister)
  window.dispatchEvent(new CustomEvent('wallet-standard:app-ready', { detail: api }))
  return new Promise((resolve) =>
    setTimeout(() => {
      window.removeEventListener('wallet-standard:register-wallet', onRegister)
      resolve(
        [...found].filter(
          (w) =>
            w.chains?.includes(chain) &&
            typeof w.features?.['standard:connect']?.connect === 'function' &&
            typeof w.features?.['solana:signTransaction']?.signTransaction === 'function',
        ),
      )
    }, waitMs),
  )
}

/**
 * The visitor's Solana wallet as a transaction signer: connects, then has the wallet sign each transaction (the key
 * stays in the wallet). A wallet that changes the transaction (a priority fee, another instruction) is refused: its
 * signature would not be over the message the x402 client built.
 */
export async function solanaWalletSigner(
  wallet: SolanaWallet,
  network: string,
): Promise<{ signer: TransactionPartialSigner }> {
  const chain = walletChainOf(network)
  const { accounts } = await wallet.features['standard:connect'].connect()
  const account = accounts?.find((a: { chains?: string[] }) => a.chains?.includes(chain)) ?? accounts?.[0]
  if (!account) throw new Error('The wallet shared no account.')
  const address = account.address as Address
  const signOne = async (tx: Transaction) => {
    const [out] = await wallet.features['solana:signTransaction'].signTransaction({
      account,
      chain,
      transaction: new Uint8Array(getTransactionEncoder().encode(tx)),
    })
    const signed = getTransactionDecoder().decode(out.signedTransaction)
    const same =
      signed.messageBytes.length === tx.messageBytes.length &&
      signed.messageBytes.every((b, i) => b === tx.messageBytes[i])
    if (!same) throw new Error('The wallet changed the transaction; the payment was not sent.')
    const signature = signed.signatures[address]
    if (!signature) throw new Error('The wallet did not sign.')
    return { [address]: signature }
  }
  return { signer: { address, signTransactions: (txs) => Promise.all(txs.map(signOne)) } }
}

export interface Paid {
  status: number
  body: unknown
  receipt: { success: boolean; transaction: string; network: string; payer?: string; errorReason?: string } | null
}

/**
 * Sends the request; on 402 the official client signs for `network` with `signer` (an EVM signer, or a Solana
 * transaction signer with its `rpcUrl`) and repeats it with PAYMENT-SIGNATURE.
 */
export async function pay(
  signer: Signer | TransactionPartialSigner,
  network: string,
  url: string,
  init: RequestInit,
  rpcUrl?: string,
): Promise<Paid> {
  const scheme = network.startsWith('solana:')
    ? new ExactSvmScheme(signer as TransactionPartialSigner, { rpcUrl })
    : new ExactEvmScheme(signer as Signer)
  const paying = wrapFetchWithPayment(fetch, new x402Client().register(network as `${string}:${string}`, scheme))
  const res = await paying(url, init)
  const header = res.headers.get('payment-response')
  return {
    status: res.status,
    body: await res.json().catch(() => null),
    receipt: header ? (decodePaymentResponseHeader(header) as Paid['receipt']) : null,
  }
}

;(window as unknown as { x402Pay: unknown }).x402Pay = {
  wallets,
  walletSigner,
  devSigner,
  devSolanaSigner,
  solanaWallets,
  solanaWalletSigner,
  pay,
}
