/**
 * How a configuration variable is declared, and the one reader of declared variables. Every environment variable
 * the server reads is declared once, in the file of its concern (server.ts, storage.ts, networks.ts, models.ts,
 * limits.ts, console.ts), with its default, its range and what it means; `variables.ts` lists them all, and
 * docs/configuration.md is generated from that list (`bun scripts/gen-config-docs.ts`). A test fails on a variable
 * read anywhere in runtime/ that is not declared.
 */

export type Env = Record<string, string | undefined>

/** The concerns, in the order docs/configuration.md lists them. */
export const CONCERNS = {
  server: 'Server and public URLs',
  storage: 'Storage',
  payment: 'Payment and networks',
  models: 'Models and demo',
  limits: 'Limits',
  console: 'Operator console and logs',
  process: 'Process and tooling',
} as const
export type Concern = keyof typeof CONCERNS

export interface Variable {
  /** The environment variable. */
  name: string
  /** The registry.yaml key it overrides (a dotted path), when there is one. */
  yaml?: string
  /** The default value. Absent = empty (or `defaultText`). */
  default?: number | string
  /** The default in words, when it is computed (another variable, the network's token, ...). */
  defaultText?: string
  /** The smallest accepted number (numbers only; a smaller value is a problem at boot). */
  min?: number
  /** What the value is checked against at boot, in words (the problem says the same). */
  valid?: string
  /** Never logged: the logger masks the value wherever it appears. */
  secret?: boolean
  /** A comma-separated list (a secret list is masked item by item). */
  list?: boolean
  concern: Concern
  description: string
}

/** A setting only registry.yaml holds (no variable overrides it). */
export interface YamlSetting {
  yaml: string
  default?: number | string
  min?: number
  concern: Concern
  description: string
}

/**
 * A family of variables: one per chain (`RPC_URL_<CHAINID>`, with NETWORKS) or one per upstream
 * (`UPSTREAM_<NAME>_URL`). `prefix` + the part + `suffix` is the name.
 */
export interface Family {
  prefix: string
  part: '<CHAINID>' | '<NAME>'
  suffix: string
  secret?: boolean
  concern: Concern
  description: string
}

/** Declares a variable (typed identity: the declaration is the handle its readers pass around). */
export const variable = (v: Variable): Variable => v
export const yamlSetting = (v: YamlSetting): YamlSetting => v
/** A per-chain family, `<name>_<CHAINID>`. */
export const perChain = (name: string, f: Omit<Family, 'prefix' | 'part' | 'suffix'>): Family => ({
  prefix: `${name}_`,
  part: '<CHAINID>',
  suffix: '',
  ...f,
})
export const familyName = (f: Family): string => `${f.prefix}${f.part}${f.suffix}`
/** The variable of family `f` for one chain id or upstream name part. */
export const memberName = (f: Family, part: string): string => `${f.prefix}${part}${f.suffix}`
const PARTS = { '<CHAINID>': '\\d+', '<NAME>': '[A-Z0-9_]+' }
/** Matches the members of a family, capturing the part. */
export const familyPattern = (f: Family): RegExp => new RegExp(`^${f.prefix}(${PARTS[f.part]})${f.suffix}$`)

/** The value at a dotted path of the registry.yaml document. */
export function yamlAt(doc: any, path: string): unknown {
  let v = doc
  for (const k of path.split('.')) v = v?.[k]
  return v
}

/**
 * Reads declared variables from the environment (over registry.yaml where declared), pushing every problem found.
 * A number that is not finite or below its declaration's `min` is a problem named after the variable.
 */
export function createReader(env: Env, doc: any, problems: string[]) {
  const fromEnv = (v: Variable): string | undefined => env[v.name]
  const fromYaml = (v: Variable | YamlSetting): unknown => (v.yaml ? yamlAt(doc, v.yaml) : undefined)
  /** The environment's value, else registry.yaml's (`??`: an empty variable still overrides). */
  const raw = (v: Variable): unknown => fromEnv(v) ?? fromYaml(v)
  const check = (label: string, v: unknown, fallback: number, min = 0): number => {
    const n = v === undefined || v === '' ? fallback : Number(v)
    if (!Number.isFinite(n) || n < min) problems.push(`${label} must be a number >= ${min} (got ${JSON.stringify(v)})`)
    return n
  }
  return {
    env: fromEnv,
    yaml: fromYaml,
    raw,
    /** The value as text: environment, registry.yaml, the declared default, else empty. */
    text: (v: Variable): string => String(raw(v) ?? v.default ?? ''),
    /** The value as a number (environment, registry.yaml, default), checked against the declared minimum. */
    number: (v: Variable, label = v.name): number => check(label, raw(v), Number(v.default ?? 0), v.min),
    /** A registry.yaml-only number. */
    yamlNumber: (s: YamlSetting): number => check(s.yaml.split('.').pop()!, fromYaml(s), Number(s.default ?? 0), s.min),
    /** One chain's member of a per-chain family. */
    member: (f: Family, part: string): string | undefined => env[memberName(f, part)],
    /** Every member of a family set to a non-empty value, as [part, value]. */
    members: (f: Family): [string, string][] => {
      const pattern = familyPattern(f)
      const out: [string, string][] = []
      for (const [k, v] of Object.entries(env)) {
        const hit = v ? k.match(pattern) : null
        if (hit && v) out.push([hit[1], v])
      }
      return out
    },
    problems,
  }
}
export type Reader = ReturnType<typeof createReader>
