// The real app for the benchmark: booted like `start`, on a temp database. With RPC_URL + SETTLER_PRIVATE_KEY(S) it
// settles on that chain; otherwise payments are refused (fine for /health and the 402 challenge).
import type { Hex } from 'viem'
import { boot } from '../../runtime/boot'
import { createLocalFacilitator } from '../../runtime/pay/facilitator/local'
import { createLogger } from '../../runtime/log'
import { serveOptions } from '../../runtime/http/serve-options'
import { registryEntries } from '../../runtime/catalog/registry'
import { categories, services, upstreams } from '../../services/index.gen'

const facilitator = process.env.RPC_URL
  ? createLocalFacilitator({
      rpcUrl: process.env.RPC_URL,
      settlerKeys: (process.env.SETTLER_PRIVATE_KEYS || process.env.SETTLER_PRIVATE_KEY!).split(',') as Hex[],
      chainId: 8453,
      batch: process.env.BENCH_BATCH_MS ? { windowMs: Number(process.env.BENCH_BATCH_MS) } : undefined,
    })
  : {
      kind: 'remote' as const,
      verify: async () => ({ isValid: false, invalidReason: 'bench' }),
      settle: async () => {
        throw new Error('bench')
      },
      status: async () => ({ state: 'unknown' as const }),
    }
const t0 = performance.now()
const log = createLogger(process.env.BENCH_LOG_LEVEL ?? 'silent') // bench/channels.ts --log warn
const b = await boot({
  entries: registryEntries(services),
  upstreams,
  categories,
  facilitator,
  log,
  env: { ...process.env, INVALID_PAYMENT_LIMIT: '0' },
})
// Served as `start` serves it (runtime/index.ts): Bun's production mode, the body cap, the error hook.
const server = b.app.listen(serveOptions(0, '127.0.0.1', log))
console.log(`BOOT_MS ${(performance.now() - t0).toFixed(1)}`)
console.log(`PORT ${server.server!.port}`)
// bench/channels.ts: SIGTERM closes like `start` does (the channel claims and the sweep run at shutdown).
if (process.env.BENCH_CLOSE_ON_TERM)
  process.on('SIGTERM', async () => {
    server.stop()
    await b.close()
    process.exit(0)
  })
