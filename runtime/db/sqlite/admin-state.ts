import type { Database } from 'bun:sqlite'
import { durably } from './connect'
import type { SessionGenerationStore } from '../store'

/** The console's session generation on SQLite (a row of admin_state; 0 until the first sign-out). */
export class SessionGeneration implements SessionGenerationStore {
  private read
  private bump

  constructor(private db: Database) {
    this.read = db.prepare(`SELECT value FROM admin_state WHERE name = 'session_generation'`)
    this.bump = db.prepare(
      `INSERT INTO admin_state (name, value) VALUES ('session_generation', 1)
       ON CONFLICT (name) DO UPDATE SET value = value + 1 RETURNING value`,
    )
  }

  current(): number {
    return (this.read.get() as { value: number } | null)?.value ?? 0
  }

  /** Fsync'd (`durably`): a sign-out that a power cut undid would revive the sessions it ended (a leaked cookie). */
  next(): number {
    return durably(this.db, () => (this.bump.get() as { value: number }).value)
  }
}
