// The operator console. Plain JS (an ES module); every number comes from /admin/api/* (session cookie, same
// origin). The DOM, table and chart helpers are the site's (/ui.js), as are the base styles (/site.css).
import { $, bars as chart, el, table } from '/ui.js'

const usd = (n) => '$' + (Math.abs(n) < 0.01 && n !== 0 ? n.toFixed(6).replace(/0+$/, '') : n.toFixed(2))
const eth = (wei) => Number(BigInt(wei || '0')) / 1e18
const short = (h) => (h && h.length > 14 ? `${h.slice(0, 8)}…${h.slice(-6)}` : h || '')
const when = (iso) => (iso ? iso.replace('T', ' ').slice(0, 19) : '')
const ETH_KEY = 'admin.ethUsd'
let last = null
let lastChannels = null

async function api(path, init) {
  const res = await fetch(path, { credentials: 'same-origin', ...init })
  if (res.status === 401) {
    location.href = '/admin'
    throw new Error('signed out')
  }
  const body = await res.json().catch(() => ({}))
  if (!res.ok) throw new Error(body.error ? `${body.error.code}: ${body.error.message}` : `HTTP ${res.status}`)
  return body
}

const txCell = (p) =>
  p.tx_hash
    ? p.explorer_url
      ? el(
          'a',
          { href: p.explorer_url, target: '_blank', rel: 'noopener noreferrer', class: 'mono tx', title: p.tx_hash },
          short(p.tx_hash),
        )
      : el('span', { class: 'mono tx', title: `${p.tx_hash} (local dev chain: no explorer)` }, short(p.tx_hash))
    : '—'
const gasCell = (p) =>
  p.gas_used
    ? `${Number(p.gas_used).toLocaleString()} gas${p.gas_cost_wei ? ` · ${eth(p.gas_cost_wei).toFixed(8)} ETH` : ''}`
    : '—'
const PAYMENT_COLS = [
  {
    label: 'id',
    get: (p) =>
      el(
        'button',
        {
          type: 'button',
          class: 'link',
          'data-payment': p.id,
          'aria-label': `Show the history of payment ${p.id}`,
          onclick: () => showPayment(p.id),
        },
        p.id,
      ),
    num: true,
  },
  { label: 'state', get: (p) => el('span', { class: `state ${p.state}` }, p.state) },
  { label: 'service', get: (p) => p.slug },
  { label: 'tier', get: (p) => p.tier },
  { label: 'amount', get: (p) => usd(p.amount_usd), num: true },
  { label: 'payer', get: (p) => el('span', { class: 'mono', title: p.payer }, short(p.payer)) },
  { label: 'tx', get: txCell },
  { label: 'gas', get: gasCell },
  { label: 'created (UTC)', get: (p) => when(p.created_at) },
  { label: 'settled (UTC)', get: (p) => when(p.settled_at) },
  { label: 'reason', get: (p) => p.reason || '', cls: 'reason' },
]

// ---- charts (inline SVG, /ui.js) -----------------------------------------
const bars = (target, rows, series) => chart(target, rows, series, { width: 640, height: 220, pad: 30, format: usd })

/** The measured gas price of the settlements shown (gwei per gas unit), or null without gas figures. */
function gweiPerGas(services) {
  let used = 0,
    wei = 0
  for (const s of services)
    if (s.avg_gas_used !== null && s.gas_wei) {
      used += s.avg_gas_used * s.settled
      wei += Number(s.gas_wei)
    }
  return used ? wei / used / 1e9 : null
}

