import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A running anvil node (see {@link startAnvil}). */
export interface Anvil {
  /** JSON-RPC endpoint, `http://127.0.0.1:<port>`. */
  url: string
  port: number
  /** Pid of the anvil process itself (its parent is the `/bin/sh` watchdog, {@link Anvil.proc}). */
  pid: number
  /** The `/bin/sh` watchdog wrapping anvil; closing its stdin stops the node. */
  proc: ChildProcess
  /** The temporary HOME given to anvil; removed by {@link Anvil.stop}. */
  home: string
  /**
   * Stops the node and awaits its exit, then deletes its HOME. Idempotent. The chain state is gone: a later
   * `startAnvil({ port })` on the same port starts an empty chain (install USDC and fund accounts again).
   */
  stop(): Promise<void>
}

/** Options of {@link startAnvil}. */
export interface AnvilOptions {
  /** Port to listen on; 0 or absent picks a free one. Pass a stopped node's port to restart it on the same URL. */
  port?: number
  /** Seconds between blocks (anvil `--block-time`); absent means automine (one block per transaction). */
  blockTime?: number
  /** Chain id; default 8453 (Base). */
  chainId?: number
  /**
   * EVM hardfork (anvil `--hardfork`), default anvil's latest. Tests that mine tens of thousands of blocks use
   * `cancun`: under prague, anvil 1.7 spends time proportional to the chain's length on every block it mines.
   */
  hardfork?: string
}

const START_TIMEOUT_MS = 10_000
/**
 * Past block states anvil keeps in memory (`--prune-history <n>`; none on disk) on a chain mining on an interval. With
 * none (a bare `--prune-history`), anvil resolves a `latest` read to block N, and when it mines N+1 before it
 * executes the read it finds no state for N and answers -32602 "BlockOutOfRangeError: block height is N+1 but
 * requested was N" (viem: "Invalid parameters were provided to the RPC method"): with 0.2 s blocks, some first
 * deposits of a burst of channel openings failed so, also in the official client's own read of its channel. 64 states
 * (13 s at 0.2 s blocks) cost about 4 MB. An automining chain keeps none: its blocks come only with transactions, and
 * each kept state is a copy of the state per mined block (a test mining 10^4 blocks at once took 60 % longer).
 */
const KEPT_STATES = 64

/**
 * Path of the anvil binary shipped in the npm optional dependency `@foundry-rs/anvil-<platform>-<arch>`, or
 * `ANVIL_PATH` when set (a compiled single-file server has no node_modules to resolve from).
 * @throws Error naming the missing package.
 */
export function anvilBinary(): string {
  const given = process.env.ANVIL_PATH
  if (given) {
    if (!existsSync(given)) throw new Error(`anvil binary not found at ANVIL_PATH=${given}`)
    return given
  }
  const pkg = `@foundry-rs/anvil-${process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`
  const candidates: string[] = []
  try {
    candidates.push(createRequire(import.meta.url).resolve(`${pkg}/bin/anvil`))
  } catch {
    /* not resolvable from here (e.g. inside a compiled binary): try the working directory */
  }
  candidates.push(join(process.cwd(), 'node_modules', pkg, 'bin', 'anvil'))
  const found = candidates.find((p) => existsSync(p))
  if (!found)
    throw new Error(
      `anvil binary not found: set ANVIL_PATH to an anvil binary (a compiled server has no node_modules), or install the npm package ${pkg} (optional dependency of @foundry-rs/anvil; do not omit optional deps)`,
    )
  return found
}

// The shell starts anvil in the background, reports its pid, and kills it as soon as its own stdin (a pipe from us)
// reaches EOF: on stop(), and also when our process dies, even by SIGKILL. If anvil exits first, the shell exits too
// with anvil's status, so an early failure (port in use, bad flag) is seen at once.
const WATCHDOG =
  '"$0" "$@" & p=$!; exec 3<&0; echo "anvil-pid $p" >&2; ' +
  '{ read -r _ <&3; kill $p 2>/dev/null; } & w=$!; wait $p; s=$?; kill $w 2>/dev/null; exit $s'

/**
 * Starts anvil as a local Base replica: `--host 127.0.0.1 --chain-id 8453 --prune-history` (`chainId` to change it; 64
 * past states kept with `blockTime`) (no state files), HOME in
 * a fresh temp dir. Resolves once anvil prints "Listening on"; rejects after 10 s or when anvil exits early, with its
 * stderr in the message. Works under Bun and Node.
 */
export async function startAnvil(opts: AnvilOptions = {}): Promise<Anvil> {
  const bin = anvilBinary()
  const home = mkdtempSync(join(tmpdir(), 'anvil-home-'))
  const args = [
    '--host',
    '127.0.0.1',
    '--port',
    String(opts.port ?? 0),
    '--chain-id',
    String(opts.chainId ?? 8453),
    '--prune-history',
    ...(opts.blockTime !== undefined ? [String(KEPT_STATES), '--block-time', String(opts.blockTime)] : []),
  ]
  if (opts.hardfork) args.push('--hardfork', opts.hardfork)
  const proc = spawn('/bin/sh', ['-c', WATCHDOG, bin, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, HOME: home },
  })
  proc.stdin!.on('error', () => {}) // EPIPE when anvil already died: nothing to do
  const exited = new Promise<number | null>((resolve) => {
    proc.once('exit', (code) => resolve(code))
    proc.once('error', () => resolve(null)) // never spawned: there is no exit to wait for
  })
  const cleanup = async () => {
    proc.stdin!.end()
    const killer = setTimeout(() => {
      // a wedged node: kill both anvil and the shell
      try {
        if (pid) process.kill(pid, 'SIGKILL')
      } catch {
        /* already gone */
      }
      proc.kill('SIGKILL')
    }, 5000)
    await exited
    clearTimeout(killer)
    rmSync(home, { recursive: true, force: true })
  }
  let stdout = ''
  let stderr = ''
  let pid = 0
  let port = 0
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => done(new Error(`anvil did not start within ${START_TIMEOUT_MS / 1000} s: ${stderr.trim()}`)),
        START_TIMEOUT_MS,
      )
      let settled = false
      const done = (err?: Error) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        if (err) reject(err)
        else resolve()
      }
      proc.stdout!.on('data', (d: Buffer) => {
        if (port) return // started: keep draining the pipe, keep nothing
        stdout = (stdout + d).slice(-4000)
        const m = /Listening on [\d.]+:(\d+)/.exec(stdout)
        if (m) port = Number(m[1])
        if (port && pid) done()
      })
      proc.stderr!.on('data', (d: Buffer) => {
        stderr = (stderr + d).slice(-4000)
        const m = /anvil-pid (\d+)/.exec(stderr)
        if (m && !pid) pid = Number(m[1])
        if (port && pid) done()
      })
      proc.once('error', (e) => done(new Error(`cannot spawn anvil (${bin}): ${e.message}`)))
      void exited.then((code) =>
        done(
          new Error(`anvil exited (code ${code}) before listening: ${stderr.replace(/anvil-pid \d+\n?/, '').trim()}`),
        ),
      )
    })
  } catch (e) {
    await cleanup()
    throw e
  }
  let stopping: Promise<void> | undefined
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    pid,
    proc,
    home,
    stop: () => (stopping ??= cleanup()),
  }
}
