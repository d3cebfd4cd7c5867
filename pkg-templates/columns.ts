// Spreadsheet columns: the one alias table is the core's.
import { columnOf } from './wasm/lpm_client.js';
import type { NewUser } from './wasm/lpm_client.js';

/** For each spreadsheet header, the `NewUser` field it stands for (Vietnamese or English; case,
 * diacritics and punctuation ignored), or `null`; one alias table, in the core. */
export function mapColumns(headers: readonly string[]): (keyof NewUser | null)[] {
  return Array.from(headers, (h) => ((typeof h === 'string' && columnOf(h)) || null) as keyof NewUser | null);
}