function renderMoney(o) {
  const ethUsd = Number($('#eth-usd').value) || 0
  // Each network is its own figure (a testnet's USDC is not revenue): the charts and table show the main one.
  // Channel charges (batch-settlement) count beside the exact settlements, on the main network.
  const ch = o.channel_money
  const chBySlug = new Map((ch?.services ?? []).map((s) => [s.slug, s]))
  const chByDay = new Map((ch?.days ?? []).map((d) => [d.day, d]))
  $('#money-networks').textContent = o.money.networks
    .map(
      (n, i) =>
        `${n.network}${i === 0 ? ' (shown below)' : ''}: ${usd(n.revenue_usd)} in ${n.settled} settled${i === 0 && ch ? ` (exact) + ${usd(ch.revenue_usd)} in ${ch.paid_calls} channel charges = ${usd(n.revenue_usd + ch.revenue_usd)}` : ''}`,
    )
    .join(' · ')
  // Revenue per protocol on the main network: x402 (exact + channels) and MPP (docs/payments.md).
  const pm = o.protocol_money
  if (pm)
    $('#money-networks').textContent +=
      ` · by protocol: x402 ${usd(pm.x402.revenue_usd)} in ${pm.x402.paid_calls} paid calls, MPP ${usd(pm.mpp.revenue_usd)} in ${pm.mpp.paid_calls}`
  // On the dev chain gas costs the dev chain's fee (anvil's), not Base's, and revenue is test USDC: say so, or every
  // service looks like it sells at a loss.
  const gwei = o.dev_chain ? gweiPerGas(o.money.services) : null
  $('#money-dev-note').hidden = !o.dev_chain
  $('#money-dev-note').textContent = o.dev_chain
    ? `Embedded dev chain: gas here is priced at the dev chain's fee${gwei === null ? '' : ` (${gwei.toPrecision(3)} gwei per gas, measured on these settlements)`}, not Base's, which is usually a small fraction of a gwei; revenue is test USDC. A negative margin here says nothing about a deployment on Base.`
    : ''
  const byDay = new Map(o.money.days.map((d) => [d.day, d]))
  const days = Array.from({ length: o.window_days }, (_, i) =>
    new Date(Date.now() - (o.window_days - 1 - i) * 86400000).toISOString().slice(0, 10),
  )
  const series = [
    { key: 'revenue', label: 'revenue', color: '#16a34a' },
    { key: 'gas', label: 'gas', color: '#dc2626' },
  ]
  bars(
    '#chart-money-days',
    days.map((day) => ({
      label: day,
      revenue: (byDay.get(day)?.revenue_usd ?? 0) + (chByDay.get(day)?.revenue_usd ?? 0),
      gas: eth(byDay.get(day)?.gas_wei) * ethUsd,
    })),
    series,
  )
  bars(
    '#chart-money-services',
    o.money.services.slice(0, 12).map((s) => ({
      label: s.slug,
      revenue: s.revenue_usd + (chBySlug.get(s.slug)?.revenue_usd ?? 0),
      gas: eth(s.gas_wei) * ethUsd,
    })),
    series,
  )
  $('#money-table').replaceChildren(
    table(
      [
        { label: 'service', get: (s) => s.slug },
        { label: 'settled', get: (s) => s.settled, num: true },
        { label: 'revenue', get: (s) => usd(s.revenue_usd), num: true },
        { label: 'channel charges', get: (s) => chBySlug.get(s.slug)?.paid_calls ?? 0, num: true },
        { label: 'channel revenue', get: (s) => usd(chBySlug.get(s.slug)?.revenue_usd ?? 0), num: true },
        { label: 'gas (ETH)', get: (s) => eth(s.gas_wei).toFixed(8), num: true },
        { label: 'gas (USD)', get: (s) => usd(eth(s.gas_wei) * ethUsd), num: true },
        {
          label: 'avg gas used',
          get: (s) => (s.avg_gas_used === null ? '—' : s.avg_gas_used.toLocaleString()),
          num: true,
        },
        {
          label: 'margin',
          get: (s) => usd(s.revenue_usd + (chBySlug.get(s.slug)?.revenue_usd ?? 0) - eth(s.gas_wei) * ethUsd),
          num: true,
        },
      ],
      // services paid only by channel have a row too
      [
        ...o.money.services,
        ...(ch?.services ?? [])
          .filter((c) => !o.money.services.some((s) => s.slug === c.slug))
          .map((c) => ({ slug: c.slug, settled: 0, revenue_usd: 0, gas_wei: '0', avg_gas_used: null })),
      ],
      'No settled payments in the last 30 days.',
    ),
  )
}

