// The bulk screen's actions: reading a sheet, running the import (lpm-client-bulk's engine, one
// runner per browser), the downloads, the check for a create from elsewhere, the reset. Each
// changes the state (state.ts) and asks for a render.
import { MAX_PAGE } from "lpm-client/lazy";
import type { ImportReport, JournalEvent, JournalStore, NewUser, RowResult } from "lpm-client";
import { app, bulkClient, client, focusNext, handle, update, usersChanged } from "../../app";
import { forgetJob, forgetSavedJob, journalOf, loadJob, saveJob, type SavedJob } from "../../bulk-job";
import { FIELDS, SheetReadError, downloadRows, readSheet, readSheetFile, type Field } from "../../csv";
import { haltedBox, inWords } from "../../errors";
import { getLang, t } from "../../i18n";
import type { Ending } from "../../screen";
import { CHUNK, emptyCells, fieldLabel, fresh, intervalMs, notCreated, resultText, runRows, s, sheetName, sheetRow, unfinished } from "./state";

/**
 * The job's journal, watched for each row's outcome as the engine records it (stored first, then
 * read): the engine's `Progress` counts rows and names only the chunk out and the row looked up
 * now, which the views take from it.
 */
function watchedJournal(job: SavedJob): JournalStore {
  const store = journalOf(job);
  const see = (events: readonly JournalEvent[]) => {
    for (const e of events) {
      if (e.event === "chunkOutcomes") e.rows.forEach((row, i) => s.live.set(row, e.outcomes[i] as RowResult));
      else if (e.event === "rowsInDoubt") for (const row of e.rows) s.live.set(row, { kind: "inDoubt", reason: e.reason.kind });
      else if (e.event === "lookupResult") {
        if (e.result.kind === "notFound") s.live.delete(e.row);
        else s.live.set(e.row, e.result as RowResult);
      }
    }
    update();
  };
  return {
    async load() {
      const events = await store.load();
      see(events);
      return events;
    },
    async append(events) {
      await store.append(events);
      see(events);
    },
  };
}

export function applyMapping(): void {
  s.rows = s.source.map((src) => {
    const cells = emptyCells();
    s.mapping.forEach((f, col) => {
      if (f) cells[f] = (src.cells[col] ?? "").trim();
    });
    return { cells, include: true, line: src.line, problem: src.problem, warnings: src.warnings };
  });
}

/** Reads a sheet (a chosen file, or the pasted text as UTF-8, `name` null) into the editing table. */
export async function load(source: File | Uint8Array, name: string | null): Promise<void> {
  // Clear what the last sheet left at once: a slow read never shows beside the old rows.
  s.headers = [];
  s.mapping = [];
  s.source = [];
  s.rows = [];
  s.twice = [];
  s.readAs = null;
  s.error = null;
  update();
  try {
    const sheet = source instanceof Uint8Array ? await readSheet(source, sheetName(name)) : await readSheetFile(source);
    s.headers = sheet.headers;
    s.mapping = sheet.mapping;
    s.source = sheet.rows;
    s.readAs = { name, source: sheet.source };
    s.twice = sheet.twice;
    applyMapping();
    s.error = null;
    void checkRecentCreates();
  } catch (e) {
    if (!(e instanceof SheetReadError)) throw e;
    s.error = inWords(() => ({ text: t("sheetUnreadable", { name: sheetName(name), reason: e.messageIn(getLang()) }), retry: false, signOut: false, unreachable: false }));
  }
  update();
}

/** The engine's options from the screen and config.json (tests shorten the waits). */
function engineOptions() {
  return {
    chunkSize: CHUNK,
    lang: getLang(),
    ...(app.config.createIntervalMs !== undefined ? { intervalMs: app.config.createIntervalMs } : {}),
    ...(app.config.retryDelayMs !== undefined ? { retryDelayMs: app.config.retryDelayMs } : {}),
  };
}

/**
 * One runner per browser: the import holds this Web Lock while it runs, so a second tab (which
 * shares the IndexedDB job and its journal) is refused instead of sending the same rows again.
 */
const RUNNER_LOCK = "lpm-dashboard-import";

