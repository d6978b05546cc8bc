/**
 * `npm start` (scripts/bootstrap.mjs with `runtime/index.ts`) runs the server binary built from the sources and cached
 * in .cache/start/ (scripts/start-cache.mjs, issue #38): built on the first start, reused while the sources are
 * unchanged, rebuilt when a service file changes or a new service folder is added (with `npm run gen`), and the start
 * falls back to the sources, saying so, when the build fails. In a temporary copy of the repository (its own cache),
 * sharing this node_modules.
 */
import { afterAll, expect, test } from 'bun:test'
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { covers } from '../../scripts/start-cache.mjs'
import { bootstrapInstalled } from '../support/bootstrap'
import { until } from '../support/until'

const root = join(import.meta.dir, '..', '..')
const copy = mkdtempSync(join(tmpdir(), 'start-cache-'))
const started: number[] = []
afterAll(() => {
  for (const pid of started)
    try {
      process.kill(pid, 'SIGKILL')
    } catch {} // already gone
  rmSync(copy, { recursive: true, force: true })
})

// What a clone holds that the build and the bootstrap read; node_modules shared.
for (const f of ['runtime', 'services', 'contracts', 'scripts', 'docs', 'registry.yaml', 'server.json'])
  cpSync(join(root, f), join(copy, f), { recursive: true })
for (const f of ['package.json', 'package-lock.json', 'tsconfig.json', 'bunfig.toml'])
  cpSync(join(root, f), join(copy, f))
symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'))

/** The command line of the server process the bootstrap started (its child). */
function serverCommand(bootstrap: number): string {
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8')
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === bootstrap)
        return readFileSync(`/proc/${d}/cmdline`, 'utf8').replace(/\0/g, ' ').trim()
    } catch {} // exited meanwhile
  }
  return ''
}

