/**
 * The paid canary (docs/operations.md "Canary"): pays a fixed set of cheap services of a deployment with the official
 * clients, once with `exact` and once through a payment channel (`batch-settlement`: one deposit, then vouchers, then
 * the cooperative refund of what is left), checks every result, every signed receipt and the books, and writes a
 * JSON report. Exit code 0 when every check passed, 1 when one failed, 2 on bad arguments.
 *
 *   npm run canary -- --url https://api.example.com --key 0x<funded key> [--rpc <RPC URL>] [--out report.json]
 *
 * `--key` may come from CANARY_KEY instead (not on the command line). The payer needs USDC for the calls and the
 * channel's deposit (refunded at the end, less the calls), and a little ETH for nothing: every transaction is the
 * server's. `--rpc` (default: Base's public RPC) reads the payer's balance for the books and serves the channel
 * client. `--no-refund` leaves the channel's deposit in place. Set the server's CANARY_PAYER to this key's address to
 * publish the runs at GET /reliability.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { createHash } from 'node:crypto'
import { toClientEvmSigner } from '@x402/evm'
import { BatchSettlementEvmScheme } from '@x402/evm/batch-settlement/client'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from '@x402/fetch'
import { createPublicClient, erc20Abi, http, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { base } from 'viem/chains'
import { verifyReceipt, type EcJwk } from '../runtime/pay/server/receipts'

/** The fixed set: cheap deterministic utilities, each with the value its answer must contain. */
const CALLS: Array<{ slug: string; body: Record<string, unknown>; expect: string }> = [
  {
    slug: 'hash-digest',
    body: { text: 'x402 canary', algo: 'sha256' },
    expect: createHash('sha256').update('x402 canary').digest('hex'),
  },
  { slug: 'roman-numeral', body: { value: 2026 }, expect: 'MMXXVI' },
  { slug: 'slugify', body: { text: 'Hello, paid world!' }, expect: 'hello-paid-world' },
]

interface CallReport {
  service: string
  scheme: 'exact' | 'batch-settlement'
  status: number
  ok: boolean
  ms: number
  amount: string
  transaction: string
  receipt_verified: boolean
  problems: string[]
}

