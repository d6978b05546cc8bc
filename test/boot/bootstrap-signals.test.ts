/**
 * `npm start` stops when told (issue #33 item 7): a SIGTERM to the top process, `node scripts/bootstrap.mjs` or
 * `npm start` itself (what `kill <pid>`, systemd and process managers send), stops the server: its port is free and
 * no process it started (Bun, the embedded anvil) is left. Under `npm start` the bootstrap runs below `sh -c`,
 * which dies of npm's forwarded signal without passing it on: the bootstrap notices it lost its parent.
 */
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bootstrapInstalled } from '../support/bootstrap'
import { until } from '../support/until'

const root = join(import.meta.dir, '..', '..')
const dir = mkdtempSync(join(tmpdir(), 'bootstrap-signals-'))
const started: number[] = []
afterAll(() => {
  for (const pid of started) if (alive(pid)) process.kill(pid, 'SIGKILL')
  rmSync(dir, { recursive: true, force: true })
})

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Every live process below `top` (from /proc), with its command line. */
function descendants(top: number): Array<{ pid: number; cmd: string }> {
  const parent = new Map<number, number>()
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8')
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]))
    } catch {} // exited meanwhile
  }
  const below = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === top) return true
    return false
  }
  return [...parent.keys()].filter(below).map((pid) => {
    let cmd = ''
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ')
    } catch {}
    return { pid, cmd }
  })
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
  })

const portFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = createServer()
      .once('error', () => resolve(false))
      .listen(port, '127.0.0.1', () => s.close(() => resolve(true)))
  })

/** Starts `cmd` (the server on the embedded dev chain), waits until it listens, SIGTERMs the top process. */
async function startThenTerminate(cmd: string[]) {
  const port = await freePort()
  const p = Bun.spawn(cmd, {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_PATH: join(mkdtempSync(join(dir, 'db-')), 'api.sqlite'),
      LOG_LEVEL: 'warn',
    },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  started.push(p.pid)
  let out = ''
  const reading = (async () => {
    for await (const chunk of p.stdout) out += new TextDecoder().decode(chunk)
  })()
  const err = new Response(p.stderr).text()
  // (the first start after a change of the sources builds the server binary first: 10–30 s, more on a busy machine)
  await until(() => out.includes(`Listening on http://127.0.0.1:${port}`), 150_000, 'the server listening')
  const below = descendants(p.pid)
  started.push(...below.map((d) => d.pid))
  expect(below.some((d) => d.cmd.includes('anvil'))).toBe(true)
  // the server: the binary built from the sources (scripts/start-cache.mjs), or the sources when it did not build
  expect(
    below.some((d) => /\/\.cache\/start\/[0-9a-f]{16}\/x402-api$|bun runtime\/index\.ts$/.test(d.cmd.trim())),
  ).toBe(true)
  p.kill('SIGTERM')
  const code = await p.exited
  await until(() => below.every((d) => !alive(d.pid)), 30_000, 'every process it started gone')
  expect(await portFree(port)).toBe(true)
  await reading
  return { code, stderr: await err }
}

// Skipped when node_modules came from elsewhere (`bun install`): the bootstrap would run `npm ci` under the suite.
test.skipIf(!bootstrapInstalled())(
  'SIGTERM to `node scripts/bootstrap.mjs runtime/index.ts`: Bun and anvil stop, the port is free, exit code 0',
  async () => {
    const { code } = await startThenTerminate(['node', 'scripts/bootstrap.mjs', 'runtime/index.ts'])
    expect(code).toBe(0)
  },
  240_000,
)

test.skipIf(!bootstrapInstalled())(
  'SIGTERM to `npm start`: the bootstrap below its shell notices and stops Bun and anvil; the port is free',
  async () => {
    const { stderr } = await startThenTerminate(['npm', 'start', '--silent'])
    expect(stderr).toContain('[bootstrap] the parent process')
  },
  240_000,
)
