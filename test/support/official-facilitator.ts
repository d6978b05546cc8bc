/**
 * The official x402 facilitator (x402Facilitator + @x402/evm ExactEvmScheme over viem) served over HTTP on
 * loopback with the facilitator API (/verify, /settle, /supported), settling on a local chain. Used to test
 * this server's remote-facilitator mode against the reference implementation. With `channels`, it also runs the
 * official `batch-settlement` facilitator (`@x402/evm/batch-settlement/facilitator`) over the same viem signer,
 * optionally with its own receiver-authorizer key (then /supported advertises its address in `extra`).
 */
import { x402Facilitator } from '@x402/core/facilitator'
import { registerExactEvmScheme } from '@x402/evm/exact/facilitator'
import { BatchSettlementEvmScheme } from '@x402/evm/batch-settlement/facilitator'
import { toFacilitatorEvmSigner } from '@x402/evm'
import { createWalletClient, http, publicActions, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { localBase } from '../../runtime/chain/usdc'

export interface OfficialFacilitator {
  url: string
  calls: Record<'verify' | 'settle' | 'supported', number>
  /** /settle calls by payload type (`deposit`, `claim`, `settle` = sweep, `refund`; `exact` payloads: `exact`). */
  settles: Record<string, number>
  /** Whether claims and refunds arrived signed by the server (`claimAuthorizerSignature`/`refundAuthorizerSignature`). */
  signedByServer: number
  auth: string[]
  /** While true, /supported answers 503 (a facilitator that is down at the server's boot). */
  supportedDown: boolean
  stop(): void
}

export function startOfficialFacilitator(
  rpcUrl: string,
  settlerKey: Hex,
  o: { channels?: { authorizerKey?: Hex }; network?: `${string}:${string}` } = {},
): OfficialFacilitator {
  const account = privateKeyToAccount(settlerKey)
  const w = createWalletClient({
    chain: localBase(rpcUrl),
    transport: http(rpcUrl),
    account,
    pollingInterval: 20,
  }).extend(publicActions)
  const network = o.network ?? 'eip155:8453'
  const fac = registerExactEvmScheme(new x402Facilitator(), {
    signer: toFacilitatorEvmSigner({ ...w, address: account.address } as never),
    networks: network,
  })
  if (o.channels) {
    const signer = toFacilitatorEvmSigner({ ...w, address: account.address } as never)
    const authorizer = o.channels.authorizerKey ? privateKeyToAccount(o.channels.authorizerKey) : undefined
    fac.register(network, new BatchSettlementEvmScheme(signer, authorizer as never))
  }
  const calls = { verify: 0, settle: 0, supported: 0 }
  const settles: Record<string, number> = {}
  let signedByServer = 0
  const auth: string[] = []
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const path = new URL(req.url).pathname
      auth.push(req.headers.get('authorization') ?? '')
      if (path === '/supported') {
        calls.supported++
        if (out.supportedDown) return new Response('down', { status: 503 })
        return Response.json(fac.getSupported())
      }
      const body = (await req.json()) as { paymentPayload: any; paymentRequirements: never }
      if (path === '/verify') {
        calls.verify++
        return Response.json(await fac.verify(body.paymentPayload, body.paymentRequirements))
      }
      if (path === '/settle') {
        calls.settle++
        const p = body.paymentPayload?.payload ?? {}
        const kind = typeof p.type === 'string' ? p.type : 'exact'
        settles[kind] = (settles[kind] ?? 0) + 1
        if (p.claimAuthorizerSignature || p.refundAuthorizerSignature) signedByServer++
        return Response.json(await fac.settle(body.paymentPayload, body.paymentRequirements))
      }
      return new Response('not found', { status: 404 })
    },
  })
  const out = {
    url: `http://127.0.0.1:${server.port}`,
    supportedDown: false,
    calls,
    settles,
    get signedByServer() {
      return signedByServer
    },
    auth,
    stop: () => server.stop(true),
  }
  return out
}
