/**
 * Compiles contracts/src/*.sol with solc (npm `solc`, the version pinned in package.json) and OpenZeppelin from
 * node_modules, and writes contracts/artifacts.json: per contract its ABI and runtime bytecode. The runtime reads
 * only that file (no compiler at boot); `--check` fails when the file is not what the sources compile to.
 * Usage: npm run contracts:build [-- --check]
 */
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import solc from 'solc'

const root = join(import.meta.dir, '..')
const srcDir = join(root, 'contracts', 'src')
const outFile = join(root, 'contracts', 'artifacts.json')

const sources: Record<string, { content: string }> = {}
for (const f of readdirSync(srcDir)
  .filter((f) => f.endsWith('.sol'))
  .sort()) {
  sources[`contracts/src/${f}`] = { content: readFileSync(join(srcDir, f), 'utf8') }
}
const input = {
  language: 'Solidity',
  sources,
  settings: {
    evmVersion: 'cancun', // transient storage (EIP-1153) for the reentrancy guard
    optimizer: { enabled: true, runs: 10_000 },
    viaIR: true,
    outputSelection: { '*': { '*': ['abi', 'evm.deployedBytecode.object'] } },
  },
}
const findImports = (path: string) => {
  const file = join(root, 'node_modules', path)
  return existsSync(file) ? { contents: readFileSync(file, 'utf8') } : { error: `not found: ${path}` }
}
const out = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }))
const errors = (out.errors ?? []).filter((e: { severity: string }) => e.severity === 'error')
if (errors.length) {
  for (const e of errors) console.error(e.formattedMessage)
  process.exit(1)
}
const artifacts: Record<string, { abi: unknown[]; runtime: string }> = {}
for (const [file, contracts] of Object.entries(out.contracts as Record<string, Record<string, any>>)) {
  if (!file.startsWith('contracts/src/')) continue
  for (const [name, c] of Object.entries(contracts)) {
    if (!c.evm.deployedBytecode.object) continue // interfaces
    artifacts[name] = { abi: c.abi, runtime: `0x${c.evm.deployedBytecode.object}` }
  }
}
const text = `${JSON.stringify({ compiler: solc.version(), evmVersion: 'cancun', contracts: artifacts }, null, 1)}\n`
if (process.argv.includes('--check')) {
  const current = existsSync(outFile) ? readFileSync(outFile, 'utf8') : ''
  if (current !== text) {
    console.error('contracts/artifacts.json is stale: run `npm run contracts:build`')
    process.exit(1)
  }
  console.log('contracts/artifacts.json is up to date')
} else {
  writeFileSync(outFile, text)
  console.log(`wrote ${outFile}: ${Object.keys(artifacts).join(', ')}`)
}