function args(argv: string[]) {
  const get = (name: string) => {
    const i = argv.indexOf(`--${name}`)
    return i >= 0 ? argv[i + 1] : undefined
  }
  return {
    url: get('url')?.replace(/\/+$/, ''),
    key: (get('key') ?? process.env.CANARY_KEY) as Hex | undefined,
    rpc: get('rpc') ?? 'https://mainnet.base.org',
    out: get('out') ?? `data/canary-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
    refund: !argv.includes('--no-refund'),
  }
}

const b64json = (h: string | null) => (h ? JSON.parse(Buffer.from(h, 'base64').toString('utf8')) : undefined)

/** /stats revenue: the total (every scheme), its exact part and its channel part (`schemes`, issue #32). */
function revenue(stats: any) {
  const exact = stats?.schemes?.exact?.revenue_atomic
  return {
    split: exact !== undefined,
    total: BigInt(stats?.totals?.revenue_atomic ?? 0),
    exact: BigInt(exact ?? 0),
    channel: BigInt(stats?.schemes?.['batch-settlement']?.revenue_atomic ?? 0),
  }
}

async function main(): Promise<number> {
  const o = args(process.argv.slice(2))
  if (!o.url || !o.key || !/^0x[0-9a-fA-F]{64}$/.test(o.key)) {
    console.error(
      'usage: npm run canary -- --url <deployment> --key <0x funded private key> [--rpc <url>] [--out <file>]',
    )
    return 2
  }
  const url = o.url
  const account = privateKeyToAccount(o.key)
  const started = new Date()
  const problems: string[] = []
  const get = async (path: string) => {
    const r = await fetch(url + path)
    if (!r.ok) throw new Error(`GET ${path} answered ${r.status}`)
    return (await r.json()) as any
  }
  // The offer (network, asset, prices), the receipt key and the books before.
  const probe = await fetch(`${url}/api/v1/${CALLS[0].slug}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(CALLS[0].body),
  })
  const offer = b64json(probe.headers.get('payment-required'))?.accepts as Array<Record<string, any>> | undefined
  const exactOffer = offer?.find((a) => a.scheme === 'exact')
  if (probe.status !== 402 || !exactOffer)
    throw new Error(`the unpaid call answered ${probe.status} without an exact offer`)
  const network = String(exactOffer.network)
  const channels = offer!.some((a) => a.scheme === 'batch-settlement')
  const did = await get('/.well-known/did.json')
  const key = did.verificationMethod?.[0]?.publicKeyJwk as EcJwk | undefined
  const publicClient = createPublicClient({
    chain: network === 'eip155:8453' ? base : undefined,
    transport: http(o.rpc),
  })
  const balance = () =>
    publicClient.readContract({
      address: exactOffer.asset,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [account.address],
    })
  const statsBefore = await get('/stats')
  const payerBefore = await balance()

  const exact = wrapFetchWithPayment(fetch, new x402Client().register(network as never, new ExactEvmScheme(account)))
  const channelScheme = new BatchSettlementEvmScheme(toClientEvmSigner(account, publicClient as never), {
    depositPolicy: { depositMultiplier: 10 },
  })
  const channel = wrapFetchWithPayment(fetch, new x402Client().register(network as never, channelScheme))
  const schemes: Array<['exact' | 'batch-settlement', typeof exact]> = [['exact', exact]]
  if (channels) schemes.push(['batch-settlement', channel])
  else problems.push('the deployment offers no payment channels (batch-settlement): only exact was paid')

  const calls: CallReport[] = []
  let deposited = 0n
  for (const [scheme, pay] of schemes)
    for (const c of CALLS) {
      const t0 = performance.now()
      const call: CallReport = {
        service: c.slug,
        scheme,
        status: 0,
        ok: false,
        ms: 0,
        amount: '',
        transaction: '',
        receipt_verified: false,
        problems: [],
      }
      try {
        const res = await pay(`${url}/api/v1/${c.slug}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(c.body),
        })
        call.ms = Math.round(performance.now() - t0)
        call.status = res.status
        const text = await res.text()
        if (res.status !== 200) call.problems.push(`answered ${res.status}: ${text.slice(0, 200)}`)
        else if (!text.includes(c.expect)) call.problems.push(`the result lacks ${c.expect}: ${text.slice(0, 200)}`)
        const header = res.headers.get('payment-response')
        const settled = header ? decodePaymentResponseHeader(header) : undefined
        if (!settled?.success) call.problems.push('no successful PAYMENT-RESPONSE')
        call.transaction = settled?.transaction ?? ''
        if (scheme === 'batch-settlement' && settled?.transaction) deposited += BigInt(String(settled.amount || 0))
        const receipt = (settled?.extensions as any)?.['offer-receipt']?.info?.receipt
        const verdict = receipt ? await verifyReceipt(receipt, key) : { valid: false as const, reason: 'no receipt' }
        call.receipt_verified = verdict.valid
        if (!verdict.valid) call.problems.push(`receipt: ${verdict.reason}`)
        else {
          const p = verdict.payload as unknown as Record<string, string>
          call.amount = String(p.amount)
          if (p.service !== c.slug || p.scheme !== scheme) call.problems.push(`receipt names ${p.service} ${p.scheme}`)
          if (scheme === 'exact' && p.amount !== exactOffer.amount && c.slug === CALLS[0].slug)
            call.problems.push(`receipt amount ${p.amount}, offered ${exactOffer.amount}`)
        }
      } catch (e) {
        call.ms = Math.round(performance.now() - t0)
        call.problems.push(String((e as Error)?.message ?? e).slice(0, 300))
      }
      call.ok = call.problems.length === 0
      calls.push(call)
    }

  // The channel's cooperative refund: what was deposited and not charged goes back to the payer.
  let refunded = 0n
  if (channels && o.refund && deposited > 0n) {
    try {
      const r = await channelScheme.refund(`${url}/api/v1/${CALLS[0].slug}`)
      refunded = BigInt(String(r.amount ?? 0))
      if (!r.success) problems.push('the channel refund did not succeed')
    } catch (e) {
      problems.push(`the channel refund failed: ${String((e as Error)?.message ?? e).slice(0, 200)}`)
    }
  }

  // The books: what the receipts say was charged is what /stats and the payer's balance moved by. /stats revenue
  // counts every scheme (issue #32): its `schemes` gives the exact part and the channel part, which sum to the total.
  const sum = (scheme: string) =>
    calls.filter((c) => c.scheme === scheme && c.ok).reduce((a, c) => a + BigInt(c.amount || 0), 0n)
  const exactCharged = sum('exact')
  const channelCharged = sum('batch-settlement')
  const statsAfter = await get('/stats')
  const payerAfter = await balance()
  const before = revenue(statsBefore)
  const after = revenue(statsAfter)
  for (const [when, r] of [
    ['before', before],
    ['after', after],
  ] as const)
    if (!r.split) problems.push(`/stats ${when}: no revenue by scheme (schemes.exact), a server before issue #32?`)
    else if (r.total !== r.exact + r.channel)
      problems.push(`/stats ${when}: revenue ${r.total} is not exact ${r.exact} + channels ${r.channel}`)
  const revenueDelta = after.total - before.total
  const exactRevenueDelta = after.exact - before.exact
  const channelRevenueDelta = after.channel - before.channel
  const payerDelta = payerBefore - payerAfter
  const expectedPayerDelta = exactCharged + (deposited > 0n ? deposited - refunded : 0n)
  const books = {
    exact_charged_atomic: String(exactCharged),
    exact_revenue_delta_atomic: String(exactRevenueDelta),
    channel_charged_atomic: String(channelCharged),
    channel_revenue_delta_atomic: String(channelRevenueDelta),
    revenue_delta_atomic: String(revenueDelta),
    deposited_atomic: String(deposited),
    refunded_atomic: String(refunded),
    payer_delta_atomic: String(payerDelta),
    expected_payer_delta_atomic: String(expectedPayerDelta),
    // /stats may count other buyers' calls too: at least ours, each scheme in its own part, and the parts sum to the
    // total; the payer's own balance must match exactly
    ok:
      before.split &&
      after.split &&
      before.total === before.exact + before.channel &&
      after.total === after.exact + after.channel &&
      exactRevenueDelta >= exactCharged &&
      channelRevenueDelta >= channelCharged &&
      payerDelta === expectedPayerDelta &&
      (refunded === 0n || !o.refund || deposited - refunded === channelCharged),
  }
  if (!books.ok) problems.push('the books do not match what was paid (see books)')
  for (const c of calls) if (!c.ok) problems.push(`${c.scheme} ${c.service}: ${c.problems.join('; ')}`)
  const bySchemes = Object.fromEntries(
    schemes.map(([s]) => {
      const list = calls.filter((c) => c.scheme === s)
      const ms = list.map((c) => c.ms).sort((a, b) => a - b)
      return [
        s,
        { calls: list.length, ok: list.filter((c) => c.ok).length, latency_ms_p50: ms[Math.floor(ms.length / 2)] },
      ]
    }),
  )
  const report = {
    url,
    payer: account.address,
    network,
    started_at: started.toISOString(),
    finished_at: new Date().toISOString(),
    ok: problems.length === 0,
    success_rate: calls.length ? calls.filter((c) => c.ok).length / calls.length : 0,
    schemes: bySchemes,
    calls,
    books,
    problems,
  }
  mkdirSync(dirname(o.out), { recursive: true })
  writeFileSync(o.out, `${JSON.stringify(report, null, 2)}\n`)
  console.log(
    `canary ${report.ok ? 'OK' : 'FAILED'}: ${calls.filter((c) => c.ok).length}/${calls.length} calls, books ${books.ok ? 'match' : 'DO NOT match'}; report ${o.out}`,
  )
  for (const p of problems) console.log(`  - ${p}`)
  return report.ok ? 0 : 1
}

process.exit(
  await main().catch((e) => {
    console.error(`canary could not run: ${String((e as Error)?.message ?? e)}`)
    return 1
  }),
)