export async function run(job: SavedJob): Promise<void> {
  // Without the Web Locks API (browsers before 2022) the import runs unguarded.
  if (!navigator.locks) return runHere(job);
  await navigator.locks.request(RUNNER_LOCK, { ifAvailable: true }, async (lock) => {
    if (lock) return runHere(job);
    // Refused: said once, by the line that watches the other tab (not as an error beside it).
    focusNext("#elsewhere");
    void watchElsewhere();
  });
}

/** While another tab runs the import: say so, and read the job again once it lets go. */
export async function watchElsewhere(): Promise<void> {
  if (s.elsewhere || s.phase === "running" || !navigator.locks) return;
  const held = (await navigator.locks.query()).held?.some((l) => l.name === RUNNER_LOCK);
  if (!held) return;
  s.elsewhere = true;
  update();
  // Granted once the other tab's run ends (or the tab closes); released at once.
  await navigator.locks.request(RUNNER_LOCK, async () => {});
  s.elsewhere = false;
  s.checkedJournal = false;
  update();
}

function runHere(job: SavedJob): Promise<void> {
  const running = runLocked(job);
  s.running = running;
  return running;
}

async function runLocked(job: SavedJob): Promise<void> {
  s.phase = "running";
  s.stoppedHere = null;
  // The button pressed is gone: focus goes to the line that tells the progress.
  focusNext("#run-status");
  s.job = job;
  s.error = null;
  s.resumable = null;
  s.report = null;
  s.progress = null;
  s.live = new Map();
  const abort = (s.abort = new AbortController());
  // The job record's updates, in order (the last one settles before the record is deleted).
  let saving = Promise.resolve();
  update();
  try {
    const bulk = await bulkClient();
    await saveJob(job);
    const report = await bulk.importUsers(job.rows, {
      ...engineOptions(),
      journal: watchedJournal(job),
      signal: abort.signal,
      onProgress: (p) => {
        s.progress = p;
        const processed = job.rows.length - p.remaining;
        if (processed !== job.processed) {
          job.processed = processed;
          saving = saving.then(() => saveJob(job)).catch(() => {});
        }
        update();
      },
    });
    s.report = report;
    if (report.halted) s.error = haltedBox(report, "halted");
    if (unfinished(report)) {
      s.stoppedHere ??= "stopped";
      s.resumable = job;
      s.phase = "edit";
    } else {
      // Over: the journal and the rows (passwords) go; the report stays on screen.
      await saving;
      await forgetJob(job);
      s.phase = "done";
      focusNext(".done");
    }
  } catch (e) {
    // Aborted: the engine's report holds the rows as they stood; the journal resumes them.
    const partial = (e as { report?: ImportReport }).report;
    if (partial) s.report = partial;
    if (!abort.signal.aborted) s.error = handle(e, () => void run(job));
    s.stoppedHere ??= "stopped";
    await saving;
    s.resumable = (await loadJob()) ?? null;
    s.phase = "edit";
  } finally {
    s.abort = null;
    // Accounts were (maybe) created: the accounts screens read them again.
    usersChanged();
  }
}

export async function checkJournal(): Promise<void> {
  s.checkedJournal = true;
  // The bulk client loads with the screen, for its create interval (shown before a create).
  bulkClient().then((b) => { s.bulk = b; update(); }, (e) => { s.error = handle(e); });
  // The sheet reader too, so reading a sheet does not wait for it.
  import("lpm-sheets").catch(() => {});
  void watchElsewhere();
  const saved = await loadJob();
  if (s.phase !== "edit") return;
  s.resumable = saved ?? null;
  s.job = saved ?? null;
  update();
}

/** Every row not created, under the sheet's row number: those the platform or the job refused, and
 * those left out before sending, so the download is the sheet's rows still to do. */
export function downloadFailed(format: "csv" | "xlsx"): void {
  const report = s.report;
  const job = s.job;
  if (!report || !job) return;
  const rows = runRows();
  const leftOut = job.leftOut ?? [];
  const value = (r: NewUser | undefined, f: Field) => (r as unknown as Record<string, string> | undefined)?.[f] ?? "";
  const fields = FIELDS.filter((f) => rows.some((r) => value(r, f)) || leftOut.some(({ user }) => value(user, f)));
  const out = [
    ...report.rows.flatMap((res) => (notCreated(res.result) ? [{ n: sheetRow(job, res.row), user: rows[res.row], text: resultText(res.result) }] : [])),
    ...leftOut.map(({ n, user }) => ({ n, user, text: t("stLeftOut") })),
  ]
    .sort((a, b) => a.n - b.n)
    .map(({ n, user, text }) => [String(n), ...fields.map((f) => value(user, f)), text]);
  // One rule for the header: each field under the sheet's own header for it (the file maps the
  // same way when read again), the dashboard's columns (line, result) in the screen's language.
  void downloadRows([t("sheetLine"), ...fields.map((f) => job.headers?.[f] || fieldLabel(f)), t("resultCol")], out, format, "failed-rows");
}

