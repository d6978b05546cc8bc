import { handlerFor, invalid, assertFinite } from '../../runtime/sdk'
import { clean, findRoot, normCdf as N, normPdf as phi, readRate } from '../_lib/finance'
import manifest from './manifest'

interface P {
  S: number
  K: number
  T: number
  r: number
  q: number
}

function bs(p: P, sigma: number, type: 'call' | 'put') {
  const { S, K, T, r, q } = p
  const sq = Math.sqrt(T)
  const d1 = (Math.log(S / K) + (r - q + (sigma * sigma) / 2) * T) / (sigma * sq)
  const d2 = d1 - sigma * sq
  const dq = Math.exp(-q * T)
  const dr = Math.exp(-r * T)
  const call = S * dq * N(d1) - K * dr * N(d2)
  const put = K * dr * N(-d2) - S * dq * N(-d1)
  const vega = S * dq * phi(d1) * sq
  const gamma = (dq * phi(d1)) / (S * sigma * sq)
  const decay = (-S * dq * phi(d1) * sigma) / (2 * sq)
  const isCall = type === 'call'
  return {
    d1,
    d2,
    call,
    put,
    vega,
    gamma,
    price: isCall ? call : put,
    delta: isCall ? dq * N(d1) : dq * (N(d1) - 1),
    theta: isCall ? decay - r * K * dr * N(d2) + q * S * dq * N(d1) : decay + r * K * dr * N(-d2) - q * S * dq * N(-d1),
    rho: isCall ? K * T * dr * N(d2) : -K * T * dr * N(-d2),
  }
}

function impliedVol(p: P, price: number, type: 'call' | 'put'): number {
  const fwdS = p.S * Math.exp(-p.q * p.T)
  const pvK = p.K * Math.exp(-p.r * p.T)
  const lower = Math.max(type === 'call' ? fwdS - pvK : pvK - fwdS, 0)
  const upper = type === 'call' ? fwdS : pvK
  if (price <= lower || price >= upper) {
    throw invalid(
      'market_price',
      `${price} is outside the no-arbitrage bounds (${clean(lower)}, ${clean(upper)}) for this ${type}; no implied volatility exists`,
    )
  }
  const f = (s: number) => bs(p, s, type).price - price
  const hi = 10
  if (f(hi) < 0) throw invalid('market_price', 'implies a volatility above 1000 %')
  const iv = findRoot(f, 1e-9, hi, { df: (s) => bs(p, s, type).vega, guess: 0.3, tol: 1e-14 })
  if (iv === null) throw invalid('market_price', 'no implied volatility in (0, 1000 %]')
  return iv
}

export default handlerFor(manifest, (input) => {
  const type = input.type ?? 'call'
  const u = input.rate_unit
  const T = input.years_to_expiry ?? (input.days_to_expiry !== undefined ? input.days_to_expiry / 365 : undefined)
  if (T === undefined) throw invalid('days_to_expiry', 'give days_to_expiry (calendar days) or years_to_expiry')
  const p: P = {
    S: input.spot,
    K: input.strike,
    T,
    r: readRate('rate', input.rate, u, -0.5, 1, { fallback: 0 }),
    q: readRate('dividend_yield', input.dividend_yield, u, -0.5, 1, { fallback: 0 }),
  }
  if (input.volatility === undefined && input.market_price === undefined)
    throw invalid('volatility', 'give volatility, or market_price to solve for implied volatility')
  const iv = input.market_price !== undefined ? impliedVol(p, input.market_price, type) : null
  const sigma =
    input.volatility !== undefined
      ? readRate('volatility', input.volatility, u, 0, 10, { openMin: true })
      : (iv as number)
  const g = bs(p, sigma, type)
  const c = (x: number) => clean(x)
  return assertFinite({
    type,
    price: c(g.price),
    call_price: c(g.call),
    put_price: c(g.put),
    d1: c(g.d1),
    d2: c(g.d2),
    greeks: {
      delta: c(g.delta),
      gamma: c(g.gamma),
      vega: c(g.vega),
      vega_per_pct: c(g.vega / 100),
      theta_per_year: c(g.theta),
      theta_per_day: c(g.theta / 365),
      rho: c(g.rho),
      rho_per_pct: c(g.rho / 100),
    },
    implied_volatility: iv === null ? null : c(iv),
    implied_volatility_pct: iv === null ? null : c(iv * 100),
    inputs_used: {
      spot: p.S,
      strike: p.K,
      time_to_expiry_years: c(T),
      rate: p.r,
      volatility: c(sigma),
      dividend_yield: p.q,
    },
    conventions:
      'European option, Black-Scholes-Merton with continuous rate and dividend yield. T = days_to_expiry/365. vega and rho per 1.00 (100 %); *_per_pct per 1 point. theta per year and per calendar day (/365).',
  })
})
