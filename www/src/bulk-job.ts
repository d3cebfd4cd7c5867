// The bulk screen's job record, beside the package's journal of the job.
//
// The import itself is lpm-client-bulk's engine (`importUsers`): it chunks, keeps the create
// interval, journals every step in IndexedDB (`indexedDbJournal`) and looks rows up after a lost
// answer. Its journal names rows by e-mail and username only, so a reload needs the rows back to
// resume: they are kept here (passwords included) under the job's id, which also names the
// journal, and both are deleted when the job is over or discarded.
import { indexedDbJournal, type NewUser } from "lpm-client/lazy";
import { db } from "./db";
import { t } from "./i18n";

export interface SavedJob {
  /** Names the job's journal (`import-<id>`): a new job never reads an old job's events. */
  id: string;
  rows: NewUser[];
  /** The platform the rows go to: a job is resumed only against the same address. */
  baseUrl: string;
  /** Rows processed when last told (for the "unfinished import" note after a reload). */
  processed: number;
  /** The sheet's number of each row sent (`rows[i]` is row `sheetRows[i]`), as the edit table
   * numbered them; absent in a job saved before they were kept (then `i + 1`). */
  sheetRows?: number[];
  /** The rows left out before sending, with their sheet numbers: shown among the results. */
  leftOut?: { n: number; user: NewUser }[];
  /** The sheet's own header of each field's column (the failed rows go back under them). */
  headers?: Partial<Record<string, string>>;
}

const KEY = "current";

export const newJob = (rows: NewUser[], baseUrl: string, sheetRows?: number[], leftOut?: SavedJob["leftOut"], headers?: SavedJob["headers"]): SavedJob => ({
  id: crypto.randomUUID(),
  rows,
  baseUrl,
  processed: 0,
  sheetRows,
  leftOut,
  headers,
});
export const journalOf = (job: SavedJob) => indexedDbJournal(`import-${job.id}`);

export async function loadJob(): Promise<SavedJob | undefined> {
  return (await db).get("imports", KEY) as Promise<SavedJob | undefined>;
}

export async function saveJob(job: SavedJob): Promise<void> {
  await (await db).put("imports", structuredClone(job), KEY);
}

/** Forgets the job: its journal and its rows. */
export async function forgetJob(job: SavedJob): Promise<void> {
  await journalOf(job).clear();
  await (await db).delete("imports", KEY);
}

/** The unfinished job a sign-out would remove, in words (`done` rows of it processed so far),
 * or null when there is none. */
export async function jobAtRisk(done?: number): Promise<string | null> {
  const saved = await loadJob();
  if (!saved) return null;
  return t(done === undefined ? "riskJob" : "riskRunning", { done: done ?? saved.processed, total: saved.rows.length });
}

/** Forgets the unfinished job, if any (a sign-out): what went, in words. */
export async function forgetSavedJob(): Promise<string[]> {
  const saved = await loadJob();
  if (!saved) return [];
  await forgetJob(saved);
  return [t("forgotJob", { n: saved.rows.length })];
}
