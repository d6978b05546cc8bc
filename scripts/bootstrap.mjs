#!/usr/bin/env node
// Makes `npm start` / `npm test` work on a fresh machine with only Node.js >= 20 and npm:
// installs the locked dependencies (Bun itself comes from npm) when they are missing or stale, then runs Bun.
// Usage: node scripts/bootstrap.mjs <bun arguments...>
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const bun = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'bun.exe' : 'bun')
const stamp = join(root, 'node_modules', '.lock-hash')
const lockHash = createHash('sha256')
  .update(readFileSync(join(root, 'package-lock.json')))
  .digest('hex')

if (!existsSync(bun) || !existsSync(stamp) || readFileSync(stamp, 'utf8') !== lockHash) {
  // `npm install` (not `npm ci`): the lockfile cannot list anvil's other-platform binaries (the registry here does
  // not serve them), which `npm ci` treats as out of sync. Versions still come from package-lock.json.
  console.error('[bootstrap] installing dependencies (first run or package-lock.json changed)...')
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: root,
    stdio: 'inherit',
  })
  if (r.status !== 0) process.exit(r.status ?? 1)
  writeFileSync(stamp, lockHash)
}
const r = spawnSync(bun, process.argv.slice(2), { cwd: root, stdio: 'inherit' })
process.exit(r.status ?? (r.signal ? 1 : 0))
