import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface Anvil {
  url: string
  port: number
  pid: number
  /** Stops the node (idempotent). Its state is gone: a restart starts an empty chain. */
  stop(): Promise<void>
}

/** The anvil binary shipped inside the npm package `@foundry-rs/anvil-<platform>-<arch>` (or ANVIL_PATH). */
export function anvilBinary(): string {
  if (process.env.ANVIL_PATH) return process.env.ANVIL_PATH
  const pkg = `@foundry-rs/anvil-${process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`
  const candidates: string[] = []
  try {
    candidates.push(createRequire(import.meta.url).resolve(`${pkg}/bin/anvil`))
  } catch { /* inside a compiled binary: look next to the working directory */ }
  candidates.push(join(process.cwd(), 'node_modules', pkg, 'bin', 'anvil'))
  const found = candidates.find((p) => existsSync(p))
  if (!found) throw new Error(`anvil not found: install the npm package ${pkg} (npm ci) or set ANVIL_PATH`)
  return found
}

// sh keeps anvil as its child and kills it when our end of its stdin closes, so even a SIGKILLed parent leaves no orphan.
const WATCHDOG = '"$0" "$@" & p=$!; read -r _; kill $p 2>/dev/null; wait $p'

/**
 * Starts a local Base replica: anvil on 127.0.0.1 with chain id 8453, history pruned (no state files), HOME in a
 * temp dir removed on stop. `port` 0 picks a free port; pass a port to restart a stopped node on the same address.
 */
export async function startAnvil(o: { port?: number } = {}): Promise<Anvil> {
  const home = mkdtempSync(join(tmpdir(), 'anvil-home-'))
  const args = ['--host', '127.0.0.1', '--port', String(o.port ?? 0), '--chain-id', '8453', '--prune-history']
  const proc: ChildProcess = spawn('/bin/sh', ['-c', WATCHDOG, anvilBinary(), ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, HOME: home } })
  let stderr = ''
  proc.stderr!.on('data', (d) => { stderr = (stderr + d).slice(-2000) })
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()))
  const port = await new Promise<number>((resolve, reject) => {
    let out = ''
    const timer = setTimeout(() => reject(new Error(`anvil did not start within 10 s: ${stderr}`)), 10_000)
    const onData = (d: Buffer) => {
      out += d
      const m = out.match(/Listening on [\d.]+:(\d+)/)
      if (m) {
        clearTimeout(timer)
        proc.stdout!.off('data', onData)
        resolve(Number(m[1]))
      }
    }
    proc.stdout!.on('data', onData)
    proc.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`anvil exited (${code}) before listening: ${stderr}`))
    })
  })
  proc.stdout!.resume()
  let stopped: Promise<void> | null = null
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    pid: proc.pid!,
    stop() {
      stopped ??= (async () => {
        proc.stdin!.end()
        const killer = setTimeout(() => proc.kill('SIGKILL'), 5000)
        await exited
        clearTimeout(killer)
        rmSync(home, { recursive: true, force: true })
      })()
      return stopped
    },
  }
}
