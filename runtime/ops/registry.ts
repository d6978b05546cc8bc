/**
 * A small Prometheus registry: counters, gauges and histograms with labels, rendered in the text exposition format
 * (version 0.0.4, what every Prometheus scrapes). Recording is a Map lookup and an addition; nothing is rendered
 * until a scrape asks for it. Gauges read at scrape time (the database, the settlers, the pool) are set by the
 * collectors passed to `render`.
 * @module ops/registry
 */

export type Labels = Record<string, string>

/** The content type of the text exposition format. */
export const EXPOSITION_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

const escapeLabel = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"')
const escapeHelp = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')
const labelText = (labels: Labels, extra?: [string, string]) => {
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${escapeLabel(v)}"`)
  if (extra) parts.push(`${extra[0]}="${escapeLabel(extra[1])}"`)
  return parts.length ? `{${parts.join(',')}}` : ''
}
const num = (n: number) => (Number.isFinite(n) ? String(n) : n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN')
/** The key of a label set (its values in the family's label order). */
const keyOf = (names: readonly string[], labels: Labels) => names.map((n) => labels[n] ?? '').join('\u0000')

/** At most this many label sets per family: a label fed from input can never grow the registry without bound. */
const MAX_SERIES = 2000

abstract class Family {
  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
  ) {}
  abstract readonly type: 'counter' | 'gauge' | 'histogram'
  abstract lines(out: string[]): void
  protected pick(labels: Labels): Labels {
    const l: Labels = {}
    for (const n of this.labelNames) l[n] = labels[n] ?? ''
    return l
  }
}

class Scalar extends Family {
  readonly series = new Map<string, { labels: Labels; value: number }>()
  constructor(
    readonly type: 'counter' | 'gauge',
    name: string,
    help: string,
    labelNames: readonly string[],
  ) {
    super(name, help, labelNames)
  }
  protected at(labels: Labels) {
    const k = keyOf(this.labelNames, labels)
    let s = this.series.get(k)
    if (!s) {
      if (this.series.size >= MAX_SERIES) return undefined
      s = { labels: this.pick(labels), value: 0 }
      this.series.set(k, s)
    }
    return s
  }
  lines(out: string[]) {
    for (const s of this.series.values()) out.push(`${this.name}${labelText(s.labels)} ${num(s.value)}`)
  }
  /** The value of one label set (0 when never recorded). */
  get(labels: Labels = {}): number {
    return this.series.get(keyOf(this.labelNames, labels))?.value ?? 0
  }
}

export class Counter extends Scalar {
  constructor(name: string, help: string, labelNames: readonly string[] = []) {
    super('counter', name, help, labelNames)
  }
  inc(labels: Labels = {}, by = 1): void {
    if (!(by >= 0)) return
    const s = this.at(labels)
    if (s) s.value += by
  }
}

export class Gauge extends Scalar {
  constructor(name: string, help: string, labelNames: readonly string[] = []) {
    super('gauge', name, help, labelNames)
  }
  set(labels: Labels, value: number): void {
    const s = this.at(labels)
    if (s) s.value = value
  }
  /** Forgets every label set (a scrape-time gauge is set afresh on each scrape). */
  reset(): void {
    this.series.clear()
  }
}

export class Histogram extends Family {
  readonly type = 'histogram'
  readonly series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>()
  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    readonly buckets: readonly number[],
  ) {
    super(name, help, labelNames)
  }
  observe(labels: Labels, value: number): void {
    if (!Number.isFinite(value)) return
    const k = keyOf(this.labelNames, labels)
    let s = this.series.get(k)
    if (!s) {
      if (this.series.size >= MAX_SERIES) return
      s = { labels: this.pick(labels), counts: this.buckets.map(() => 0), sum: 0, count: 0 }
      this.series.set(k, s)
    }
    for (let i = 0; i < this.buckets.length; i++) if (value <= this.buckets[i]) s.counts[i]++
    s.sum += value
    s.count++
  }
  lines(out: string[]) {
    for (const s of this.series.values()) {
      this.buckets.forEach((b, i) =>
        out.push(`${this.name}_bucket${labelText(s.labels, ['le', num(b)])} ${s.counts[i]}`),
      )
      out.push(`${this.name}_bucket${labelText(s.labels, ['le', '+Inf'])} ${s.count}`)
      out.push(`${this.name}_sum${labelText(s.labels)} ${num(s.sum)}`)
      out.push(`${this.name}_count${labelText(s.labels)} ${s.count}`)
    }
  }
  /** The number of observations of one label set. */
  count(labels: Labels = {}): number {
    return this.series.get(keyOf(this.labelNames, labels))?.count ?? 0
  }
}

export class Registry {
  private families: Family[] = []
  counter(name: string, help: string, labelNames: readonly string[] = []): Counter {
    return this.add(new Counter(name, help, labelNames))
  }
  gauge(name: string, help: string, labelNames: readonly string[] = []): Gauge {
    return this.add(new Gauge(name, help, labelNames))
  }
  histogram(name: string, help: string, labelNames: readonly string[], buckets: readonly number[]): Histogram {
    return this.add(new Histogram(name, help, labelNames, buckets))
  }
  private add<F extends Family>(f: F): F {
    this.families.push(f)
    return f
  }
  /** The text exposition of every family (HELP and TYPE even before the first sample). */
  render(): string {
    const out: string[] = []
    for (const f of this.families) {
      out.push(`# HELP ${f.name} ${escapeHelp(f.help)}`, `# TYPE ${f.name} ${f.type}`)
      f.lines(out)
    }
    return `${out.join('\n')}\n`
  }
}
