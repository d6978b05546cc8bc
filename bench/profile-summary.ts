/**
 * Summarizes CPU profiles (Chrome's `.cpuprofile`, as bench/servers/window-prof.ts writes them) in µs per call: the
 * phases of a paid call (each sample goes to the innermost frame of its stack that a phase claims, so a keccak inside
 * the voucher check counts as keccak), then the functions with the most self time. `bun bench/profile-summary.ts
 * <calls> <main thread µs per call> <file.cpuprofile> ...` prints the same for saved files.
 */
import { readFileSync } from 'node:fs'

interface Node {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
interface Profile {
  nodes: Node[]
  samples: number[]
  timeDeltas: number[]
  startTime: number
  endTime: number
}

/** A phase of the call: claims a frame by its function name and file. */
type Phase = [name: string, claims: (fn: string, url: string) => boolean]

const file = (re: RegExp) => (_fn: string, url: string) => re.test(url)
/** Innermost first wins: the specific costs before the code that calls them. */
export const PHASES: Phase[] = [
  ['keccak (@noble/hashes)', file(/@noble\/hashes/)],
  ['ecdsaRecover / native secp256k1', (fn, url) => fn === 'ecdsaRecover' || /secp256k1/.test(url)],
  [
    'receipt JWS (jose, canonical JSON, WebCrypto)',
    (fn, url) => /jose|offer-receipt|canonicalize/.test(url) || (fn === 'sign' && url === ''),
  ],
  [
    'SQLite (statements, commits)',
    (fn, url) => /bun:sqlite|sqlite/.test(url) || (['run', 'get', 'all', 'values'].includes(fn) && url === ''),
  ],
  ['worker pool (postMessage, RSS read)', file(/runtime\/isolate\//)],
  ['receipts.ts', file(/pay\/server\/receipts/)],
  ['voucher.ts (digest, channel id)', file(/batch-settlement\/voucher/)],
  ['payload.ts (payload shape)', file(/batch-settlement\/payload/)],
  ['channel doors / scheme / store', file(/batch-settlement\/|db\/sqlite\/channels|db\/channel-rows/)],
  ['decode PAYMENT-SIGNATURE (wire, schemes)', file(/pay\/wire|pay\/server\/schemes/)],
  ['402 challenge (clone, headers)', file(/pay\/server\/challenge|pay\/server\/paid-call/)],
  ['body read / input validation', file(/http\/body|runtime\/input\//)],
  ['pipeline / call', file(/runtime\/call\//)],
  ['handler (service)', file(/services\//)],
  ['HTTP / Elysia / respond', file(/elysia|runtime\/http\/|runtime\/app|runtime\/routes/)],
  ['ops (metrics, tracing)', file(/runtime\/ops\//)],
  ['other runtime', file(/runtime\//)],
  ['other node_modules', file(/node_modules/)],
]

/**
 * Bun's sampler (JSC) takes samples while the thread runs JavaScript or native code called from it, not while the
 * event loop waits, and at irregular intervals: each sample counts as one, and the shares are scaled to the thread's
 * measured CPU per call (`cpuUsPerCall`, from /proc) when given. Time in native code that no JavaScript frame called
 * (the HTTP server's parsing, the event loop itself) is not sampled, so the scaled figures are approximate.
 */
export function summarize(files: string[], calls: number, top = 25, cpuUsPerCall?: number): string {
  const phase = new Map<string, number>()
  const self = new Map<string, number>()
  const byFile = new Map<string, number>()
  let busy = 0
  let idle = 0
  for (const f of files) {
    const p = JSON.parse(readFileSync(f, 'utf8')) as Profile
    const byId = new Map(p.nodes.map((n) => [n.id, n]))
    const parent = new Map<number, number>()
    for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
    const claimOf = new Map<number, string>()
    const claim = (id: number): string => {
      let c = claimOf.get(id)
      if (c !== undefined) return c
      const n = byId.get(id)!
      const { functionName: fn, url } = n.callFrame
      c = PHASES.find(([, m]) => m(fn, url))?.[0] ?? ''
      if (!c) c = parent.has(id) ? claim(parent.get(id)!) : ''
      claimOf.set(id, c)
      return c
    }
    for (let i = 0; i < p.samples.length; i++) {
      const dt = 1
      const n = byId.get(p.samples[i]!)!
      const { functionName: fn, url, lineNumber } = n.callFrame
      if (
        fn === '(idle)' ||
        fn === '(root)' ||
        (fn === '' && url === '' && byId.get(parent.get(n.id) ?? -1)?.callFrame.functionName === '(root)')
      ) {
        idle += dt
        continue
      }
      busy += dt
      const ph = claim(n.id) || (fn === '(garbage collector)' ? 'GC' : fn === '(program)' ? '(program)' : 'other')
      phase.set(ph, (phase.get(ph) ?? 0) + dt)
      const key = `${fn || '(anonymous)'} ${url.replace(/^.*\/(node_modules|runtime|services|bench)\//, '$1/')}:${lineNumber + 1}`
      self.set(key, (self.get(key) ?? 0) + dt)
      // by file: the innermost frame with a file (native functions count for the code that called them)
      let f = n
      while (!f.callFrame.url && parent.has(f.id)) f = byId.get(parent.get(f.id)!)!
      const at = f.callFrame.url.replace(/^.*\/(node_modules|runtime|services|bench)\//, '$1/') || '(native, no caller)'
      byFile.set(at, (byFile.get(at) ?? 0) + dt)
    }
  }
  const scale = cpuUsPerCall === undefined ? 0 : cpuUsPerCall / busy
  const per = (n: number) => (scale ? (n * scale).toFixed(1) : '—')
  const share = (n: number) => `${((n / busy) * 100).toFixed(1)} %`
  const lines = [
    `${busy} samples in JavaScript (or native code it called) and ${idle} at the event loop's top, over ${calls} calls; µs / call = share × the thread's CPU per call${cpuUsPerCall === undefined ? ' (not given)' : ` (${cpuUsPerCall.toFixed(0)} µs)`}.`,
    '',
    '| phase (innermost claim) | µs / call | share |',
    '|---|---|---|',
    ...[...phase].sort((a, b) => b[1] - a[1]).map(([k, v]) => `| ${k} | ${per(v)} | ${share(v)} |`),
    '',
    '| file (self time, native code counted for its caller) | µs / call | share |',
    '|---|---|---|',
    ...[...byFile]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => `| \`${k}\` | ${per(v)} | ${share(v)} |`),
    '',
    '| function (self time) | µs / call | share |',
    '|---|---|---|',
    ...[...self]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => `| \`${k}\` | ${per(v)} | ${share(v)} |`),
  ]
  return lines.join('\n')
}

if (import.meta.main) {
  const [calls, cpuUs, ...files] = process.argv.slice(2)
  console.log(summarize(files, Number(calls), 40, Number(cpuUs) || undefined))
}
