// A hosted RPC for the benchmarks, in its own process: the fault proxy (test/support/rpc-faults.ts) in front of
// RPC_TARGET adding RPC_LATENCY_MS each way. In the bench process it shared one event loop with the paying clients,
// whose signatures (a burst of them after each block) then delayed every forwarded call: a transaction reached the
// node late because the clients were busy, not the server. GET on CONTROL_PORT's /calls answers the calls counted per
// method since the last POST /clear.
import { startFaultProxy } from '../../test/support/rpc-faults'

const latency = Number(process.env.RPC_LATENCY_MS ?? 25)
const proxy = startFaultProxy(process.env.RPC_TARGET!)
proxy.latency = { in: latency, out: latency }
const control = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch(req) {
    if (req.method === 'POST') proxy.calls.clear()
    return Response.json(Object.fromEntries(proxy.calls))
  },
})
console.log(`CONTROL ${control.port}`)
console.log(`PORT ${new URL(proxy.url).port}`)