function renderOverview(o) {
  last = o
  $('#where').textContent =
    `${o.network}${o.dev_chain ? ' · embedded dev chain (not real money; no explorer)' : ''} · pay to ${o.pay_to}`
  const h = o.facilitator.health
  const states = o.payment_states
  const tiles = [
    [
      'Facilitator',
      `${o.facilitator.kind ?? '—'} · ${h ? (h.ok ? 'reachable' : 'unreachable') : 'no health report'}`,
      h && !h.ok,
    ],
    ['Can pay for settlements', h ? (h.canPay ? 'yes' : 'NO') : 'unknown', h && !h.canPay],
    [
      'Payee USDC balance',
      o.payee_balance_atomic === null ? 'unknown' : usd(Number(o.payee_balance_atomic) / 1e6),
      false,
    ],
    ['Settled', states.settled ?? 0, false],
    ['Pending / settling', (states.pending ?? 0) + (states.settling ?? 0), (states.pending ?? 0) > 0],
    ['Failed', states.failed ?? 0, (states.failed ?? 0) > 0],
    ['Released (not charged)', states.released ?? 0, false],
  ]
  $('#health').replaceChildren(
    ...tiles.map(([k, v, bad]) =>
      el('div', { class: bad ? 'bad' : null }, el('span', { class: 'muted small' }, k), el('b', { 'data-stat': k }, v)),
    ),
  )
  $('#settlers').replaceChildren(
    h?.detail ? el('p', { class: 'small' }, h.detail) : '',
    h?.settlers
      ? table(
          [
            { label: 'settler', get: (s) => el('span', { class: 'mono' }, s.address) },
            { label: 'ETH', get: (s) => eth(s.balance_wei).toFixed(6), num: true },
            { label: 'settlements left', get: (s) => s.settlements_left, num: true },
            { label: 'in flight', get: (s) => s.in_flight, num: true },
          ],
          h.settlers,
        )
      : el('p', { class: 'muted small' }, 'The payment backend does not report settler balances.'),
  )
  $('#unsettled').replaceChildren(table(PAYMENT_COLS, o.unsettled, 'No pending or failed settlements.'))
  renderMoney(o)
  $('#errors-by-code').replaceChildren(
    table(
      [
        { label: 'service', get: (r) => r.slug },
        { label: 'code', get: (r) => el('code', {}, r.code) },
        { label: 'status', get: (r) => r.status, num: true },
        { label: 'count', get: (r) => r.count, num: true },
      ],
      o.errors.by_code,
      'No error answers in the last 30 days.',
    ),
  )
  $('#errors-codes').replaceChildren(
    table(
      [
        { label: 'service', get: (r) => r.slug },
        { label: 'code', get: (r) => el('code', {}, r.code) },
        { label: 'status', get: (r) => r.status ?? '', num: true },
        { label: 'count', get: (r) => r.count, num: true },
      ],
      o.errors.paid_failures_by_code,
      'No paid call failed in the last 30 days.',
    ),
  )
  $('#errors-services').replaceChildren(
    table(
      [
        { label: 'service', get: (r) => r.slug },
        { label: 'errors', get: (r) => r.errors, num: true },
        { label: 'calls', get: (r) => r.calls, num: true },
      ],
      o.errors.per_service,
      'No errors in the last 30 days.',
    ),
  )
  const d = o.demo
  $('#demo').replaceChildren(
    el(
      'p',
      {},
      `${d.service}: ${d.today.calls} free call${d.today.calls === 1 ? '' : 's'} today by ${d.today.clients} client${d.today.clients === 1 ? '' : 's'}; limit ${d.daily_limit} per client per day.`,
    ),
    table(
      [
        { label: 'day', get: (r) => r.day },
        { label: 'clients', get: (r) => r.clients, num: true },
        { label: 'calls', get: (r) => r.calls, num: true },
      ],
      d.days.slice(-7).reverse(),
      'No demo calls in the last 30 days.',
    ),
  )
  $('#tokens').replaceChildren(
    table(
      [
        { label: 'service', get: (r) => r.slug },
        { label: 'tokens', get: (r) => r.tokens.toLocaleString(), num: true },
        { label: 'calls', get: (r) => r.calls, num: true },
      ],
      o.tokens,
      'No model tokens used in the last 30 days.',
    ),
  )
  $('#upstreams').replaceChildren(
    table(
      [
        { label: 'upstream', get: (u) => u.name },
        { label: 'requests', get: (u) => u.requests, num: true },
        { label: 'cache hits', get: (u) => u.cache_hits, num: true },
        { label: 'hit rate', get: (u) => (u.hit_rate === null ? '—' : `${Math.round(u.hit_rate * 100)}%`), num: true },
        { label: 'failures', get: (u) => u.failures, num: true },
        {
          label: 'last error',
          get: (u) => (u.last_error ? `${when(u.last_error.at)} ${u.last_error.message}` : '—'),
          cls: 'reason',
        },
      ],
      o.upstreams,
      'No upstream called since the server started.',
    ),
  )
  const rel = o.reliability
  const pct = (r) => (r === null ? '—' : `${(r * 100).toFixed(1)}%`)
  $('#reliability').replaceChildren(
    ...(rel
      ? [
          table(
            [
              { label: 'scheme', get: (r) => r.scheme },
              { label: 'calls', get: (r) => r.calls, num: true },
              { label: 'success', get: (r) => pct(r.success_rate), num: true },
              { label: 'p50 ms', get: (r) => r.latency_ms.p50 ?? '—', num: true },
              { label: 'p95 ms', get: (r) => r.latency_ms.p95 ?? '—', num: true },
            ],
            Object.entries(rel.schemes).map(([scheme, f]) => ({ scheme, ...f })),
            'No canary call seen since the server started.',
          ),
          el(
            'p',
            { class: 'muted small' },
            rel.last_failure
              ? `Last failure: ${when(rel.last_failure.at)} ${rel.last_failure.scheme} ${rel.last_failure.service}: ${rel.last_failure.outcome} ${rel.last_failure.reason ?? ''}`
              : 'No failure.',
          ),
        ]
      : [el('p', { class: 'muted small' }, 'No canary configured (CANARY_PAYER).')]),
  )
}

