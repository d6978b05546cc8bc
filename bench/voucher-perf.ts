/**
 * Where the server's main thread spends a voucher-paid call, by the kernel's sampling of that thread (Linux `perf`,
 * cpu-clock, call graphs), not JSC's sampler (which overstates native calls and allocation). Runs
 * bench/voucher-call.ts (one window of this tree's server), records its main thread with `perf record -g -t` while the
 * window runs (BENCH_WINDOW_FILE), names the JIT's code from JSC's jitdump (`BUN_JSC_useJITDump`, turned into the
 * `/tmp/perf-<pid>.map` perf reads), then gives each sample to the innermost frame a phase claims: µs per call =
 * share × the main thread's CPU per call from the same run. Native code of bun itself has no symbols: samples with no
 * JS frame at all (the event loop, HTTP parsing and writing, the GC between turns, timers) are one row.
 * Not a test: `bun bench/voucher-perf.ts [--rate 300] [--seconds 10]`; needs `perf` (perf_event_paranoid ≤ 2).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const arg = (name: string, d: string) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1]! : d
}
const rate = arg('rate', '300')
const seconds = Number(arg('seconds', '10'))
const root = resolve(import.meta.dir, '..')
const work = mkdtempSync(join(tmpdir(), 'voucher-perf-'))
const windowFile = join(work, 'window')
const jitDir = join(work, 'jit')
Bun.spawnSync(['mkdir', '-p', jitDir])

/** The phases, innermost first wins (a sample's frames from its leaf outwards): name, the JS functions it claims. */
const PHASES: Array<[string, RegExp]> = [
  ['ECDSA recovery (native libsecp256k1)', /secp256k1|ECDSARecover/],
  ['the charges: group commits (flushCharges: SQLite, WAL writes, fsync)', /^(flushCharges|durably|chargeOne)#/],
  ['the receipt (JWS: canonical JSON, ES256)', /^(issue|jws|canonicalJson|receiptOf|withReceipt)#/],
  ["the 402: MPP's fresh challenge", /^challengeHeaders#/],
  ["the 402: the cached answer's clone and headers", /^(answerOf|cachedChallenge)#/],
  ['decoding PAYMENT-SIGNATURE (presented)', /^presented#/],
  ['voucher digest, keccak, address', /^(voucherDigest|keccak256|addressOfPublicKey|permute|eip712Digest)#/],
  [
    'the voucher check around the recovery (hex, checks, the binding wrapper)',
    /^(voucherSigner|recoverDigestNative|ecdsaRecover|assertClaimable|hex|isUint8Array|toTypeString)#/,
  ],
  ['input validation (prepareInputReport, parseJson)', /^(prepareInputReport|parseJson|input)#/],
  ['body reads (readBody)', /^readBody#/],
  ['the handler run (runPaid, runHandler, context)', /^(runPaid|runHandler)#/],
  ['finish (answer, PAYMENT-RESPONSE, stats)', /^(finish|conclude|b64json)#/],
  [
    'the channel doors (admitChannel*, lease, config, settle, commit)',
    /^(admitChannel|admitChannelPayment|configError|parseChannelPayload|admitHeld|unavailableOnError|commitChannelCharge|settle|lease)#/,
  ],
  [
    'admit (throttle, paymentOf, requestHash, client)',
    /^(admit|notThrottled|paymentOf|requestHash|client|notCoolingDown)#/,
  ],
  ['servePaid until its first await (URL, tier, the request)', /^servePaid#/],
  ['Elysia and the fetch entry (map, handle, paidPost, onRequest)', /^(map|handle|paidPost|refuseInvalidHost)#/],
  ['kernel: send', /^__send$|sys_sendto/],
  ['kernel: recv', /^__libc_recv$|sys_recvfrom/],
  ['kernel: waiting, scheduling (waking up)', /epoll|^__schedule$|^schedule$/],
]

/** JSC's jitdump (JIT_CODE_LOAD records) as perf's map: `addr size name` a line. */
function jitdumpToMap(dump: string, pid: number): void {
  const b = readFileSync(dump)
  const lines: string[] = []
  for (let o = b.readUInt32LE(8); o + 16 <= b.length; ) {
    const id = b.readUInt32LE(o)
    const size = b.readUInt32LE(o + 4)
    if (size === 0) break
    if (id === 0) {
      const addr = b.readBigUInt64LE(o + 32)
      const codeSize = b.readBigUInt64LE(o + 40)
      const n0 = o + 56
      const name = b.toString('utf8', n0, b.indexOf(0, n0)).replace(/\n/g, ' ')
      lines.push(`${addr.toString(16)} ${codeSize.toString(16)} ${name}`)
    }
    o += size
  }
  writeFileSync(`/tmp/perf-${pid}.map`, `${lines.join('\n')}\n`)
}

const bench = Bun.spawn(
  [process.execPath, 'bench/voucher-call.ts', '--rate', rate, '--rounds', '1', '--seconds', String(seconds)],
  {
    cwd: root,
    env: { ...process.env, BENCH_WINDOW_FILE: windowFile, BUN_JSC_useJITDump: '1', BUN_JSC_jitDumpDirectory: jitDir },
    stdout: 'pipe',
    stderr: 'inherit',
  },
)
let pid = 0
for (let i = 0; i < 1200 && !pid; i++) {
  try {
    pid = Number(readFileSync(windowFile, 'utf8').trim())
  } catch {
    await Bun.sleep(250)
  }
}
if (!pid) throw new Error('no window')
await Bun.sleep(1000)
const data = join(work, 'perf.data')
const rec = Bun.spawnSync(
  ['timeout', String(Math.max(2, seconds - 3)), 'perf', 'record', '-F', '4000', '-g', '-t', String(pid), '-o', data],
  { stderr: 'pipe' },
)
const out = await new Response(bench.stdout).text()
await bench.exited
const dump = readdirSync(jitDir).find((f) => f.endsWith(`-${pid}.dump`))
if (!dump) throw new Error(`no jitdump for ${pid}: ${rec.stderr}`)
jitdumpToMap(join(jitDir, dump), pid)
const script = Bun.spawnSync(['perf', 'script', '-i', data, '-F', 'tid,ip,sym'], { stdout: 'pipe', stderr: 'ignore' })
const stacks: string[][] = []
let cur: string[] = []
for (const line of script.stdout.toString().split('\n')) {
  if (!line.trim()) {
    if (cur.length) stacks.push(cur)
    cur = []
  } else if (/^\s/.test(line)) {
    const name = line.trim().replace(/^\S+\s*/, '')
    cur.push(name.replace(/^JSC-(DFG|FTL|Baseline|LLInt\w*): /, ''))
  }
}
if (cur.length) stacks.push(cur)
const counts = new Map<string, number>()
for (const s of stacks) {
  let phase = s.some((n) => n.includes('#'))
    ? 'other JS'
    : 'no JS frame: bun native (event loop, HTTP parse/write, GC, timers) and the kernel under it'
  for (const n of s) {
    const hit = PHASES.find(([, rx]) => rx.test(n))
    if (hit) {
      phase = hit[0]
      break
    }
  }
  counts.set(phase, (counts.get(phase) ?? 0) + 1)
}
// The main thread's CPU per call: bench/voucher-call.ts's table, `| this tree | … | <main> (system …) |`.
const main = Number(/\| this tree \|[^|]*\|[^|]*\| ([\d.]+) /.exec(out)?.[1] ?? 'NaN') * 1000
console.log(out.trim())
console.log('')
console.log(
  `${stacks.length} samples of the main thread (perf, 4 kHz, cpu-clock); ${main.toFixed(0)} µs of it per call`,
)
console.log('')
console.log('| phase (main thread; a sample to the innermost frame a phase claims) | share | ≈ µs / call |')
console.log('|---|---|---|')
for (const [k, c] of [...counts].sort((a, b) => b[1] - a[1]))
  console.log(`| ${k} | ${((100 * c) / stacks.length).toFixed(1)} % | ${((main * c) / stacks.length).toFixed(0)} |`)
rmSync(work, { recursive: true, force: true })
rmSync(`/tmp/perf-${pid}.map`, { force: true })
