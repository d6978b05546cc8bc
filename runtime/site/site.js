// The catalog and live dashboard. Plain JS (an ES module), no framework; everything comes from the public JSON
// endpoints. The DOM, table and chart helpers are shared with the operator console (/ui.js).
import { $, bars, el, table } from '/ui.js'

const usd = (n) => '$' + (n < 0.01 ? n.toFixed(3) : n.toFixed(2))
const b64json = (v) => JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(v), (c) => c.charCodeAt(0))))
let services = []

// ---- catalog -------------------------------------------------------------
const minPrice = (s) => Math.min(...Object.values(s.pricing).map((p) => p.price_usd))
function fieldsOf(s) {
  const schema = s.input_schema || {}
  if (s.kind === 'tiered')
    return Object.entries(schema).map(([name, f]) => ({
      name,
      type: f.type,
      required: f.required,
      default: f.default,
      description: f.description,
      enum: f.enum,
    }))
  const req = new Set(schema.required || [])
  return Object.entries(schema.properties || {}).map(([name, f]) => ({
    name,
    type: f.type || (f.anyOf ? 'string' : 'any'),
    required: req.has(name),
    default: f.default,
    description: f.description || '',
    enum: f.anyOf ? f.anyOf.map((x) => x.const).filter((x) => x !== undefined) : f.enum,
  }))
}
function exampleOf(s) {
  const ex =
    s.examples?.[0]?.input ||
    Object.fromEntries(
      fieldsOf(s)
        .filter((f) => f.required)
        .map((f) => [f.name, f.default ?? (f.type === 'number' || f.type === 'integer' ? 1 : 'text')]),
    )
  return JSON.stringify(ex)
}
function card(s) {
  const tiers = Object.entries(s.pricing).map(([t, p]) =>
    el('span', { class: 'tag' }, `${t} ${usd(p.price_usd)}${p.max_tokens ? ` · ${p.max_tokens} tok` : ''}`),
  )
  const fields = table(
    [
      { label: 'field', get: (f) => f.name + (f.required ? ' *' : '') },
      { label: 'type', get: (f) => (f.enum?.length ? f.enum.join(' | ') : f.type) },
      { label: 'default', get: (f) => (f.default === undefined ? '' : JSON.stringify(f.default)) },
      { label: 'description', get: (f) => f.description },
    ],
    fieldsOf(s),
    'No input fields.',
  )
  const body = exampleOf(s)
  const curl = `curl -i -X POST ${location.origin}/api/v1/${s.slug} \\\n  -H 'content-type: application/json' \\\n  -d '${body}'`
  const ts = `import { wrapFetchWithPayment, x402Client } from '@x402/fetch'\nimport { ExactEvmScheme } from '@x402/evm/exact/client'\nimport { privateKeyToAccount } from 'viem/accounts'\n\nconst pay = wrapFetchWithPayment(fetch, new x402Client()\n  .register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(process.env.KEY))))\nconst res = await pay('${location.origin}/api/v1/${s.slug}', {\n  method: 'POST', headers: { 'content-type': 'application/json' },\n  body: JSON.stringify(${body}),\n})\nconsole.log(await res.json())`
  return el(
    'article',
    { class: 'card', 'data-slug': s.slug },
    el('h3', {}, s.name),
    el(
      'div',
      { class: 'meta' },
      el('span', { class: 'tag' }, s.category),
      s.available ? null : el('span', { class: 'tag off' }, 'unavailable'),
      ` model: ${s.model}`,
    ),
    el('p', {}, s.description),
    el('div', {}, tiers),
    el('div', { class: 'meta' }, s.endpoints.map((e) => `${e.method} ${e.path}`).join('  ·  ')),
    el('details', {}, el('summary', {}, 'Input fields'), fields),
    el('details', {}, el('summary', {}, 'Example: curl'), el('pre', {}, curl)),
    el('details', {}, el('summary', {}, 'Example: TypeScript with @x402/fetch'), el('pre', {}, ts)),
    el('div', {}, el('button', { type: 'button', onclick: () => openTry(s) }, 'Try it')),
  )
}
function readFilters() {
  const p = new URLSearchParams(location.search)
  $('#q').value = p.get('q') || ''
  $('#cat').value = p.get('cat') || ''
  $('#max').value = p.get('max') || ''
}
function render() {
  const q = $('#q').value.trim().toLowerCase(),
    cat = $('#cat').value,
    max = Number($('#max').value || Infinity)
  const p = new URLSearchParams()
  if (q) p.set('q', q)
  if (cat) p.set('cat', cat)
  if ($('#max').value) p.set('max', $('#max').value)
  history.replaceState(null, '', p.toString() ? `?${p}` : location.pathname)
  const shown = services.filter(
    (s) =>
      (!q || `${s.slug} ${s.name} ${s.description}`.toLowerCase().includes(q)) &&
      (!cat || s.category === cat) &&
      minPrice(s) <= max,
  )
  $('#list').replaceChildren(...shown.map(card))
  $('#count').textContent = `${shown.length} of ${services.length} services`
}