/** Gives every included row without a password a random one (lpm-sheets: the command line's). */
export async function generatePasswords(): Promise<void> {
  const { randomPassword } = await import("lpm-sheets");
  for (const r of s.rows) {
    if (r.include && r.cells.password.trim() === "") {
      r.cells.password = randomPassword();
      r.generated = true;
    }
  }
  update();
}

/** The generated passwords as an .xlsx for handing out (the only copy outside this browser's job). */
export function downloadCredentials(): void {
  const rows = s.rows.filter((r) => r.generated).map((r) => [String(r.line), r.cells.name, r.cells.username, r.cells.email, r.cells.password]);
  void downloadRows([t("sheetLine"), ...(["name", "username", "email", "password"] as Field[]).map(fieldLabel)], rows, "xlsx", "credentials");
}

/**
 * Whether another bulk create went inside the create interval, not from this browser: the
 * interval is kept per browser, so another staff member's import (another browser, `lpm`) is seen
 * only on the platform. Read from the first page of accounts (the platform lists newest first in
 * its examples, without promising it). A note, not a wait: the user decides.
 */
export async function checkRecentCreates(): Promise<void> {
  try {
    const { users } = await client().getUsers({ start: 0, limit: MAX_PAGE });
    const ownLast = ((s.bulk ?? (await bulkClient())).nextCreateAllowedAt()?.getTime() ?? 0) - intervalMs();
    // Decision: a minute after this browser's last create covers its own call's accounts (a
    // chunk takes seconds) and a platform clock somewhat off.
    const recent = users.map((u) => Date.parse(u.createdAt) || 0)
      .filter((at) => at > ownLast + 60_000 && at + intervalMs() > Date.now()).sort((a, b) => b - a);
    // Decision: a bulk create is two accounts or more within 10 s of each other; a lone account
    // is most often a learner signing up, which would keep the note up on a busy platform.
    const pair = recent.findIndex((at, i) => i + 1 < recent.length && at - recent[i + 1]! <= 10_000);
    s.recentElsewhere = pair >= 0 ? recent[pair]! : null;
  } catch {
    // Only a note: the import's own calls report what the platform says.
    s.recentElsewhere = null;
  }
  update();
}

/** The note's time the user has seen, if any: Create goes ahead after it. */
let noteSeen: number | null = null;

/**
 * Create: the platform is read again first, as a colleague's import may have gone since the sheet
 * was read; a create from elsewhere not yet on screen is shown instead of starting, and the next
 * press goes ahead.
 */
export async function startCreate(job: () => SavedJob): Promise<void> {
  noteSeen = s.recentElsewhere ?? noteSeen;
  await checkRecentCreates();
  if (s.recentElsewhere !== null && s.recentElsewhere !== noteSeen) {
    noteSeen = s.recentElsewhere;
    focusNext("#recent-elsewhere");
    return;
  }
  await run(job());
}

/** Forgets the screen's session: a run stops; at a sign-out, the rows being edited and the job
 * kept in IndexedDB (its rows with their passwords, and its journal) go too. */
export async function resetBulk(why: Ending): Promise<string[]> {
  s.abort?.abort();
  // Decision: an expired token keeps the rows being edited and an unfinished job: the same person
  // signs in again and goes on; a sign-out forgets them (a shared computer's next user).
  if (why === "session") {
    Object.assign(s, { stoppedHere: null, checkedJournal: false, bulk: null });
    return [];
  }
  await s.running?.catch(() => {});
  const editing = s.rows.length;
  const job = await forgetSavedJob();
  Object.assign(s, fresh());
  noteSeen = null;
  update();
  return job.length ? job : editing ? [t("forgotRows", { n: editing })] : [];
}
