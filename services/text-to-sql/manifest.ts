import { defineService, flat, t } from '../../runtime/sdk'
import { modelFields } from '../_lib/model-utility'

export const DIALECTS = [
  'postgresql',
  'mysql',
  'mariadb',
  'sqlite',
  'sqlserver',
  'bigquery',
  'snowflake',
  'redshift',
  'trino',
] as const

/** Model: gpt-4.1-mini. */
export default defineService({
  slug: 'text-to-sql',
  name: 'Text to SQL',
  description:
    'Writes a SQL query from a plain-English request, optionally against a given schema (DDL or a table/column list). The SQL is ' +
    'checked with node-sql-parser for the requested `dialect` (postgresql by default); output that does not parse is retried once, ' +
    'then answered with 502. Reports the statement type, the tables used and whether the statement only reads. ' +
    'Request: at most 4,000 characters; schema: at most 20,000.',
  category: 'language',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.02),
  model: 'gpt-4.1-mini',
  needs: ['model'],
  timeoutMs: 30_000,
  input: t.Object(
    {
      request: t.String({
        minLength: 1,
        maxLength: 4_000,
        description: 'What the query should do, in plain language.',
      }),
      schema: t.Optional(
        t.String({
          maxLength: 20_000,
          description: 'Database schema: CREATE TABLE statements or a table/column description.',
        }),
      ),
      dialect: t.Optional(
        t.Union(
          DIALECTS.map((d) => t.Literal(d)),
          { default: 'postgresql', description: DIALECTS.join(', ') },
        ),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: {
    fields: {
      question: 'request',
      query: 'request',
      prompt: 'request',
      ddl: 'schema',
      database: 'dialect',
      db: 'dialect',
    },
    values: {
      dialect: {
        postgres: 'postgresql',
        pg: 'postgresql',
        mssql: 'sqlserver',
        tsql: 'sqlserver',
        sql_server: 'sqlserver',
        sqlite3: 'sqlite',
      },
    },
  },
  output: t.Object({
    sql: t.String(),
    dialect: t.String(),
    statement_type: t.String({ description: 'select, insert, update, delete, create, ... (of the first statement).' }),
    read_only: t.Boolean({ description: 'True when every statement is a SELECT.' }),
    tables: t.Array(t.String(), { description: 'Tables the SQL references.' }),
    explanation: t.String(),
    ...modelFields,
  }),
  examples: [
    {
      name: 'Top customers',
      input: {
        request: 'top 5 customers by total order amount',
        schema: 'customers(id, name); orders(id, customer_id, amount)',
        dialect: 'postgresql',
      },
      output: {
        sql: 'SELECT c.name, SUM(o.amount) AS total FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.name ORDER BY total DESC LIMIT 5',
        dialect: 'postgresql',
        statement_type: 'select',
        read_only: true,
        tables: ['customers', 'orders'],
        explanation: 'Joins customers to their orders, sums the amounts per customer and keeps the five largest.',
        model: 'gpt-4.1-mini',
        tokens_used: 298,
      },
    },
  ],
})
