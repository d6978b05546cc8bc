/**
 * A fresh clone stays clean and needs only Node and npm (issue #27 item 5):
 * - package-lock.json is what `npm install` writes: every optional dependency of every locked package (the other
 *   platforms' binaries of bun, anvil, biome, ...) has its entry, so npm has nothing to add (it used to add 458 lines
 *   on the first `npm start`); scripts/bootstrap.mjs installs with `npm ci`, which never writes it;
 * - every npm script that runs Bun goes through scripts/bootstrap.mjs (Bun from node_modules, installed on first use);
 * - the bootstrap passes Bun's stdout, stdin and exit code through untouched (the stdio MCP bridge speaks JSON-RPC on
 *   stdout) and changes no tracked file.
 */
import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { bootstrapInstalled } from '../support/bootstrap'

const root = join(import.meta.dir, '..', '..')
const json = (f: string) => JSON.parse(readFileSync(join(root, f), 'utf8'))

/** Where Node would find `dep` required from the package at `key` ("node_modules/a/node_modules/b"). */
function resolvable(packages: Record<string, unknown>, key: string, dep: string): boolean {
  const parts = key.split('/node_modules/')
  for (let i = parts.length; i >= 0; i--) {
    const at = parts.slice(0, i).join('/node_modules/')
    const where = at ? `${at}/node_modules/${dep}` : `node_modules/${dep}`
    if (where in packages) return true
  }
  return false
}

test('package-lock.json lists every optional dependency npm would add (no platform left out)', () => {
  const lock = json('package-lock.json')
  expect(lock.lockfileVersion).toBe(3)
  const packages = lock.packages as Record<string, { optionalDependencies?: Record<string, string> }>
  const missing: string[] = []
  for (const [key, p] of Object.entries(packages))
    for (const dep of Object.keys(p.optionalDependencies ?? {}))
      if (!resolvable(packages, key, dep)) missing.push(`${key || '(root)'} -> ${dep}`)
  expect(missing).toEqual([])
  // The locked root is package.json's dependencies, exactly.
  const pkg = json('package.json')
  expect(packages[''] as object).toMatchObject({ dependencies: pkg.dependencies, devDependencies: pkg.devDependencies })
})

test('every npm script that runs Bun or a tool from node_modules goes through scripts/bootstrap.mjs', () => {
  const scripts = json('package.json').scripts as Record<string, string>
  const bare: string[] = []
  for (const [name, cmd] of Object.entries(scripts)) {
    if (name === 'format') continue // an editor's helper, run after an install
    // The first command of a script must be the bootstrap (later ones run after it installed node_modules/.bin).
    const first = cmd.replace(/^([A-Z_]+=\S+\s+)+/, '')
    if (!first.startsWith('node scripts/bootstrap.mjs ')) bare.push(`${name}: ${cmd}`)
  }
  expect(bare).toEqual([])
  const bootstrap = readFileSync(join(root, 'scripts', 'bootstrap.mjs'), 'utf8')
  expect(bootstrap).toContain("'ci'")
  expect(bootstrap).not.toMatch(/'install'/)
})

// Skipped when node_modules came from elsewhere (`bun install`): the bootstrap would run `npm ci` under the suite.
test.skipIf(!bootstrapInstalled())(
  'the bootstrap passes stdin, stdout and the exit code through, and changes no tracked file',
  async () => {
    const status = () => Bun.spawnSync(['git', 'status', '--porcelain'], { cwd: root }).stdout.toString()
    const before = status()
    const run = Bun.spawn(
      [
        'node',
        join(root, 'scripts', 'bootstrap.mjs'),
        '-e',
        'process.stdout.write((await Bun.stdin.text()).toUpperCase()); process.exit(3)',
      ],
      { cwd: '/', stdin: new Blob(['{"jsonrpc":"2.0"}']), stdout: 'pipe', stderr: 'pipe' },
    )
    const [out, err, code] = await Promise.all([
      new Response(run.stdout).text(),
      new Response(run.stderr).text(),
      run.exited,
    ])
    expect({ out, err, code }).toEqual({ out: '{"JSONRPC":"2.0"}', err: '', code: 3 })
    expect(status()).toBe(before)
  },
)
