import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token'
import {
  type Address,
  createKeyPairSignerFromBytes,
  getBase58Encoder,
  getBase64Decoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  signBytes,
} from '@solana/kit'
import { Elysia } from 'elysia'
import type { CatalogService } from '../catalog/index'
import { usesDevChain, type Config } from '../config'
import { solanaTermsOf } from '../discovery/solana'
import { readBody } from '../http/body'
import { errorResponse, json, newRequestId } from '../http/respond'
import { sameOrigin } from '../http/same-origin'
import { asServiceError } from '../http/unexpected'
import { ServiceError, type Logger } from '../sdk'

/** The embedded Solana dev chain's funded demo payer (made by `bun start` at boot; test USDC, not real money). */
export interface DevSolanaPayer {
  address: string
  /** base58 of the 64-byte secret key (the Solana CLI layout). */
  secretBase58: string
}

export interface DevSolanaPayerDeps {
  config: Config
  services: CatalogService[]
  devSolanaPayer?: DevSolanaPayer
  log: Logger
}

const COMPUTE_BUDGET = 'ComputeBudget111111111111111111111111111111'
const MEMO = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr'
/** SPL Token's TransferChecked: tag 12, amount (u64 LE), decimals (u8). */
const TRANSFER_CHECKED = 12
/** The only reads @x402/svm's client makes (the mint's account, a recent blockhash): all the relay forwards. */
const RELAYED = new Set(['getAccountInfo', 'getLatestBlockhash'])
const RELAY_ONLY = 'Only getLatestBlockhash and getAccountInfo of the USDC mint are relayed.'
const NO_CORS = ['access-control-allow-origin', 'access-control-expose-headers']
const sameSiteOnly = (r: Response) => {
  for (const h of NO_CORS) r.headers.delete(h)
  return r
}
const isJson = (req: Request) =>
  (req.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase() === 'application/json'
const noStore = { 'cache-control': 'no-store' }

/**
 * Lets the try-it panel pay on Solana with the Solana dev chain's demo payer, as `./dev-payer.ts` does on Base:
 *  - `GET /api/dev-payer/solana`: its address, network, USDC mint and balance;
 *  - `POST /api/dev-payer/solana/sign` `{ message }` (the base64 message bytes the official @x402/svm client built in
 *    the page): the demo payer's signature (base64), only for a message that is exactly an x402 `exact` payment to
 *    this server: the offer's fee payer, compute-budget and memo instructions, and one USDC TransferChecked from the
 *    demo payer's token account to the payee's, for the price of a service tier; anything else is 422;
 *  - `POST /api/dev-payer/solana/rpc`: the two reads the client makes (the USDC mint's account, a recent blockhash),
 *    relayed to the dev chain, so the page needs no cross-origin RPC.
 * Only on the embedded dev chains (no RPC_URL, no FACILITATOR_URL, and a Solana demo payer given by `bun start`,
 * which gives one only when it runs the Solana replica itself) and only while Solana is offered; elsewhere these
 * routes do not exist. Same-origin JSON requests only; the key never leaves the server.
 */
export function devSolanaPayerRoutes(deps: DevSolanaPayerDeps) {
  const plugin = new Elysia({ name: 'dev-payer-solana' })
  const payer = deps.devSolanaPayer
  const terms = solanaTermsOf(deps.config)
  if (!payer || !terms || !usesDevChain(deps.config) || !deps.config.solana.rpcUrl) return plugin
  const rpcUrl = deps.config.solana.rpcUrl
  const signer = createKeyPairSignerFromBytes(getBase58Encoder().encode(payer.secretBase58))
  const ata = (owner: string) =>
    findAssociatedTokenPda({
      owner: owner as Address,
      mint: terms.asset as Address,
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    }).then(([a]) => String(a))
  const accounts = (async () => {
    if ((await signer).address !== payer.address) throw new Error('Solana dev payer key and address do not match')
    return { source: await ata(payer.address), destination: await ata(terms.payTo) }
  })()
  accounts.catch(() => {}) // reported on use
  const prices = new Set(deps.services.flatMap((s) => Object.values(s.amounts).map(String)))
  const refuse = (message: string, path: string) =>
    new ServiceError(422, 'REFUSED_TO_SIGN', message, { details: [{ path, message }] })
  const rpc = async (method: string, params: unknown[]) => {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      signal: AbortSignal.timeout(10_000),
    })
    return (await res.json()) as { result?: any; error?: unknown }
  }
  /** Same origin, JSON, at most `max` bytes: the parsed body. */
  const bodyOf = async (request: Request, max: number) => {
    if (!sameOrigin(request, deps.config.allowedOrigins, true))
      throw new ServiceError(403, 'CROSS_ORIGIN', 'The demo payer serves only pages of this server (same origin).')
    if (!isJson(request)) throw new ServiceError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send application/json.')
    try {
      return JSON.parse(await readBody(request, max, 10_000))
    } catch (e) {
      if (e instanceof ServiceError) throw e
      throw new ServiceError(400, 'INVALID_JSON', 'The body must be JSON.')
    }
  }
  const guarded =
    (what: string, f: (request: Request, id: string) => Promise<Response>) =>
    async ({ request }: { request: Request }) => {
      const id = newRequestId()
      try {
        return sameSiteOnly(await f(request, id))
      } catch (e) {
        return sameSiteOnly(errorResponse(asServiceError(e, deps.log, { request_id: id }, what), id))
      }
    }

  /** Refuses (422) any message that is not exactly an x402 `exact` payment from the demo payer to this payee. */
  const check = async (messageBytes: Uint8Array) => {
    const { source, destination } = await accounts
    let m: ReturnType<ReturnType<typeof getCompiledTransactionMessageDecoder>['decode']>
    try {
      m = getCompiledTransactionMessageDecoder().decode(messageBytes)
    } catch {
      throw refuse('message must be a Solana transaction message.', '/message')
    }
    const keys = (m.staticAccounts ?? []).map(String)
    if ('addressTableLookups' in m && (m.addressTableLookups?.length ?? 0) > 0)
      throw refuse('Address lookup tables are not signed.', '/message')
    if (keys[0] !== terms.feePayer) throw refuse("The fee payer must be this server's.", '/message/feePayer')
    let transfers = 0
    for (const ix of m.instructions ?? []) {
      const program = keys[ix.programAddressIndex]
      if (program === COMPUTE_BUDGET || program === MEMO) continue
      if (program !== TOKEN_PROGRAM_ADDRESS) throw refuse('Only USDC transfers are signed.', '/message/instructions')
      const data = ix.data ?? new Uint8Array()
      const [src, mint, dst, authority] = (ix.accountIndices ?? []).map((i) => keys[i])
      if (data.length !== 10 || data[0] !== TRANSFER_CHECKED || ix.accountIndices?.length !== 4)
        throw refuse('Only TransferChecked is signed.', '/message/instructions')
      if (mint !== terms.asset || data[9] !== 6) throw refuse('Only USDC is signed.', '/message/instructions/mint')
      if (src !== source || authority !== payer.address)
        throw refuse('The transfer must be from the demo payer.', '/message/instructions/source')
      if (dst !== destination)
        throw refuse("The transfer must go to this server's payee.", '/message/instructions/destination')
      const amount = new DataView(data.buffer, data.byteOffset + 1, 8).getBigUint64(0, true)
      if (!prices.has(amount.toString()))
        throw refuse('The amount must be the price of a service tier.', '/message/instructions/amount')
      transfers++
    }
    if (transfers !== 1) throw refuse('Exactly one USDC transfer is signed.', '/message/instructions')
  }

  const noPreflight = () => new Response(null, { status: 204, headers: noStore })
  return plugin
    .options('/api/dev-payer/solana', noPreflight)
    .options('/api/dev-payer/solana/sign', noPreflight)
    .options('/api/dev-payer/solana/rpc', noPreflight)
    .get('/api/dev-payer/solana', async () => {
      let balance: string | null = null
      try {
        balance = (await rpc('getTokenAccountBalance', [(await accounts).source])).result?.value?.amount ?? null
      } catch {
        /* shown as unknown */
      }
      return sameSiteOnly(
        json(
          {
            address: payer.address,
            network: terms.network,
            asset: terms.asset,
            balance_atomic: balance,
            dev_chain: true,
            note: 'Embedded Solana dev chain: test USDC, not real money.',
          },
          200,
          undefined,
          noStore,
        ),
      )
    })
    .post(
      '/api/dev-payer/solana/sign',
      guarded('Solana dev payer signing failed', async (request, id) => {
        const b = await bodyOf(request, 4096)
        if (typeof b?.message !== 'string' || b.message.length > 2048 || !/^[A-Za-z0-9+/]+={0,2}$/.test(b.message))
          throw refuse('message must be base64 message bytes.', '/message')
        const bytes = new Uint8Array(getBase64Encoder().encode(b.message))
        await check(bytes)
        const signature = await signBytes((await signer).keyPair.privateKey, bytes)
        return json({ signature: getBase64Decoder().decode(signature) }, 200, id, noStore)
      }),
      { parse: 'none' },
    )
    .post(
      '/api/dev-payer/solana/rpc',
      guarded('Solana dev payer relay failed', async (request) => {
        const b = await bodyOf(request, 2048)
        const params = Array.isArray(b?.params) ? b.params : []
        if (!RELAYED.has(b?.method) || (b.method === 'getAccountInfo' && params[0] !== terms.asset))
          throw new ServiceError(422, 'INVALID_INPUT', RELAY_ONLY, {
            details: [{ path: '/method', message: RELAY_ONLY }],
          })
        const res = await fetch(rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: b.id ?? 1, method: b.method, params }),
          signal: AbortSignal.timeout(10_000),
        })
        return new Response(await res.text(), {
          status: res.ok ? 200 : 502,
          headers: { 'content-type': 'application/json', ...noStore },
        })
      }),
      { parse: 'none' },
    )
}
