/**
 * Debian's nginx, Caddy and HAProxy run in front of a test server with the configs of docs/deploy.md
 * (docs/proxies/*): each proxy a foreground child process on a free loopback port, its config written to a temp dir
 * (never the work tree). The doc's file is used as it is but for the substitutions in `SUBSTITUTIONS` (plain HTTP on
 * the loopback port instead of 443 with TLS) and the upstream addresses, each of which must match, so doc and test
 * cannot drift (docs/deploy.md lists them). scripts/ensure-proxies.sh installs the packages; a proxy that is not installed is `undefined` from
 * `proxyBinary` and its tests skip.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { until } from './until'

export type ProxyKind = 'nginx' | 'caddy' | 'haproxy'

const root = join(import.meta.dir, '..', '..')

/** Each proxy's config as docs/deploy.md shows it (the doc is checked to contain the file verbatim). */
export const PROXY_CONFIG: Record<ProxyKind, string> = {
  nginx: 'docs/proxies/nginx.conf',
  caddy: 'docs/proxies/Caddyfile',
  haproxy: 'docs/proxies/haproxy.cfg',
}

/** The doc's upstream addresses: three instances, each replaced by the test's upstream. */
const UPSTREAMS = /127\.0\.0\.1:340[123]/g

/** What the tests change in each doc config: [what, pattern, replacement for `port`]; every pattern must match. */
const SUBSTITUTIONS: Record<ProxyKind, Array<[string, RegExp, (port: number) => string]>> = {
  nginx: [
    ['plain HTTP on the loopback port', /^ {2}listen 443 ssl;$/m, (port) => `  listen 127.0.0.1:${port};`],
    ['no certificate', /^ {2}ssl_certificate(_key)? .*\n/gm, () => ''],
  ],
  caddy: [
    // `bind`: a site address names the host to match, Caddy would listen on every interface
    [
      'plain HTTP on the loopback port',
      /^api\.example\.com \{$/m,
      (port) => `http://127.0.0.1:${port} {\n\tbind 127.0.0.1`,
    ],
  ],
  haproxy: [['plain HTTP on the loopback port', /^\tbind :443 ssl crt .*$/m, (port) => `\tbind 127.0.0.1:${port}`]],
}

/** The installed binary of `kind` (PATH, then Debian's place), or undefined when it is not installed. */
export function proxyBinary(kind: ProxyKind): string | undefined {
  const found = Bun.which(kind)
  if (found) return found
  const debian = kind === 'caddy' ? '/usr/bin/caddy' : `/usr/sbin/${kind}`
  return existsSync(debian) ? debian : undefined
}

/** A TCP port free on 127.0.0.1 right now (the OS picks it). */
async function freePort(): Promise<number> {
  const srv = createServer()
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve))
  const { port } = srv.address() as { port: number }
  await new Promise((resolve) => srv.close(resolve))
  return port
}

/** The doc's config of `kind` as the test runs it: listening on 127.0.0.1:`port`, every upstream at `upstream`. */
function testConfig(kind: ProxyKind, port: number, upstream: string): string {
  let text = readFileSync(join(root, PROXY_CONFIG[kind]), 'utf8')
  if ((text.match(UPSTREAMS) ?? []).length !== 3) throw new Error(`${PROXY_CONFIG[kind]}: not three upstreams`)
  text = text.replace(UPSTREAMS, upstream)
  for (const [what, pattern, to] of SUBSTITUTIONS[kind]) {
    if (!pattern.test(text)) throw new Error(`${PROXY_CONFIG[kind]}: nothing to change for "${what}"`)
    pattern.lastIndex = 0
    text = text.replace(pattern, to(port))
  }
  return text
}

