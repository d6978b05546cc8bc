import type { SQL } from 'bun'
import type { SessionGenerationStore } from '../store'

/** The console's session generation on Postgres: one row shared by every instance (0 until the first sign-out). */
export class PgSessionGeneration implements SessionGenerationStore {
  constructor(private sql: SQL) {}

  async current(): Promise<number> {
    const rows = await this.sql`SELECT value FROM admin_state WHERE name = 'session_generation'`
    return rows.length ? Number(rows[0].value) : 0
  }

  async next(): Promise<number> {
    const [r] = await this.sql`
      INSERT INTO admin_state (name, value) VALUES ('session_generation', 1)
      ON CONFLICT (name) DO UPDATE SET value = admin_state.value + 1 RETURNING value`
    return Number(r.value)
  }
}