// ---- payment channels (x402 batch-settlement; docs/channels.md) -----------------------------------------------
const atomicUsd = (a) => usd(Number(BigInt(a || '0')) / 1e6)

/** Gas per paid call over the console's window (both schemes, the same days): `exact` pays one transfer per call
 * (main network); channels pay deposits, claims, sweeps and refunds for all their calls. */
function gasRows(o, ch) {
  const exact = o
    ? o.money.services.reduce((a, s) => ({ calls: a.calls + s.settled, wei: a.wei + BigInt(s.gas_wei || '0') }), {
        calls: 0,
        wei: 0n,
      })
    : null
  const rows = []
  if (exact) rows.push({ scheme: 'exact', window: `${o.window_days} days`, calls: exact.calls, wei: exact.wei })
  if (ch?.offered)
    rows.push({
      scheme: 'batch-settlement',
      window: `${ch.window_days} days`,
      calls: ch.figures.paid_calls,
      wei: BigInt(ch.figures.gas_wei),
    })
  return rows
}

function renderChannels(ch) {
  lastChannels = ch
  const ethUsd = Number($('#eth-usd').value) || 0
  const f = ch.figures
  $('#channels-summary').textContent =
    ch.offered && f.networks.length
      ? `Last ${ch.window_days} days (UTC, today included), like the figures above: ${f.channels} channel${f.channels === 1 ? '' : 's'} used on ${f.networks.map((n) => n.network).join(', ')}, ${f.paid_calls} paid calls, ${atomicUsd(f.earned_atomic)} earned, ${atomicUsd(f.claimed_atomic)} claimed, ${atomicUsd(f.swept_atomic)} swept to the payee; ${atomicUsd(f.deposited_atomic)} deposited; ${eth(BigInt(f.sponsored_gas_wei || '0')).toFixed(8)} ETH of gas sponsored for deposits and refunds.`
      : 'Payment channels are not offered by this server (no network has a backend that runs them).'
  $('#gas-per-scheme').replaceChildren(
    table(
      [
        { label: 'scheme', get: (r) => el('code', {}, r.scheme) },
        { label: 'window', get: (r) => r.window },
        { label: 'paid calls', get: (r) => r.calls, num: true },
        { label: 'gas (ETH)', get: (r) => eth(r.wei).toFixed(8), num: true },
        { label: 'gas per call (ETH)', get: (r) => (r.calls ? (eth(r.wei) / r.calls).toFixed(10) : '—'), num: true },
        { label: 'gas per call (USD)', get: (r) => (r.calls ? usd((eth(r.wei) / r.calls) * ethUsd) : '—'), num: true },
      ],
      gasRows(last, ch),
      'No paid calls.',
    ),
  )
  $('#sponsored-payers').replaceChildren(
    table(
      [
        { label: 'payer', get: (p) => el('span', { class: 'mono', title: p.payer }, short(p.payer)) },
        { label: 'network', get: (p) => el('code', {}, p.network) },
        { label: 'deposits', get: (p) => p.deposits, num: true },
        { label: 'refunds', get: (p) => p.refunds, num: true },
        { label: 'gas (ETH)', get: (p) => eth(BigInt(p.gas_wei)).toFixed(8), num: true },
        { label: 'gas (USD)', get: (p) => usd(eth(BigInt(p.gas_wei)) * ethUsd), num: true },
        { label: 'bought', get: (p) => atomicUsd(p.earned_atomic), num: true },
      ],
      f?.sponsored_payers ?? [],
      'No sponsored transaction.',
    ),
  )
  $('#channels').replaceChildren(
    table(
      [
        { label: 'channel', get: (c) => el('span', { class: 'mono', title: c.id }, short(c.id)) },
        { label: 'network', get: (c) => el('code', {}, c.network) },
        { label: 'payer', get: (c) => el('span', { class: 'mono', title: c.payer }, short(c.payer)) },
        { label: 'balance', get: (c) => atomicUsd(c.balance), num: true },
        { label: 'charged', get: (c) => atomicUsd(c.charged), num: true },
        { label: 'claimed', get: (c) => atomicUsd(c.claimed), num: true },
        { label: 'unclaimed', get: (c) => atomicUsd(c.unclaimed), num: true },
        {
          label: 'pending withdrawal',
          get: (c) =>
            c.withdraw_requested_at ? `since ${when(new Date(c.withdraw_requested_at * 1000).toISOString())}` : '—',
        },
        {
          label: 'last request (UTC)',
          get: (c) => (c.last_request_at ? when(new Date(c.last_request_at).toISOString()) : ''),
        },
      ],
      ch.channels,
      ch.offered ? 'No channel opened yet.' : 'Channels are not offered.',
    ),
  )
}

