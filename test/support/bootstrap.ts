import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

const root = join(import.meta.dir, '..', '..')

/**
 * Whether node_modules was installed by scripts/bootstrap.mjs from this package-lock.json. When it was not (`bun
 * install`), running the bootstrap would start `npm ci` under the test suite: tests that run it skip.
 */
export function bootstrapInstalled(): boolean {
  try {
    const hash = createHash('sha256')
      .update(readFileSync(join(root, 'package-lock.json')))
      .digest('hex')
    return readFileSync(join(root, 'node_modules', '.lock-hash'), 'utf8') === hash
  } catch {
    return false
  }
}
