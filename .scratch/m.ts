import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { recoverAddress, type Hex } from 'viem'
import { recoverDigestNative } from '../runtime/pay/fast-recover'
import { voucherDigest } from '../runtime/pay/batch-settlement/voucher'
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const acct = privateKeyToAccount(generatePrivateKey())
const d = voucherDigest(('0x' + '11'.repeat(32)) as Hex, 5n, 8453)
const hash = ('0x' + Buffer.from(d).toString('hex')) as Hex
const sig = await acct.sign({ hash })
const r = sig.slice(2, 66), s = BigInt('0x' + sig.slice(66, 130)), v = parseInt(sig.slice(130), 16)
const h64 = (x: bigint) => x.toString(16).padStart(64, '0')
const cases: Record<string, Hex> = {
  ok: sig,
  highS: `0x${r}${h64(N - s)}${(v === 27 ? 28 : 27).toString(16)}` as Hex,
  highSsameV: `0x${r}${h64(N - s)}${v.toString(16)}` as Hex,
  v0: `0x${r}${h64(s)}${(v - 27).toString(16).padStart(2, '0')}` as Hex,
  v29: `0x${r}${h64(s)}1d` as Hex,
  v2: `0x${r}${h64(s)}02` as Hex,
  v26: `0x${r}${h64(s)}1a` as Hex,
  short: sig.slice(0, 130) as Hex,
  long: (sig + '00') as Hex,
  r0: `0x${h64(0n)}${h64(s)}1b` as Hex,
  s0: `0x${r}${h64(0n)}1b` as Hex,
  rN: `0x${h64(N)}${h64(s)}1b` as Hex,
  sN: `0x${r}${h64(N)}1b` as Hex,
}
for (const [k, c] of Object.entries(cases)) {
  let a = '', b = ''
  try { a = (await recoverAddress({ hash, signature: c })).toLowerCase() } catch (e) { a = 'throw' }
  try { b = String(recoverDigestNative(d, c)).toLowerCase() } catch (e) { b = 'throw' }
  console.log(k.padEnd(12), a === acct.address.toLowerCase() ? 'SIGNER' : a.slice(0, 12), b === acct.address.toLowerCase() ? 'SIGNER' : b.slice(0, 12))
}
