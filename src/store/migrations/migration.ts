// What a migration is (index.ts runs them in order); its own module so that the migrations and
// their runner do not import each other.
import type { SecretBox } from '../../auth/secret-box.js';
import type { Queryable } from '../driver.js';

export interface Migration {
  version: number;
  name: string;
  sqlite: string;
  postgres: string;
  /** Rewrites existing rows after the SQL, in the same transaction (data no SQL text can convert). */
  data?: (tx: Queryable, context: MigrationContext) => Promise<void>;
}

/** What data steps may need besides the database. */
export interface MigrationContext {
  /** the server key (secrets at rest) */
  secrets: SecretBox;
}