// ---- try it --------------------------------------------------------------
function input(f) {
  const id = `f-${f.name}`
  let control
  if (f.enum?.length)
    control = el(
      'select',
      { id, name: f.name },
      f.required ? null : el('option', { value: '' }, '(default)'),
      f.enum.map((v) => el('option', { value: v }, v)),
    )
  else if (f.type === 'boolean')
    control = el(
      'select',
      { id, name: f.name },
      el('option', { value: '' }, '(default)'),
      el('option', { value: 'true' }, 'true'),
      el('option', { value: 'false' }, 'false'),
    )
  else if (f.type === 'number' || f.type === 'integer')
    control = el('input', { id, name: f.name, type: 'number', step: 'any' })
  else if (f.type === 'string') control = el('textarea', { id, name: f.name, rows: 2 })
  else control = el('textarea', { id, name: f.name, rows: 3, placeholder: 'JSON' })
  control.dataset.type = f.type
  if (f.default !== undefined && control.tagName !== 'SELECT')
    control.value = typeof f.default === 'string' ? f.default : JSON.stringify(f.default)
  return el('label', { for: id }, `${f.name}${f.required ? ' *' : ''} (${f.type})`, control)
}
function openTry(s) {
  const ex = JSON.parse(exampleOf(s))
  $('#try-h').textContent = `Try ${s.name}`
  $('#try-desc').textContent = `POST /api/v1/${s.slug} — ${Object.entries(s.pricing)
    .map(([t, p]) => `${t} ${usd(p.price_usd)}`)
    .join(', ')}`
  const form = $('#try-form')
  form.replaceChildren(
    ...[
      ...fieldsOf(s)
        .filter((f) => f.name !== 'tier')
        .map(input),
      s.kind === 'tiered' ? input({ name: 'tier', type: 'string', enum: ['quick', 'standard', 'pro'] }) : null,
      el('button', { type: 'submit' }, 'Send'),
    ].filter(Boolean),
  )
  for (const [k, v] of Object.entries(ex)) {
    const c = form.elements[k]
    if (c) c.value = typeof v === 'string' ? v : JSON.stringify(v)
  }
  form.onsubmit = (e) => {
    e.preventDefault()
    send(s, form)
  }
  $('#try-result').replaceChildren()
  $('#try').showModal()
}
function bodyOf(form) {
  const body = {}
  for (const c of form.querySelectorAll('[name]')) {
    if (c.value === '') continue
    const t = c.dataset.type
    body[c.name] =
      t === 'number' || t === 'integer'
        ? Number(c.value)
        : t === 'boolean'
          ? c.value === 'true'
          : t === 'string'
            ? c.value
            : (() => {
                try {
                  return JSON.parse(c.value)
                } catch {
                  return c.value
                }
              })()
  }
  return body
}
async function send(s, form) {
  const body = bodyOf(form)
  const res = await fetch(`/api/v1/${s.slug}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const out = $('#try-result')
  const header = res.headers.get('payment-required')
  if (res.status === 402 && header) {
    const pr = b64json(header)
    // Base `exact` is the first entry; a server that offers Solana lists its entry after the EVM ones.
    const onChain = { base: pr.accepts[0], solana: pr.accepts.find((x) => String(x.network).startsWith('solana:')) }
    const shown = el('div', { id: 'pay-on' })
    const showChain = async (chain) => {
      const a = onChain[chain]
      shown.replaceChildren(challengeOf(pr, a), await payBox(s, form, a))
    }
    let choice = null
    if (onChain.solana) {
      choice = el(
        'fieldset',
        { class: 'chain-choice' },
        el('legend', {}, 'Pay on'),
        ...[
          ['base', 'Base'],
          ['solana', 'Solana'],
        ].map(([value, label]) => {
          const radio = el('input', { type: 'radio', name: 'pay-chain', value, id: `chain-${value}` })
          radio.checked = value === 'base'
          radio.addEventListener('change', () => radio.checked && showChain(value))
          return el('label', { for: `chain-${value}` }, radio, ` ${label}`)
        }),
      )
    }
    await showChain('base')
    out.replaceChildren(el('h3', {}, '402 Payment Required — the decoded challenge'), choice, shown)
  } else {
    out.replaceChildren(
      el('h3', {}, `HTTP ${res.status}`),
      el('pre', {}, JSON.stringify(await res.json().catch(() => null), null, 2)),
    )
  }
  // The answer lands below the form: bring it into view (the dialog scrolls, not the page).
  out.scrollIntoView({ block: 'start' })
}

/** The decoded terms of one entry of a 402 (the chain chosen in the panel). */
function challengeOf(pr, a) {
  const solana = String(a.network).startsWith('solana:')
  return el(
    'div',
    {},
    el(
      'dl',
      { class: 'challenge' },
      el('dt', {}, 'Amount'),
      el(
        'dd',
        { 'data-field': 'amount' },
        `${usd(Number(a.amount) / 1e6)} USD = ${a.amount} atomic units (USDC, 6 decimals)`,
      ),
      el('dt', {}, 'Network'),
      el('dd', { 'data-field': 'network' }, a.network),
      el('dt', {}, 'Asset'),
      el(
        'dd',
        { 'data-field': 'asset' },
        solana ? `${a.asset} (USDC mint)` : `${a.asset} (${a.extra?.name} v${a.extra?.version})`,
      ),
      el('dt', {}, 'Pay to'),
      el('dd', { 'data-field': 'payTo' }, a.payTo),
      solana ? el('dt', {}, 'Fee payer') : null,
      solana ? el('dd', { 'data-field': 'feePayer' }, a.extra?.feePayer || '—') : null,
      el('dt', {}, 'Scheme / timeout'),
      el('dd', { 'data-field': 'timeout' }, `${a.scheme}, ${a.maxTimeoutSeconds} s`),
      el('dt', {}, 'Resource'),
      el('dd', {}, pr.resource.url),
    ),
    el(
      'p',
      { class: 'muted small' },
      `Sign this with an x402 client (for example @x402/fetch with ${solana ? "@x402/svm's ExactSvmScheme" : "@x402/evm's ExactEvmScheme"}) and repeat the request with a PAYMENT-SIGNATURE header, or pay right here:`,
    ),
  )
}

// ---- pay from the page ---------------------------------------------------
// On the embedded dev chain the server's demo payer signs (test USDC); elsewhere the visitor's own wallet does
// (EIP-6963 discovery, viem custom transport). Either way the official @x402/fetch client in /pay.js pays. On Solana
// (the chain choice) @x402/svm's client pays: the embedded Solana dev chain's demo payer signs, or elsewhere the
// visitor's Solana wallet (Wallet Standard discovery).
let devPayer
let devSolanaPayer
let payLib
const EXPLORERS = {
  'eip155:8453': (tx) => `https://basescan.org/tx/${tx}`,
  'eip155:84532': (tx) => `https://sepolia.basescan.org/tx/${tx}`,
  'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp': (tx) => `https://solscan.io/tx/${tx}`,
  'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1': (tx) => `https://solscan.io/tx/${tx}?cluster=devnet`,
}
const loadPay = () =>
  (payLib ??= new Promise((resolve, reject) => {
    document.head.append(
      el('script', {
        src: '/pay.js',
        onload: () => resolve(window.x402Pay),
        onerror: () => {
          payLib = undefined
          reject(new Error('Could not load /pay.js'))
        },
      }),
    )
  }))
async function findDevPayer() {
  if (devPayer === undefined)
    devPayer = await fetch('/api/dev-payer').then(
      (r) => (r.ok ? r.json() : null),
      () => null,
    )
  return devPayer
}
async function findDevSolanaPayer() {
  if (devSolanaPayer === undefined)
    devSolanaPayer = await fetch('/api/dev-payer/solana').then(
      (r) => (r.ok ? r.json() : null),
      () => null,
    )
  return devSolanaPayer
}
async function payBox(s, form, a) {
  const solana = String(a.network).startsWith('solana:')
  const dev = await (solana ? findDevSolanaPayer() : findDevPayer())
  const out = el('div', { id: 'pay-result', 'aria-live': 'polite' })
  // makeSigner(lib) gives { signer, rpcUrl? } (rpcUrl: where the Solana client reads the chain).
  const run = async (button, makeSigner) => {
    button.disabled = true
    out.replaceChildren(el('p', { class: 'muted' }, 'Paying…'))
    try {
      const lib = await loadPay()
      const { signer, rpcUrl } = await makeSigner(lib)
      const paid = await lib.pay(
        signer,
        a.network,
        `/api/v1/${s.slug}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(bodyOf(form)),
        },
        rpcUrl,
      )
      showPaid(out, paid, a, dev)
      out.scrollIntoView({ block: 'start' })
    } catch (e) {
      out.replaceChildren(el('p', { class: 'error', role: 'alert' }, `Payment did not go through: ${e.message || e}`))
    }
    button.disabled = false
  }
  const price = usd(Number(a.amount) / 1e6)
  if (dev) {
    const b = el(
      'button',
      { type: 'button', id: 'pay-dev' },
      `Pay ${price} with the ${solana ? 'Solana ' : ''}demo payer`,
    )
    b.addEventListener('click', () =>
      run(b, async (lib) => (solana ? lib.devSolanaSigner() : { signer: await lib.devSigner() })),
    )
    return el(
      'div',
      { class: 'pay' },
      b,
      el(
        'p',
        { class: 'muted small' },
        `Embedded ${solana ? 'Solana ' : ''}dev chain: the demo payer ${dev.address} holds test USDC, not real money.`,
      ),
      out,
    )
  }
  // Elsewhere the visitor's own wallet: EIP-6963 on Base, Wallet Standard on Solana.
  const wallets = el('div', { class: 'wallets' })
  const b = el(
    'button',
    { type: 'button', id: 'pay-wallet' },
    `Pay ${price} with my ${solana ? 'Solana ' : ''}browser wallet`,
  )
  b.addEventListener('click', async () => {
    b.disabled = true
    try {
      const lib = await loadPay()
      const found = solana
        ? (await lib.solanaWallets(a.network)).map((w) => ({ w, name: w.name, icon: w.icon, id: w.name }))
        : (await lib.wallets()).map((w) => ({ w, name: w.info.name, icon: w.info.icon, id: w.info.rdns }))
      if (!found.length)
        wallets.replaceChildren(
          el(
            'p',
            { class: 'muted small' },
            solana
              ? 'No Solana browser wallet found. Install one that supports the Wallet Standard (most do), or use an x402 client.'
              : 'No browser wallet found. Install one that supports EIP-6963 (most do), or use an x402 client.',
          ),
        )
      else
        wallets.replaceChildren(
          el('p', { class: 'small' }, 'Choose a wallet:'),
          ...found.map(({ w, name, icon, id }) => {
            const wb = el(
              'button',
              { type: 'button', class: 'secondary', 'data-wallet': id },
              icon && /^data:image\//.test(icon) ? el('img', { src: icon, alt: '', width: 18, height: 18 }) : null,
              ` ${name}`,
            )
            wb.addEventListener('click', () =>
              run(wb, async (l) =>
                solana
                  ? l.solanaWalletSigner(w, a.network)
                  : { signer: await l.walletSigner(w.provider, Number(a.network.split(':')[1])) },
              ),
            )
            return wb
          }),
        )
    } catch (e) {
      wallets.replaceChildren(el('p', { class: 'error' }, e.message))
    }
    b.disabled = false
  })
  return el(
    'div',
    { class: 'pay' },
    b,
    wallets,
    el(
      'p',
      { class: 'muted small' },
      solana
        ? 'Your wallet signs a USDC transfer transaction (this server pays its fee); the key never leaves it.'
        : 'Your wallet signs a USDC transfer authorization; the key never leaves it.',
    ),
    out,
  )
}
function showPaid(out, paid, a, dev) {
  const r = paid.receipt
  const explorer = dev ? null : EXPLORERS[a.network]
  const tx = r?.transaction
  out.dataset.status = String(paid.status)
  out.replaceChildren(
    el('h3', {}, paid.status === 200 ? 'Paid — HTTP 200' : `HTTP ${paid.status}`),
    el('pre', { id: 'pay-body' }, JSON.stringify(paid.body, null, 2)),
    r
      ? el(
          'dl',
          { class: 'challenge receipt' },
          el('dt', {}, 'Settled'),
          el(
            'dd',
            { 'data-field': 'success' },
            r.success ? `yes, ${usd(Number(a.amount) / 1e6)} USDC` : `no${r.errorReason ? `: ${r.errorReason}` : ''}`,
          ),
          el('dt', {}, 'Transaction'),
          el(
            'dd',
            { 'data-field': 'tx' },
            tx ? (explorer ? el('a', { href: explorer(tx), target: '_blank', rel: 'noopener' }, tx) : tx) : '—',
          ),
          explorer || !tx
            ? null
            : el('dd', { class: 'muted small' }, 'Local dev chain: this hash has no public explorer.'),
          el('dt', {}, 'Payer'),
          el('dd', { 'data-field': 'payer' }, r.payer || '—'),
          el('dt', {}, 'Network'),
          el('dd', {}, r.network),
        )
      : el('p', { class: 'muted small' }, 'No payment receipt came back (nothing was charged).'),
  )
}

// ---- demo ----------------------------------------------------------------
$('#demo-form').addEventListener('submit', async (e) => {
  e.preventDefault()
  const out = $('#demo-out')
  out.textContent = 'Asking…'
  const res = await fetch('/api/demo/explain', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code: $('#demo-code').value }),
  })
  const j = await res.json().catch(() => ({}))
  if (res.ok)
    out.textContent = `${j.result}\n\n— ${j.model}, ${j.tokens_used} tokens. Free calls left today: ${j.demo.remaining} of ${j.demo.limit} (resets ${j.demo.resets_at}).`
  else
    out.textContent = `HTTP ${res.status}: ${j.error ? j.error.message : ''}${res.headers.get('retry-after') ? `\nTry again in ${res.headers.get('retry-after')} s.` : ''}`
  out.dataset.status = String(res.status)
})

// ---- live stats ----------------------------------------------------------
const count = (v) => String(Math.round(v * 1e6) / 1e6)
async function refreshStats() {
  try {
    const [all, today] = await Promise.all([
      fetch('/stats').then((r) => r.json()),
      fetch('/stats/today').then((r) => r.json()),
    ])
    const t = today.totals
    $('#totals').replaceChildren(
      ...[
        ['Calls today', t.calls],
        ['Paid calls today', t.paid_calls],
        ['Revenue today', usd(t.revenue_usd)],
        ['Demo calls today', t.demo_calls],
        ['Calls (30 d)', all.totals.calls],
        ['Revenue (30 d)', usd(all.totals.revenue_usd)],
      ].map(([k, v]) => el('div', {}, el('span', { class: 'muted small' }, k), el('b', { 'data-stat': k }, v))),
    )
    const byDay = new Map(all.days.map((d) => [d.day, d]))
    const days = Array.from({ length: 30 }, (_, i) =>
      new Date(Date.now() - (29 - i) * 86400000).toISOString().slice(0, 10),
    )
    bars(
      '#chart-days',
      days.map((day) => ({ label: day, calls: byDay.get(day)?.calls ?? 0, paid: byDay.get(day)?.paid_calls ?? 0 })),
      [
        { key: 'calls', label: 'calls', color: '#0052ff' },
        { key: 'paid', label: 'paid', color: '#16a34a' },
      ],
      { format: count },
    )
    const top = all.services
      .slice()
      .sort((a, b) => b.revenue_usd - a.revenue_usd || b.calls - a.calls)
      .slice(0, 12)
    bars(
      '#chart-services',
      top.map((s) => ({ label: s.slug, revenue: s.revenue_usd })),
      [{ key: 'revenue', label: 'USD', color: '#16a34a' }],
      { format: count },
    )
    $('#stats-updated').textContent = `Updated ${new Date().toLocaleTimeString()} · refreshes every 10 s`
  } catch {
    $('#stats-updated').textContent = 'Stats unavailable right now.'
  }
}
// ---- boot ----------------------------------------------------------------
;(async () => {
  const doc = await fetch('/services').then((r) => r.json())
  services = doc.services
  $('#network').textContent = doc.network
  // The free demo needs its model: without one the button is off and says why (instead of answering 503).
  if (doc.demo && !doc.demo.available) {
    $('#demo-submit').disabled = true
    $('#demo-unavailable').textContent = `The demo is off on this server: ${doc.demo.unavailable_reason}`
    $('#demo-unavailable').hidden = false
  }
  for (const c of [...new Set(services.map((s) => s.category))].sort()) $('#cat').append(el('option', { value: c }, c))
  readFilters()
  for (const id of ['#q', '#cat', '#max']) $(id).addEventListener('input', render)
  render()
  document.body.dataset.ready = 'true'
})()
// On the embedded dev chain, say so at the top of the page.
Promise.all([findDevPayer(), findDevSolanaPayer()]).then(([dev, sol]) => {
  if (dev) {
    $('#dev-notice-payer').textContent =
      `The demo payer ${dev.address} pays from the try-it panel` +
      (sol ? `, and on Solana (an embedded LiteSVM replica, test USDC too) the demo payer ${sol.address}.` : '.')
    $('#dev-notice').hidden = false
  }
  document.body.dataset.chainChecked = 'true'
})
refreshStats()
setInterval(refreshStats, Number(new URLSearchParams(location.search).get('refresh') || 10) * 1000)