/** The files and command line that run `kind` in the foreground with `config`, everything in `dir`. */
function launch(
  kind: ProxyKind,
  bin: string,
  dir: string,
  config: string,
  check = false,
): { cmd: string[]; env?: Record<string, string> } {
  if (kind === 'nginx') {
    // the doc's file is a conf.d include; the main context around it only moves pid, logs and temp files to `dir`
    writeFileSync(join(dir, 'agent-api.conf'), config)
    const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
      .map((t) => `  ${t}_temp_path ${join(dir, t)};`)
      .join('\n')
    writeFileSync(
      join(dir, 'nginx.conf'),
      `daemon off;\npid ${join(dir, 'nginx.pid')};\nerror_log stderr warn;\nevents {}\nhttp {\n  access_log off;\n${temp}\n  include ${join(dir, 'agent-api.conf')};\n}\n`,
    )
    return { cmd: [bin, ...(check ? ['-t'] : []), '-p', dir, '-e', 'stderr', '-c', join(dir, 'nginx.conf')] }
  }
  if (kind === 'caddy') {
    // no admin endpoint (it would take port 2019); Caddy's data and config dirs in `dir`
    writeFileSync(join(dir, 'Caddyfile'), `{\n\tadmin off\n}\n\n${config}`)
    return {
      cmd: [bin, check ? 'validate' : 'run', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'],
      env: { HOME: dir, XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config') },
    }
  }
  writeFileSync(join(dir, 'haproxy.cfg'), config)
  return { cmd: [bin, check ? '-c' : '-db', '-f', join(dir, 'haproxy.cfg')] }
}

/** Where the doc's configs read their certificate files: moved to a throw-away certificate by `checkAsWritten`. */
const CERTIFICATES: Record<ProxyKind, Array<[string, 'cert' | 'key' | 'both']>> = {
  nginx: [
    ['/etc/letsencrypt/live/api.example.com/fullchain.pem', 'cert'],
    ['/etc/letsencrypt/live/api.example.com/privkey.pem', 'key'],
  ],
  // Caddy obtains its certificate itself
  caddy: [],
  haproxy: [['/etc/haproxy/certs/api.example.com.pem', 'both']],
}

/**
 * The proxy's own check (`nginx -t`, `caddy validate`, `haproxy -c`) of the doc's config as written, TLS lines and
 * port 443 included, its certificate paths only moved to a self-signed certificate for api.example.com made with
 * openssl in a temp dir. Undefined when openssl is not installed.
 */
export async function checkAsWritten(kind: ProxyKind): Promise<{ code: number; output: string } | undefined> {
  const bin = proxyBinary(kind)
  const openssl = Bun.which('openssl')
  if (!bin) throw new Error(`${kind} is not installed (scripts/ensure-proxies.sh installs it)`)
  if (!openssl) return undefined
  const dir = mkdtempSync(join(tmpdir(), `edge-${kind}-check-`))
  try {
    const files = { cert: join(dir, 'cert.pem'), key: join(dir, 'key.pem'), both: join(dir, 'both.pem') }
    const cert = Bun.spawnSync(
      [
        openssl,
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-subj',
        '/CN=api.example.com',
        '-days',
        '1',
        '-keyout',
        files.key,
        '-out',
        files.cert,
      ],
      { stdout: 'pipe', stderr: 'pipe' },
    )
    if (cert.exitCode !== 0) throw new Error(`openssl: ${cert.stderr.toString()}`)
    writeFileSync(files.both, readFileSync(files.cert, 'utf8') + readFileSync(files.key, 'utf8'))
    let config = readFileSync(join(root, PROXY_CONFIG[kind]), 'utf8')
    for (const [path, file] of CERTIFICATES[kind]) {
      if (!config.includes(path)) throw new Error(`${PROXY_CONFIG[kind]}: no ${path}`)
      config = config.replaceAll(path, files[file])
    }
    const { cmd, env } = launch(kind, bin, dir, config, true)
    const run = Bun.spawnSync(cmd, { cwd: dir, stdout: 'pipe', stderr: 'pipe', env: { ...process.env, ...env } })
    return { code: run.exitCode ?? -1, output: run.stdout.toString() + run.stderr.toString() }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export interface RunningProxy {
  kind: ProxyKind
  /** http://127.0.0.1:port */
  url: string
  port: number
  /** The config file text it runs. */
  config: string
  /** The last 20,000 characters the proxy wrote (stdout and stderr). */
  output(): string
  stop(): Promise<void>
}

/**
 * Runs `kind` in front of `upstream` (host:port) with the doc's config, in the foreground, until stop(). Ready once
 * it answers on its port. A port taken between its pick and the proxy's bind is picked again (three tries).
 */
export async function startProxy(kind: ProxyKind, upstream: string): Promise<RunningProxy> {
  const bin = proxyBinary(kind)
  if (!bin) throw new Error(`${kind} is not installed (scripts/ensure-proxies.sh installs it)`)
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(kind, bin, upstream)
    } catch (e) {
      if (attempt >= 3 || !/in use|cannot bind/i.test(String(e))) throw e
    }
  }
}

async function startOnce(kind: ProxyKind, bin: string, upstream: string): Promise<RunningProxy> {
  const dir = mkdtempSync(join(tmpdir(), `edge-${kind}-`))
  // nginx's workers run as nobody: they must reach the temp paths
  chmodSync(dir, 0o755)
  mkdirSync(join(dir, 'data'))
  const port = await freePort()
  const config = testConfig(kind, port, upstream)
  const { cmd, env } = launch(kind, bin, dir, config)
  const proc = Bun.spawn(cmd, { cwd: dir, stdout: 'pipe', stderr: 'pipe', env: { ...process.env, ...env } })
  let out = ''
  const drain = async (s: ReadableStream<Uint8Array>) => {
    const dec = new TextDecoder()
    for await (const chunk of s) out = (out + dec.decode(chunk)).slice(-20_000)
  }
  void drain(proc.stdout)
  void drain(proc.stderr)
  const stop = async () => {
    proc.kill('SIGTERM')
    await proc.exited
    rmSync(dir, { recursive: true, force: true })
  }
  const url = `http://127.0.0.1:${port}`
  try {
    await until(
      async () => {
        if (proc.exitCode !== null) throw new Error(`${kind} exited (${proc.exitCode}): ${out}`)
        return fetch(`${url}/health`).then(
          () => true,
          () => false,
        )
      },
      30_000,
      `${kind} answering on ${url}`,
    )
  } catch (e) {
    await stop()
    throw e
  }
  return { kind, url, port, config, output: () => out, stop }
}
