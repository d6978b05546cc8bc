import { Parser } from 'node-sql-parser'
import { handlerFor, t } from '../../runtime/sdk'
import { askJson, dataBlock } from '../_lib/model-utility'
import manifest, { type DIALECTS } from './manifest'

type Dialect = (typeof DIALECTS)[number]
/** node-sql-parser's database names. */
const PARSER_DB: Record<Dialect, string> = {
  postgresql: 'PostgresQL',
  mysql: 'MySQL',
  mariadb: 'MariaDB',
  sqlite: 'SQLite',
  sqlserver: 'TransactSQL',
  bigquery: 'BigQuery',
  snowflake: 'Snowflake',
  redshift: 'Redshift',
  trino: 'Trino',
}
const parser = new Parser()

const SYSTEM =
  'You write SQL. Produce one correct, idiomatic SQL statement (several only when the request needs them) for the SQL dialect ' +
  'named in the data block, using only tables and columns from the schema when a schema is given. Prefer explicit column lists ' +
  'and JOIN ... ON. Put the SQL without a Markdown fence in "sql" and a one- or two-sentence explanation in "explanation".'

const Answer = t.Object({ sql: t.String({ minLength: 1 }), explanation: t.String() })

/** Parses `sql` for the dialect; throws the parser's message when it does not parse. */
export function parseSql(sql: string, dialect: Dialect) {
  const opt = { database: PARSER_DB[dialect] }
  const ast = parser.astify(sql, opt)
  const list = Array.isArray(ast) ? ast : [ast]
  const tables = [...new Set(parser.tableList(sql, opt).map((x) => x.split('::').pop()!))]
  return { types: list.map((s) => String((s as { type?: string }).type ?? 'unknown').toLowerCase()), tables }
}

export default handlerFor(manifest, async ({ request, schema, dialect = 'postgresql' }, ctx) => {
  const r = await askJson(ctx, {
    system: SYSTEM,
    user: dataBlock([
      ['SQL dialect', dialect],
      ['Schema', schema],
      ['Request', request],
    ]),
    schema: Answer,
    maxTokens: 2048,
    validate(a) {
      try {
        parseSql(a.sql.trim(), dialect)
        return undefined
      } catch (e) {
        return `the SQL does not parse as ${dialect}: ${(e as Error).message.slice(0, 200)}`
      }
    },
  })
  const sql = r.value.sql.trim()
  const { types, tables } = parseSql(sql, dialect)
  return {
    sql,
    dialect,
    statement_type: types[0] ?? 'unknown',
    read_only: types.every((x) => x === 'select'),
    tables,
    explanation: r.value.explanation.trim(),
    model: r.model,
    tokens_used: r.tokens_used,
  }
})