async function showPayment(id) {
  const box = $('#payment-detail')
  try {
    const r = await api(`/admin/api/payments/${id}`)
    box.replaceChildren(
      el('h3', {}, `Payment ${id}: ${r.payment.slug} (${r.payment.state})`),
      table(
        [
          { label: 'at (UTC)', get: (e) => when(e.at) },
          { label: 'state', get: (e) => el('span', { class: `state ${e.state}` }, e.state) },
          { label: 'detail', get: (e) => e.detail || '', cls: 'reason' },
        ],
        r.events,
      ),
    )
    box.hidden = false
    box.focus()
  } catch (e) {
    box.replaceChildren(el('p', { class: 'error', role: 'alert' }, e.message))
    box.hidden = false
  }
}

async function loadPayments() {
  const p = new URLSearchParams({ limit: $('#f-limit').value })
  if ($('#f-state').value) p.set('state', $('#f-state').value)
  if ($('#f-slug').value.trim()) p.set('slug', $('#f-slug').value.trim())
  try {
    const r = await api(`/admin/api/payments?${p}`)
    $('#payment-list').replaceChildren(table(PAYMENT_COLS, r.payments, 'No payments match.'))
  } catch (e) {
    $('#payment-list').replaceChildren(el('p', { class: 'error', role: 'alert' }, e.message))
  }
}

async function refresh() {
  try {
    renderOverview(await api('/admin/api/overview'))
    renderChannels(await api('/admin/api/channels'))
    await loadPayments()
    $('#updated').textContent = `Updated ${new Date().toLocaleTimeString()} · refreshes every 15 s`
  } catch (e) {
    $('#updated').textContent = `Could not load: ${e.message}`
  }
  document.body.dataset.ready = 'true'
}

for (const s of ['reserved', 'verified', 'settling', 'pending', 'settled', 'failed', 'released'])
  $('#f-state').append(el('option', { value: s }, s))
$('#payment-filters').addEventListener('submit', (e) => {
  e.preventDefault()
  loadPayments()
})
$('#eth-usd').value = localStorage.getItem(ETH_KEY) || $('#eth-usd').value
$('#eth-usd').addEventListener('input', () => {
  localStorage.setItem(ETH_KEY, $('#eth-usd').value)
  if (last) renderMoney(last)
  if (lastChannels) renderChannels(lastChannels)
})
$('#reconcile').addEventListener('click', async () => {
  const b = $('#reconcile'),
    out = $('#reconcile-out')
  b.disabled = true
  out.textContent = 'Reconciling…'
  try {
    const r = (await api('/admin/api/reconcile', { method: 'POST' })).reconciled
    out.textContent = `Done: ${r.settled} settled, ${r.failed} failed, ${r.released} released, ${r.unknown} still unknown.`
    out.dataset.done = 'true'
    await refresh()
  } catch (e) {
    out.textContent = `Reconcile failed: ${e.message}`
  }
  b.disabled = false
})
refresh()
setInterval(refresh, Number(new URLSearchParams(location.search).get('refresh') || 15) * 1000)
