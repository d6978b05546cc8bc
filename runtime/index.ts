/**
 * `bun start`: reads registry.yaml + environment, chooses the payment backend, boots and listens.
 * With no RPC_URL and no FACILITATOR_URL it runs an embedded local Base replica (anvil + real USDC bytecode).
 */
import type { Hex } from 'viem'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { categories, services, upstreams } from '../services/index.gen'
import { boot, ConfigError } from './boot'
import { loadConfig, usesDevChain } from './config'
import { settlerKeys } from './config/parse'
import { createLogger } from './log'
import { registryEntries } from './catalog/registry'
import { serveOptions } from './http/serve-options'
import { nativeRecovery } from './pay/fast-recover'
import type { createLocalFacilitator } from './pay/facilitator/local'
import type { Facilitator } from './pay/types'

const DEV_PAYER_FILE = 'data/dev-payer.json'

/** A start that cannot go on for a reason the operator fixes (busy port, missing binary): one line, no stack. */
class StartError extends Error {}
const log = createLogger()
process.on('unhandledRejection', (e) =>
  log.error('unhandled rejection (survived)', { error: String((e as Error)?.stack ?? e) }),
)

async function main() {
  const loaded = loadConfig()
  const { config } = loaded
  let facilitator: Facilitator
  let payTo: string | undefined
  let stopChain: (() => Promise<void>) | undefined
  let writeDevPayer: ((apiUrl: string) => void) | undefined
  let devPayer: { address: `0x${string}`; privateKey: Hex } | undefined
  let solanaFeePayer: import('@solana/kit').KeyPairSigner | undefined
  let devSolanaPayer: { address: string; secretBase58: string } | undefined
  let banner = ''
  const main = config.networks[0]
  const chainId = Number(main.network.split(':')[1])
  if (usesDevChain(config) && main.network !== 'eip155:8453')
    throw new ConfigError([
      `NETWORK ${main.network} needs RPC_URL (+ SETTLER_PRIVATE_KEY) or FACILITATOR_URL: the embedded dev chain is Base (eip155:8453)`,
    ])
  if (usesDevChain(config)) {
    const { startDevChain } = await import('./chain/devchain')
    const { createLocalFacilitator } = await import('./pay/facilitator/local')
    const { freshDevChainDatabase } = await import('./chain/dev-database')
    const devDatabase = freshDevChainDatabase(config)
    const chain = await startDevChain().catch((e: Error) => {
      throw new StartError(
        `The embedded dev chain did not start: ${e.message}. To use a real network instead, set RPC_URL and SETTLER_PRIVATE_KEY, or FACILITATOR_URL.`,
      )
    })
    // The embedded Solana dev chain beside it (LiteSVM, USDC at its real mint), unless SOLANA_RPC_URL names a real one.
    const solana = config.solana.rpcUrl
      ? undefined
      : await (await import('./chain/solana/start')).startSolanaDevChain().catch(async (e: Error) => {
          await chain.stop()
          throw new StartError(
            `The embedded Solana dev chain did not start: ${e.message}. To use a real Solana RPC instead, set SOLANA_RPC_URL, SOLANA_PAY_TO and SOLANA_FEE_PAYER_KEY (or SOLANA_FACILITATOR_URL).`,
          )
        })
    if (solana) {
      config.solana = { ...config.solana, rpcUrl: solana.url, payTo: solana.payee.address }
      solanaFeePayer = solana.feePayer
      devSolanaPayer = solana.payer
    }
    stopChain = async () => {
      await solana?.stop()
      await chain.stop()
    }
    payTo = chain.payee.address
    devPayer = chain.payer
    facilitator = createLocalFacilitator({
      rpcUrl: chain.rpcUrl,
      settlerKey: chain.settler.privateKey as Hex,
      chainId,
      pollingIntervalMs: 20,
      blockTimeMs: 1000,
    })
    // Printed once listening: a refused configuration or a busy port shows only its error, never a payer key.
    const later = (text: string) => (banner = text)
    later(
      [
        '',
        '!!! DEV CHAIN: payments go to an embedded local Base replica (anvil, chain id 8453). THEY ARE NOT REAL MONEY. !!!',
        `    RPC ${chain.rpcUrl}   payee ${chain.payee.address}`,
        ...(solana
          ? [
              `    SOLANA_RPC ${solana.url}   payee ${solana.payee.address} (embedded Solana replica, LiteSVM: NOT REAL MONEY)`,
            ]
          : []),
        `    demo payer (funded with test USDC): address ${chain.payer.address}`,
        `    database ${devDatabase ?? 'DATABASE_URL (Postgres, kept)'}${devDatabase ? ' (new for every dev-chain run: the chain is new too)' : ''}`,
        `    DEMO_PAYER_KEY=${chain.payer.privateKey}`,
        ...(solana
          ? [
              `    demo Solana payer (funded with test USDC on the Solana replica): address ${solana.payer.address}`,
              `    DEMO_SOLANA_PAYER_KEY=${solana.payer.secretBase58}`,
            ]
          : []),
        `    Run \`npm run demo\` in another terminal to pay a few services with @x402/fetch${solana ? ' (on Base and on Solana)' : ''},`,
        '    or pay from the try-it panel on the home page, on Base or Solana (the demo payers sign; dev chains only).',
        '',
      ].join('\n'),
    )
    writeDevPayer = (apiUrl) => {
      mkdirSync('data', { recursive: true })
      writeFileSync(
        DEV_PAYER_FILE,
        JSON.stringify({
          privateKey: chain.payer.privateKey,
          address: chain.payer.address,
          apiUrl,
          rpcUrl: chain.rpcUrl,
          ...(solana
            ? { solana: { secretKey: solana.payer.secretBase58, address: solana.payer.address, rpcUrl: solana.url } }
            : {}),
        }),
      )
    }
  } else if (config.networks.length > 1) {
    // NETWORKS: one backend per network behind a router (settler boot reads done inside).
    const { networkFacilitators } = await import('./pay/facilitator/per-network/backends')
    facilitator = await networkFacilitators(config, log)
  } else if (config.facilitatorUrl) {
    // Each payment backend's modules load only when it is the one configured (literal specifiers: bundled).
    const { remoteFacilitators } = await import('./pay/facilitator/remote-setup')
    facilitator = remoteFacilitators(config, log)
  } else {
    // SETTLER_PRIVATE_KEYS (comma-separated) or SETTLER_PRIVATE_KEY: each key is its own nonce lane.
    const { createLocalFacilitator } = await import('./pay/facilitator/local')
    facilitator = createLocalFacilitator({
      rpcUrl: main.rpcUrl,
      settlerKeys: settlerKeys(main.settlerPrivateKey),
      chainId,
    })
  }
  // Settler boot reads (nonces, balances, fees, EIP-7966 support) before listening, so /health is true at once;
  // if the chain is down they are retried by the first paid call. They wait on the chain while boot works beside them.
  const settlerReads =
    'settler' in facilitator
      ? (facilitator as ReturnType<typeof createLocalFacilitator>).settler
          .init()
          .catch((e) =>
            log.warn('settler boot reads failed; retried on the first paid call', { error: (e as Error).message }),
          )
      : undefined
  const booted = await boot({
    entries: registryEntries(services),
    upstreams,
    categories,
    facilitator,
    payTo,
    log,
    devPayer,
    devSolanaPayer,
    loaded,
    solanaFeePayer,
  }).catch(async (e) => {
    await stopChain?.()
    throw e
  })
  await settlerReads
  let server: ReturnType<typeof booted.app.listen>
  try {
    server = booted.app.listen(serveOptions(booted.config.port, booted.config.host, booted.log))
  } catch (e) {
    await booted.close()
    if (booted.storage.kind === 'sqlite') booted.storage.db.close()
    await stopChain?.()
    if ((e as { code?: string }).code !== 'EADDRINUSE') throw e
    const { port, host } = booted.config
    throw new StartError(
      `Port ${port} on ${host} is already in use: set PORT to a free port (e.g. PORT=${port + 1}) or stop the process that holds it.`,
    )
  }
  if (banner) console.log(banner)
  const url = `http://${booted.config.host === '0.0.0.0' ? 'localhost' : booted.config.host}:${server.server!.port}`
  writeDevPayer?.(url)
  console.log(
    `Listening on ${url} with ${booted.services.length} services (${booted.services.filter((s) => s.available).length} available); booted in ${Math.round(performance.now())} ms from process start`,
  )
  // Left out of boot, needed by every payment: libsecp256k1's context, built now that the server listens (issue #38).
  setTimeout(nativeRecovery, 0)
  let stopping = false
  const stop = async () => {
    if (stopping) return
    stopping = true
    await server.stop()
    await booted.close()
    if (booted.storage.kind === 'sqlite') booted.storage.db.close()
    await stopChain?.()
    if (writeDevPayer) rmSync(DEV_PAYER_FILE, { force: true })
    process.exit(0)
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

main().catch((e) => {
  if (e instanceof ConfigError || e instanceof StartError) console.error(e.message)
  else console.error(e)
  process.exit(1)
})
