/**
 * The parts of a voucher-paid call, each timed alone in a tight loop (CPU µs per operation, this process's
 * `process.cpuUsage()`), to say where bench/voucher-call.ts's CPU per call goes: the voucher's signature check (its two
 * keccaks and the recovery), the charge's commit (fsync'd group of one, a plain commit beside it), the channel's read,
 * the receipt's signature, the PAYMENT-SIGNATURE decode, the PAYMENT-RESPONSE encode and MPP's challenge on the 402. Rounds interleave the parts
 * so a loaded machine weighs on all. Not a test: `bun bench/voucher-parts.ts [--n 2000] [--rounds 3]`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir, loadavg } from 'node:os'
import { join } from 'node:path'
import { keccak_256 } from '@noble/hashes/sha3'
import { openDatabase } from '../runtime/db/sqlite/connect'
import { Channels } from '../runtime/db/sqlite/channels'
import { signDigestNative } from '../runtime/pay/fast-recover'
import { keccak256 } from '../runtime/pay/keccak'
import { challengesFor, headerOf } from '../runtime/pay/schemes/mpp/challenge'
import { voucherDigest, voucherSigner } from '../runtime/pay/schemes/batch-settlement/voucher'
import { createReceiptIssuer, type EcJwk } from '../runtime/pay/server/receipts'
import { presented } from '../runtime/pay/server/schemes'
import { b64json } from '../runtime/pay/wire'
import { machine } from './lib'

const arg = (name: string, d: string) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1]! : d
}
const N = Number(arg('n', '2000'))
const rounds = Number(arg('rounds', '3'))
const dir = mkdtempSync(join(tmpdir(), 'bench-parts-'))
const key = `0x${'11'.repeat(32)}` as const
const id = `0x${'ab'.repeat(32)}` as const
const addr = '0x209693bc6afc0c5328ba36faf03c514ef312287c'
const config = {
  payer: addr,
  payerAuthorizer: addr,
  receiver: addr,
  receiverAuthorizer: addr,
  token: addr,
  withdrawDelay: 86400,
  salt: id,
}
const sigOf = (max: bigint) => {
  const s = signDigestNative(voucherDigest(id, max, 8453), key)!
  return `${s.r}${s.s.slice(2)}${s.yParity ? '1c' : '1b'}` as `0x${string}`
}
const sig = sigOf(5000n)
const db = openDatabase(join(dir, 'db.sqlite'))
const store = new Channels(db)
const mirror = { balance: 10n ** 12n, totalClaimed: 0n, withdrawRequestedAt: 0, refundNonce: 0n, syncedAt: Date.now() }
store.open({ id, network: 'eip155:8453', config: config as never, mirror }, Date.now())
let charged = 0n
const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign'])) as CryptoKeyPair
const jwk = (await crypto.subtle.exportKey('jwk', pair.privateKey)) as EcJwk
const issuer = await createReceiptIssuer(jwk, 'http://127.0.0.1:3000')
const facts = {
  resourceUrl: 'http://127.0.0.1:3000/api/v1/hash-digest',
  service: 'hash-digest',
  tier: 'standard',
  requestHash: 'ab'.repeat(32),
  scheme: 'batch-settlement',
  network: 'eip155:8453',
  asset: addr,
  amount: '1000',
  payTo: addr,
  payer: addr,
  transaction: '',
  channel: { id, cumulative: '5000' },
}
const header = Buffer.from(
  JSON.stringify({
    x402Version: 2,
    resource: { url: facts.resourceUrl, description: 'A digest of text', mimeType: 'application/json' },
    accepted: {
      scheme: 'batch-settlement',
      network: 'eip155:8453',
      amount: '1000',
      asset: addr,
      payTo: addr,
      maxTimeoutSeconds: 300,
      extra: { receiverAuthorizer: addr, withdrawDelay: 86400, name: 'USD Coin', version: '2', minDeposit: '1000000' },
    },
    payload: {
      type: 'voucher',
      channelConfig: config,
      voucher: { channelId: id, maxClaimableAmount: '5000', signature: sig },
    },
  }),
).toString('base64')
const receipt = await issuer.issue(facts)
const response = {
  success: true,
  transaction: '',
  network: 'eip155:8453',
  payer: addr,
  amount: '',
  extra: {
    chargedAmount: '1000',
    channelState: {
      channelId: id,
      balance: '1000000',
      totalClaimed: '0',
      withdrawRequestedAt: 0,
      refundNonce: '0',
      chargedCumulativeAmount: '5000',
    },
  },
  extensions: { 'offer-receipt': { info: { receipt } } },
}

const exactEntry = {
  scheme: 'exact',
  network: 'eip155:8453',
  amount: '1000',
  asset: addr,
  payTo: addr,
  maxTimeoutSeconds: 300,
  extra: { name: 'USD Coin', version: '2' },
} as never
const mppKeys = { secretKey: 'k'.repeat(32), realm: '127.0.0.1' } as never

const charge = async () => {
  const from = charged
  charged += 1000n
  await store.commitCharge({
    channelId: id,
    holder: 'h',
    from,
    to: charged,
    signedMax: charged,
    signature: sig,
    slug: 'hash-digest',
    at: Date.now(),
  })
}
const parts: Array<[string, () => unknown]> = [
  ['keccak_256 of 96 bytes (@noble/hashes)', () => keccak_256(new Uint8Array(96))],
  ['keccak256 of 96 bytes (runtime/pay/keccak.ts)', () => keccak256(new Uint8Array(96))],
  ['voucherDigest (2 keccaks)', () => voucherDigest(id, 5000n, 8453)],
  ['voucherSigner (digest, recovery, address)', () => voucherSigner(id, 5000n, sig, 8453)],
  ['channel read (store.get)', () => store.get(id)],
  ["charge commit, fsync'd group of one (store.commitCharge)", charge],
  ['receipt (issuer.issue: JWS ES256)', () => issuer.issue(facts)],
  ['decode PAYMENT-SIGNATURE (presented)', () => presented(header, 2)],
  ['encode PAYMENT-RESPONSE (b64json)', () => b64json(response)],
  ["MPP's WWW-Authenticate on a 402 (one network)", () => headerOf(challengesFor(mppKeys, [exactEntry], 300))],
]
const got = new Map<string, number[]>()
for (let r = 0; r < rounds; r++)
  for (const [name, f] of parts) {
    for (let i = 0; i < Math.min(200, N); i++) await f()
    const c0 = process.cpuUsage()
    for (let i = 0; i < N; i++) await f()
    const c = process.cpuUsage(c0)
    got.set(name, [...(got.get(name) ?? []), (c.user + c.system) / N])
  }
// A wake-up: the thread sleeps (the event loop waits on a timer) and runs again; its CPU from the kernel's count.
const threadUs = () => {
  const u = process.threadCpuUsage()
  return u.user + u.system
}
for (const ms of [1, 5, 20]) {
  const t = threadUs()
  for (let i = 0; i < 100; i++) await Bun.sleep(ms)
  got.set(`a wake-up after ${ms} ms asleep (Bun.sleep; this thread's CPU)`, [(threadUs() - t) / 100])
}
console.log(
  `${machine()}; load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}; ${N} operations × ${rounds} rounds`,
)
console.log('')
console.log('| part | CPU µs per operation, per round | median |')
console.log('|---|---|---|')
for (const [name, xs] of got) {
  const m = [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
  console.log(`| ${name} | ${xs.map((x) => x.toFixed(1)).join(', ')} | **${m.toFixed(1)}** |`)
}
db.close()
rmSync(dir, { recursive: true, force: true })