/** `node scripts/bootstrap.mjs runtime/index.ts` in the copy: its bootstrap lines, the server's command and /services. */
async function npmStart() {
  const p = Bun.spawn(['node', 'scripts/bootstrap.mjs', 'runtime/index.ts'], {
    cwd: copy,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      PAY_TO: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
      FACILITATOR_URL: 'http://127.0.0.1:9',
      DATABASE_PATH: ':memory:',
      LOG_LEVEL: 'warn',
    },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  started.push(p.pid)
  let out = ''
  let err = ''
  const reading = Promise.all([
    (async () => {
      for await (const chunk of p.stdout) out += new TextDecoder().decode(chunk)
    })(),
    (async () => {
      for await (const chunk of p.stderr) err += new TextDecoder().decode(chunk)
    })(),
  ])
  await until(() => /Listening on http:\/\/127\.0\.0\.1:\d+/.test(out), 240_000, `the server listening (${err})`)
  const port = Number(out.match(/Listening on http:\/\/127\.0\.0\.1:(\d+)/)![1])
  const command = serverCommand(p.pid)
  const services = ((await (await fetch(`http://127.0.0.1:${port}/services`)).json()) as any).services as Array<{
    slug: string
    description: string
  }>
  p.kill('SIGTERM')
  const code = await p.exited
  await reading
  expect(code).toBe(0)
  return { bootstrap: err, command, services, booted: out.match(/booted in \d+ ms/)?.[0] }
}

const cached = () => readdirSync(join(copy, '.cache', 'start'))

test.skipIf(!bootstrapInstalled())(
  'npm start builds the binary once, boots from it while the sources are unchanged, rebuilds when they change, and falls back to the sources when it cannot build',
  async () => {
    // The first start builds; a second one started beside it waits for that build instead of building too.
    const [first, beside] = await Promise.all([npmStart(), npmStart()])
    const [builder, waiter] = first.bootstrap.includes('building the server binary for')
      ? [first, beside]
      : [beside, first]
    expect(builder.bootstrap).toContain('[bootstrap] building the server binary')
    expect(builder.bootstrap).toMatch(/\[bootstrap\] built in [\d.]+ s/)
    expect(waiter.bootstrap).toMatch(/\[bootstrap\] another start \(pid \d+\) is building the server binary: waiting/)
    expect(waiter.bootstrap).not.toContain('building the server binary for')
    expect(waiter.command).toBe(first.command)
    const [key] = cached()
    expect(key).toMatch(/^[0-9a-f]{16}$/)
    expect(first.command).toBe(join(copy, '.cache', 'start', key, 'x402-api'))
    expect(first.booted).toBeDefined()
    expect(first.services.some((s) => s.slug === 'slugify')).toBe(true)

    // Unchanged sources: the same binary, no build.
    const again = await npmStart()
    expect(again.bootstrap).not.toContain('building')
    expect(again.command).toBe(first.command)

    // A service file edited: rebuilt, the edit served, the old build gone.
    const manifest = join(copy, 'services', 'slugify', 'manifest.ts')
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('Turns text into a URL slug', 'Makes a URL slug'))
    const edited = await npmStart()
    expect(edited.bootstrap).toContain('[bootstrap] building the server binary')
    expect(edited.command).not.toBe(first.command)
    expect(cached()).toEqual([edited.command.split('/').at(-2)!])
    expect(edited.services.find((s) => s.slug === 'slugify')!.description).toStartWith('Makes a URL slug')

    // A contributor's new service folder, registered by `npm run gen`: rebuilt and served.
    cpSync(join(copy, 'services', 'slugify'), join(copy, 'services', 'slugify-again'), { recursive: true })
    const added = join(copy, 'services', 'slugify-again', 'manifest.ts')
    writeFileSync(
      added,
      readFileSync(added, 'utf8')
        .replace("slug: 'slugify'", "slug: 'slugify-again'")
        .replace("'Slugify'", "'Slugify again'"),
    )
    const gen = Bun.spawnSync([process.execPath, 'scripts/gen-registry.ts'], { cwd: copy, stderr: 'pipe' })
    expect([gen.exitCode, gen.stderr.toString()]).toEqual([0, ''])
    const grown = await npmStart()
    expect(grown.bootstrap).toContain('[bootstrap] building the server binary')
    expect(grown.services.some((s) => s.slug === 'slugify-again')).toBe(true)

    // A build that fails (a module the bundler cannot resolve, never loaded at run time): the sources, said in one line.
    const index = join(copy, 'runtime', 'index.ts')
    writeFileSync(
      index,
      `${readFileSync(index, 'utf8')}\nexport const neverLoaded = () => import('./no-such-module-for-this-test')\n`,
    )
    const fallback = await npmStart()
    expect(fallback.bootstrap).toMatch(
      /\[bootstrap\] the server binary did not build \(exit \d+: .*no-such-module-for-this-test.*\); starting from the sources/,
    )
    expect(fallback.command).toEndWith('bun runtime/index.ts')
    expect(fallback.services.some((s) => s.slug === 'slugify-again')).toBe(true)
    // Not tried again for the same sources: the next start goes to the sources at once, saying so.
    const again2 = await npmStart()
    expect(again2.bootstrap).toContain('[bootstrap] the server binary did not build from these sources before (exit')
    expect(again2.bootstrap).not.toContain('building the server binary for')
    expect(again2.command).toEndWith('bun runtime/index.ts')
    // The failed build left nothing behind but the last good build and its note.
    const left = cached()
    expect(left).toHaveLength(2)
    expect(left).toContain(grown.command.split('/').at(-2)!)
    expect(left.some((f) => /^failed-[0-9a-f]{16}\.txt$/.test(f))).toBe(true)
    expect(existsSync(join(copy, 'dist'))).toBe(false)
  },
  600_000,
)

test("the cache's fingerprint covers every file of the build's graph outside node_modules", async () => {
  // package.json's build graph (the same entry points), bundled without compiling, for its list of inputs
  const out = join(copy, 'graph')
  const b = Bun.spawnSync(
    [
      process.execPath,
      'build',
      'runtime/index.ts',
      'runtime/isolate/worker.ts',
      '--target=bun',
      '--splitting',
      '--format=esm',
      `--outdir=${out}`,
      `--metafile=${join(copy, 'graph.json')}`,
    ],
    { cwd: root, stdout: 'pipe', stderr: 'pipe' },
  )
  expect([b.exitCode, b.stderr.toString()]).toEqual([0, ''])
  const build = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.build as string)
    .split('&&')
    .pop()!
  expect(build).toContain(' runtime/index.ts runtime/isolate/worker.ts ')
  const inputs = Object.keys(JSON.parse(readFileSync(join(copy, 'graph.json'), 'utf8')).inputs as object)
  const ours = inputs.filter((f) => !f.includes('node_modules/'))
  expect(ours.length).toBeGreaterThan(500) // the list is real
  expect(ours.filter((f) => !covers(f))).toEqual([])
}, 120_000)
