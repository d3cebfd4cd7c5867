// Bulk create: paste rows or upload a sheet (CSV or .xlsx, read by lpm-sheets as the command line
// reads it), map columns, fix every cell with the package's validators
// live (en/vi), leave bad rows out, then create through lpm-client-bulk's import engine
// (`importUsers`, journaled in IndexedDB: see bulk-job.ts) with the create interval counted down,
// per-row results from its report, and the rows that were not created as CSV or .xlsx.
import { html, nothing } from "lit-html";
import { live } from "lit-html/directives/live.js";
import type { DoubtReason, ImportReport, Issue, JournalEvent, JournalStore, NewUser, Progress, RowResult } from "lpm-client";
import { validateCreateUsers } from "lpm-client/lazy";
import { app, bulkClient, client, focusNext, handle, update, usersChanged, type BulkClient } from "../app";
import { forgetJob, forgetSavedJob, jobAtRisk, journalOf, loadJob, newJob, saveJob, type SavedJob } from "../bulk-job";
import { FIELDS, REQUIRED, SheetReadError, downloadRows, problemText, readSheet, readSheetFile, twiceText, type Field, type Parsed } from "../csv";
import { haltedBox, inWords, type Described } from "../errors";
import { formatTime, formatWait } from "../format";
import { getLang, t, type Key } from "../i18n";
import type { Ending, Screen } from "../screen";
import { statusText } from "../server-texts";
import { errorBox } from "../ui";
import type { RowProblem } from "lpm-sheets";

/** The contract's maximum per create call. */
const CHUNK = 100;

interface Row {
  cells: Record<Field, string>;
  include: boolean;
  /** The line (CSV) or row (.xlsx) of the sheet it came from. */
  line: number;
  /** Why the sheet's row cannot be read as an account, until a cell of it is edited. */
  problem: RowProblem | null;
  /** Its password was generated here (it goes in the credentials download). */
  generated?: boolean;
}

const fresh = () => ({
  phase: "edit" as "edit" | "running" | "done",
  pasted: "",
  headers: [] as string[],
  mapping: [] as (Field | "")[],
  source: [] as Parsed["rows"],
  /** What the last sheet was (its name), and what it was read as: CSV and its delimiter, or the .xlsx sheet. */
  readAs: null as { name: string | null; source: Parsed["source"] } | null,
  /** The sheet's columns that stand for a field another column took (ignored). */
  twice: [] as Parsed["twice"],
  rows: [] as Row[],
  /** The job being (or last) run, its progress, and its report once the engine gave one. */
  job: null as SavedJob | null,
  progress: null as Progress | null,
  report: null as ImportReport | null,
  error: null as Described | null,
  abort: null as AbortController | null,
  /** An unfinished job (kept in IndexedDB) that "resume" continues. */
  resumable: null as SavedJob | null,
  checkedJournal: false,
  /** This session's lpm-client-bulk client, once loaded (the screen's create interval is its). */
  bulk: null as BulkClient | null,
  /** Each row's outcome as the job journals it, while it runs (the report comes at the end). */
  live: new Map<number, RowResult>(),
  /** Another tab of this browser is running the import (it holds the runner lock). */
  elsewhere: false,
  /** How the job stopped on this page, if it did (not found unfinished on load): said so. */
  stoppedHere: null as null | "paused" | "stopped",
  /** When a bulk create from elsewhere went, if inside the create interval (see
   * `checkRecentCreates`). */
  recentElsewhere: null as number | null,
  /** The user chose to send rows that break only the platform's documented rules. */
  sendAnyway: false,
  /** The run under way on this page: settles once its last journal event and job record are
   * written (a sign-out waits for it before forgetting them). */
  running: null as Promise<void> | null,
});
const s = fresh();

/**
 * The job's journal, watched: every event the engine stores (or reads back on a resume) updates
 * the per-row results shown while the job runs. The events are stored first, then read.
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

const runRows = (): NewUser[] => s.job?.rows ?? [];

function emptyCells(): Record<Field, string> {
  return Object.fromEntries(FIELDS.map((f) => [f, ""])) as Record<Field, string>;
}

function applyMapping(): void {
  s.rows = s.source.map((src) => {
    const cells = emptyCells();
    s.mapping.forEach((f, col) => {
      if (f) cells[f] = (src.cells[col] ?? "").trim();
    });
    return { cells, include: true, line: src.line, problem: src.problem };
  });
}

/** The name a sheet is shown by: a file's own, or "the pasted rows" in the screen's language. */
const sheetName = (name: string | null) => name ?? t("pastedRows");

/** Reads a sheet (a chosen file, or the pasted text as UTF-8, `name` null) into the editing table. */
async function load(source: File | Uint8Array, name: string | null): Promise<void> {
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

const shownFields = (): Field[] => FIELDS.filter((f) => REQUIRED.includes(f) || s.mapping.includes(f));

function toNewUser(r: Row): NewUser {
  const u: NewUser = { name: r.cells.name, username: r.cells.username, email: r.cells.email, password: r.cells.password };
  for (const f of FIELDS.slice(4)) if (r.cells[f]) (u as unknown as Record<string, string>)[f] = r.cells[f];
  return u;
}

/**
 * Issues per row index (into s.rows), from validateCreateUsers over every row in display order
 * (its duplicate messages name a row by its index: `issueText` names the sheet's line). A left-out row is validated as
 * an empty placeholder (empty values never count as duplicates) and its issues are dropped; so is
 * the batch-size issue, as the runner sends chunks of at most 100.
 */
const LEFT_OUT: NewUser = { name: "", username: "", email: "", password: "" };
function issuesByRow(): Map<number, Issue[]> {
  const issues = validateCreateUsers(s.rows.map((r) => (r.include ? toNewUser(r) : LEFT_OUT)), { lang: getLang() });
  const out = new Map<number, Issue[]>();
  for (const issue of issues) {
    const [row] = issue.path;
    if (typeof row !== "number" || !s.rows[row]?.include) continue;
    out.set(row, [...(out.get(row) ?? []), issue]);
  }
  // A row the sheet could not give (a cell showing #REF!, shifted cells) blocks until edited.
  s.rows.forEach((r, i) => {
    if (r.include && r.problem) out.set(i, [{ path: [i], code: "sheet", level: "contract", message: problemText(r.problem, getLang()) } as unknown as Issue, ...(out.get(i) ?? [])]);
  });
  return out;
}

// Contract-level issues block a row (the request is certain to fail); so do the platform's
// documented rules (a password "123", a username with a space or accents), unless the user
// chose "send anyway": the platform may accept them, but its own forms would not.
const blocks = (i: Issue) => i.level === "contract" || (i.level === "platform" && !s.sendAnyway);
const blocking = (list: Issue[] | undefined) => (list ?? []).some(blocks);

/** The issues of every row grouped by what they say (code and field): one line each, counted. */
function groupIssues(issues: Map<number, Issue[]>) {
  const groups = new Map<string, { issue: Issue; rows: number[] }>();
  for (const [row, list] of issues) {
    for (const issue of list) {
      const key = `${issue.code}/${String(issue.path[1] ?? "")}`;
      const g = groups.get(key) ?? { issue, rows: [] };
      if (!g.rows.includes(row)) g.rows.push(row);
      groups.set(key, g);
    }
  }
  return [...groups.values()].sort((a, b) => b.rows.length - a.rows.length);
}

/** For each field and value (trimmed, lower case), the first included row that has it: read once a
 * render, so naming the row a duplicate repeats costs no scan of the sheet per issue. */
type FirstRows = Map<string, number>;
function firstRows(): FirstRows {
  const first: FirstRows = new Map();
  s.rows.forEach((r, i) => {
    if (!r.include) return;
    for (const f of ["email", "username"] as const) {
      const key = `${f}\u0000${r.cells[f].trim().toLowerCase()}`;
      if (!first.has(key)) first.set(key, i);
    }
  });
  return first;
}

/** What an issue of row `row` says: the validator's words, but a duplicate names the sheet's line of
 * the row it repeats (the validator's message counts rows from 1, not the sheet's lines). */
function issueText(issue: Issue, row: number, firsts: FirstRows): string {
  if (!issue.code.startsWith("duplicate")) return issue.message;
  const first = repeated(issue, row, firsts);
  return first !== undefined ? t("dupOfLine", { line: s.rows[first].line }) : t("dupGroup");
}

/** The row (index) that row `row` repeats, by its duplicate issue's field. */
function repeated(issue: Issue, row: number, firsts: FirstRows): number | undefined {
  const f = String(issue.path[1]) as Field;
  const first = firsts.get(`${f}\u0000${s.rows[row].cells[f].trim().toLowerCase()}`);
  return first !== undefined && first < row ? first : undefined;
}

const SHOWN_ROWS = 8;
function issueGroupsView(issues: Map<number, Issue[]>, firsts: FirstRows) {
  const groups = groupIssues(issues);
  if (!groups.length) return nothing;
  const hasPlatform = groups.some((g) => g.issue.level === "platform");
  // A duplicate's row is named with the row it repeats ("row 9 repeats row 2").
  const rowText = (issue: Issue, row: number) => {
    const first = issue.code.startsWith("duplicate") ? repeated(issue, row, firsts) : undefined;
    return first === undefined ? String(s.rows[row].line) : t("dupPair", { line: s.rows[row].line, first: s.rows[first].line });
  };
  return html`<ul class="issue-groups">
      ${groups.map(({ issue, rows }) => html`<li class=${blocks(issue) ? "contract" : "platform"}>
        <strong>${t("issueRows", { n: rows.length })}</strong>: ${issue.code.startsWith("duplicate") ? `${fieldLabel(String(issue.path[1]) as Field)}: ${t("dupGroup")}` : issue.message}
        <span class="hint">(${t("rowN")} ${rows.slice(0, SHOWN_ROWS).map((row) => rowText(issue, row)).join(", ")}${rows.length > SHOWN_ROWS ? ", …" : ""})</span>
      </li>`)}
    </ul>
    ${hasPlatform
      ? html`<label class="check"><input id="send-anyway" type="checkbox" .checked=${live(s.sendAnyway)}
          @change=${(e: Event) => { s.sendAnyway = (e.target as HTMLInputElement).checked; update(); }} /> ${t("sendAnyway")}</label>`
      : nothing}`;
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

/** Whether a report leaves rows for a resume (in doubt, or not sent because the run stopped). */
const unfinished = (r: ImportReport) => r.counts.inDoubt + r.counts.notSent > 0;

/**
 * One runner per browser: the import holds this Web Lock while it runs, so a second tab (which
 * shares the IndexedDB job and its journal) is refused instead of sending the same rows again.
 */
const RUNNER_LOCK = "lpm-dashboard-import";

async function run(job: SavedJob): Promise<void> {
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
async function watchElsewhere(): Promise<void> {
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

async function checkJournal(): Promise<void> {
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

/** Why a row is in doubt, by the journal's code (the report's reasons are the engine's English). */
const DOUBT: Record<DoubtReason["kind"], Key> = {
  transport: "doubtTransport",
  unreadable: "doubtUnreadable",
  noMatchingItem: "doubtNoMatchingItem",
  noUserId: "doubtNoUserId",
  interrupted: "doubtInterrupted",
  alreadyInUse: "doubtAlreadyInUse",
};

/** Why rows were left unsent or unresolved: by the report's `haltedBy` (its `halted` is English). */
const stopWords = () => (s.report?.haltedBy ? t("stopHalted") : t("stopStopped"));

/** The result of a row in words, and whether it counts as not created (the CSV's rows). */
function resultText(r: RowResult | undefined): string {
  switch (r?.kind) {
    case "created":
      return t("stCreated");
    case "failed":
      return `${t("stFailed")}: ${statusText(r.status)}`;
    case "setAside":
      return `${t("stSetAside")}: ${r.issues.map((i) => i.message).join("; ")}`;
    case "conflict":
      return t("stConflict", { who: `${r.existing.username} <${r.existing.emails.join(", ")}>` });
    case "inDoubt": {
      // While running, the reason is the journal's code; in a report, the engine's words.
      const code = DOUBT[r.reason as DoubtReason["kind"]];
      return `${t("stInDoubt")} (${code ? t(code) : stopWords()})`;
    }
    case "notSent":
      return `${t("stNotSent")} (${stopWords()})`;
    default:
      return t("stPending");
  }
}
/** The sheet's line of the job's row `row` (the one number a row is named by on this screen). */
const sheetRow = (job: SavedJob, row: number) => job.sheetRows?.[row] ?? row + 1;

const notCreated = (r: RowResult | undefined) => r?.kind === "failed" || r?.kind === "setAside" || r?.kind === "conflict";

/** Every row not created, under the sheet's row number: those the platform or the job refused, and
 * those left out before sending, so the download is the sheet's rows still to do. */
function downloadFailed(format: "csv" | "xlsx"): void {
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

const fieldLabel = (f: Field) => t(`field${f}` as Key);
/** "hoc-vien.xlsx: .xlsx “Học viên”", "rows.csv: CSV (;)" in the screen's language. */
const readAsText = ({ name, source }: NonNullable<typeof s.readAs>) =>
  `${sheetName(name)}: ${source.format === "xlsx" ? `.xlsx “${source.sheetName}”` : `CSV (${source.delimiter === "\t" ? t("tabDelimiter") : source.delimiter})`}`;

/** Gives every included row without a password a random one (lpm-sheets: the command line's). */
async function generatePasswords(): Promise<void> {
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
function downloadCredentials(): void {
  const rows = s.rows.filter((r) => r.generated).map((r) => [String(r.line), r.cells.name, r.cells.username, r.cells.email, r.cells.password]);
  void downloadRows([t("sheetLine"), ...(["name", "username", "email", "password"] as Field[]).map(fieldLabel)], rows, "xlsx", "credentials");
}

/**
 * Whether another bulk create went inside the create interval, not from this browser: the
 * interval is kept per browser, so another staff member's import (another browser, `lpm`) is seen
 * only on the platform. Read from the first page of accounts (the platform lists newest first in
 * its examples, without promising it). A note, not a wait: the user decides.
 */
async function checkRecentCreates(): Promise<void> {
  try {
    const { users } = await client().getUsers({ start: 0, limit: 100 });
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
async function startCreate(job: () => SavedJob): Promise<void> {
  noteSeen = s.recentElsewhere ?? noteSeen;
  await checkRecentCreates();
  if (s.recentElsewhere !== null && s.recentElsewhere !== noteSeen) {
    noteSeen = s.recentElsewhere;
    focusNext("#recent-elsewhere");
    return;
  }
  await run(job());
}

/** The note of a create from elsewhere, while its interval lasts. */
function recentElsewhereView() {
  const at = s.recentElsewhere;
  if (at === null || at + intervalMs() <= Date.now()) return nothing;
  return html`<p id="recent-elsewhere" class="warning">${t("recentElsewhere", { time: formatTime(new Date(at)), until: formatTime(new Date(at + intervalMs())) })}</p>`;
}

/** The create interval the screen's client keeps (config.json or the contract's 10 minutes). */
const intervalMs = () => app.config.createIntervalMs ?? 600_000;

/**
 * When the screen's next create may go: the later of the engine's plan (while running) and the
 * interval store every client of this browser shares (the engine waits for it before its first
 * chunk without counting it in its own plan, so a wait before the first chunk is the store's).
 */
function nextSendAt(): number {
  const store = s.bulk?.nextCreateAllowedAt()?.getTime() ?? 0;
  if (s.phase === "running") return s.progress && !s.progress.remaining ? 0 : Math.max(s.progress?.nextSendAt ?? 0, store);
  return store;
}

/** When `rows` rows would be done, the first chunk at `nextSendAt()`, one interval each after. */
function expectedEnd(rows: number): number {
  const chunks = Math.ceil(rows / CHUNK);
  return Math.max(nextSendAt(), Date.now()) + Math.max(0, chunks - 1) * intervalMs();
}

/** The countdown and the expected end of `rows` rows left, while anything waits. */
function waitView(rows: number, key: "countdown" | "nextAllowed") {
  const wait = nextSendAt() - Date.now();
  if (rows <= 0) return nothing;
  return html`${wait > 0 ? html`<p class="countdown" role="timer">${t(key, { time: formatWait(wait) })}
      <span class="hint">${t("intervalPerBrowser")}</span></p>` : nothing}
    <p class="expected-end">${t("estimatedEnd", { time: formatTime(new Date(expectedEnd(rows))) })}</p>`;
}

/** Whether a countdown is on screen (main.ts ticks the clock while it is). */
export function bulkNeedsTick(): boolean {
  return location.hash.startsWith("#/bulk") && nextSendAt() > Date.now();
}

/** Every row of the sheet with its result, under the sheet's row numbers: the report's once
 * there is one, else the journal's so far; the rows left out before sending among them. */
function resultsTable() {
  const job = s.job;
  const rows = runRows();
  const report = s.report;
  if (!job || (!report && s.phase !== "running")) return nothing;
  const results: { n: number; user: NewUser | undefined; result: RowResult | undefined; out?: true }[] = [
    ...(report ? report.rows.map((r) => ({ row: r.row, result: r.result })) : rows.map((_, row) => ({ row, result: s.live.get(row) }))).map(
      ({ row, result }) => ({ n: sheetRow(job, row), user: rows[row], result }),
    ),
    ...(job.leftOut ?? []).map(({ n, user }) => ({ n, user, result: undefined, out: true as const })),
  ].sort((a, b) => a.n - b.n);
  return html`<div class="scroll"><table class="results cards">
    <caption class="sr-only">${t("resultCol")}</caption>
    <thead><tr><th scope="col">${t("sheetLine")}</th><th scope="col">${fieldLabel("name")}</th><th scope="col">${fieldLabel("username")}</th><th scope="col">${fieldLabel("email")}</th><th scope="col">${t("resultCol")}</th></tr></thead>
    <tbody>
      ${results.map(({ n, user: u, result, out }) => html`<tr class=${out ? "leftOut" : (result?.kind ?? "pending")}>
        <td data-label=${t("sheetLine")}>${n}</td><td data-label=${fieldLabel("name")}><span class="cell">${u?.name ?? ""}</span></td><td data-label=${fieldLabel("username")}><span class="cell">${u?.username ?? ""}</span></td>
        <td data-label=${fieldLabel("email")}><span class="cell">${u?.email ?? ""}</span></td><td data-label=${t("resultCol")}><span class="cell">${out ? t("stLeftOut") : resultText(result)}</span></td></tr>`)}
    </tbody>
  </table></div>`;
}

function progressView() {
  const total = runRows().length;
  const p = s.progress;
  const left = p ? p.remaining : total;
  const processed = total - left;
  return html`
    <p id="run-status" role="status" aria-live="polite">${p
      ? t("progressLine", { done: processed, total, ok: p.done, fail: p.failed + p.unresolved, aside: p.setAside, left })
      : t("starting")}</p>
    ${waitView(left, "countdown")}
    <progress max=${total} .value=${processed} aria-label=${t("progress")}></progress>`;
}

function resultsView() {
  const c = s.report?.counts;
  const notOk = c ? c.failed + c.conflicts + c.setAside : 0;
  const leftOut = s.job?.leftOut?.length ?? 0;
  return html`
    ${s.phase === "running"
      ? html`${progressView()}<p><button type="button" @click=${() => { s.stoppedHere = "paused"; s.abort?.abort(); focusNext("#resume-note"); }}>${t("stop")}</button></p>`
      : nothing}
    ${s.phase === "done" && c
      ? html`<p class="done" role="status">${t(leftOut ? "doneWithOut" : "done", { ok: c.created, fail: notOk, out: leftOut })}</p>
          <p>
            ${notOk + leftOut
              ? html`<button type="button" @click=${() => downloadFailed("csv")}>${t("downloadFailed")}</button>
                  <button type="button" @click=${() => downloadFailed("xlsx")}>${t("downloadFailedXlsx")}</button>`
              : nothing}
            <button type="button" @click=${() => { s.phase = "edit"; s.progress = null; s.report = null; s.job = null; s.rows = []; s.source = []; s.headers = []; s.pasted = ""; s.readAs = null; update(); }}>${t("newImport")}</button>
          </p>`
      : nothing}
    ${resultsTable()}`;
}

function editView() {
  const issues = issuesByRow();
  const firsts = firstRows();
  const fields = shownFields();
  // The e-mail inputs are as wide as the longest e-mail (in characters): none is cut at a laptop's
  // width; the table scrolls in its frame when every column is shown.
  const emailSize = Math.min(80, Math.max(20, ...s.rows.map((r) => r.cells.email.length + 2)));
  const included = s.rows.filter((r) => r.include);
  const bad = [...issues.entries()].filter(([, l]) => blocking(l)).map(([i]) => i);
  // Rows that repeat an earlier row, not their repeated fields (an e-mail and a username: one row).
  const dup = [...issues.values()].filter((list) => list.some((i) => i.code.startsWith("duplicate"))).length;
  const missing = REQUIRED.filter((f) => !s.mapping.includes(f));
  return html`
    <p>${t("bulkIntro")}</p>
    <div class="input-pair">
      <div>
        <label for="paste">${t("pasteLabel")}</label>
        <textarea id="paste" rows="5" .value=${live(s.pasted)} @input=${(e: Event) => { s.pasted = (e.target as HTMLTextAreaElement).value; }}></textarea>
        <button type="button" @click=${() => void load(new TextEncoder().encode(s.pasted), null)}>${t("readPasted")}</button>
      </div>
      <div>
        <label for="csv-file">${t("uploadCsv")}</label>
        <input id="csv-file" type="file" accept=".xlsx,.csv,.tsv,.txt,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" @change=${async (e: Event) => {
          const f = (e.target as HTMLInputElement).files?.[0];
          if (f) await load(f, f.name);
        }} />
      </div>
    </div>
    ${s.headers.length
      ? html`<fieldset class="mapping">
          <legend>${t("columnMap")}</legend>
          ${s.headers.map(
            (h, col) => html`<label>${t("columnFor", { header: h })}
              <select @change=${(e: Event) => { s.mapping[col] = (e.target as HTMLSelectElement).value as Field | ""; applyMapping(); update(); }}>
                <option value="" ?selected=${s.mapping[col] === ""}>${t("ignoreColumn")}</option>
                ${FIELDS.map((f) => html`<option value=${f} ?selected=${s.mapping[col] === f}>${fieldLabel(f)}</option>`)}
              </select></label>`,
          )}
          ${missing.length ? html`<p class="warning" role="alert">${t("unmappedRequired", { cols: missing.map(fieldLabel).join(", ") })}</p>` : nothing}
          ${s.twice.map((w) => html`<p class="warning">${twiceText({ ...w, field: fieldLabel(w.field) }, getLang())}</p>`)}
        </fieldset>`
      : nothing}
    ${s.rows.length
      ? html`<p id="rows-summary" role="status">${t("rowsSummary", { n: s.rows.length, bad: bad.length, out: s.rows.length - included.length, dup })}</p>
          ${s.readAs ? html`<p class="hint">${t("readAs", { source: readAsText(s.readAs) })}</p>` : nothing}
          ${issueGroupsView(issues, firsts)}
          <p>${t("chunks", { n: CHUNK, time: formatWait(intervalMs()) })}</p>
          ${recentElsewhereView()}
          ${waitView(included.length, "nextAllowed")}
          <p>
            <button type="button" ?disabled=${!s.rows.some((r) => r.include && r.cells.password.trim() === "")} @click=${() => void generatePasswords()}>${t("generatePasswords")}</button>
            ${s.rows.some((r) => r.generated)
              ? html`<button type="button" @click=${downloadCredentials}>${t("downloadCredentials")}</button>
                  <span class="warning" role="note">${t("credentialsWarning", { n: s.rows.filter((r) => r.generated).length })}</span>`
              : nothing}
          </p>
          <p>
            <button type="button" ?disabled=${!bad.length} @click=${() => { for (const i of bad) s.rows[i].include = false; focusNext("#rows-summary"); }}>${t("leaveOutBad")}</button>
            <button type="button" class="primary" ?disabled=${bad.length > 0 || included.length === 0 || missing.length > 0}
              @click=${() => void startCreate(() => newJob(
                included.map(toNewUser),
                app.session!.baseUrl,
                s.rows.flatMap((r) => (r.include ? [r.line] : [])),
                s.rows.flatMap((r) => (r.include ? [] : [{ n: r.line, user: toNewUser(r) }])),
                Object.fromEntries(s.mapping.flatMap((f, col) => (f ? [[f, s.headers[col]]] : []))),
              ))}>${t("createButton", { n: included.length })}</button>
            ${bad.length ? html`<span class="hint">${t("blockedByErrors")}</span>` : nothing}
          </p>
          <div class="scroll">
            <table class="edit cards">
              <caption class="sr-only">${t("bulkTitle")}</caption>
              <thead><tr><th scope="col">${t("sheetLine")}</th><th scope="col">${t("include")}</th>${fields.map((f) => html`<th scope="col">${fieldLabel(f)}</th>`)}</tr></thead>
              <tbody>
                ${s.rows.map((r, i) => {
                  const list = issues.get(i) ?? [];
                  return html`<tr class=${!r.include ? "out" : blocking(list) ? "bad" : ""} data-line=${r.line}>
                    <td data-label=${t("sheetLine")}>${r.line}${r.problem && r.include ? html`<span class="issue contract sheet-problem">${problemText(r.problem, getLang())}</span>` : nothing}</td>
                    <td data-label=${t("include")}><input type="checkbox" aria-label=${t("includeRow", { n: r.line })} .checked=${live(r.include)} @change=${(e: Event) => { r.include = (e.target as HTMLInputElement).checked; update(); }} /></td>
                    ${fields.map((f) => {
                      const cellIssues = list.filter((x) => x.path[1] === f);
                      const id = `issue-${i}-${f}`;
                      return html`<td class=${`field field-${f}`} data-label=${fieldLabel(f)}>
                        <input type="text" size=${f === "email" ? emailSize : nothing} class=${cellIssues.some(blocks) ? "invalid" : cellIssues.length ? "warn" : ""}
                          aria-label=${t("cellLabel", { field: fieldLabel(f), n: r.line })} aria-invalid=${cellIssues.some(blocks) ? "true" : "false"}
                          aria-describedby=${cellIssues.length ? id : nothing}
                          .value=${live(r.cells[f])} @input=${(e: Event) => { r.cells[f] = (e.target as HTMLInputElement).value; r.problem = null; update(); }} />
                        ${cellIssues.length ? html`<span id=${id} class=${`issue ${cellIssues.some(blocks) ? "contract" : "platform"}`}>${cellIssues.map((x) => issueText(x, i, firsts)).join("; ")}</span>` : nothing}
                      </td>`;
                    })}
                  </tr>`;
                })}
              </tbody>
            </table>
          </div>`
      : nothing}`;
}

function bulkView() {
  if (!s.checkedJournal) void checkJournal();
  const resumable = s.resumable;
  return html`<main id="main">
    <h1>${t("bulkTitle")}</h1>
    ${errorBox(s.error, resumable?.baseUrl === app.session?.baseUrl ? () => void run(resumable!) : undefined)}
    ${s.elsewhere && !(resumable && s.phase === "edit") ? html`<div id="elsewhere" class="error" role="alert"><p>${t("runningElsewhere")}</p></div>` : nothing}
    ${resumable && s.phase === "edit"
      ? html`<div class="note">
          <p id="resume-note" role="status">${t(s.stoppedHere === "paused" ? "pausedNote" : s.stoppedHere ? "stoppedNote" : "resumeFound", { done: resumable.processed, total: resumable.rows.length })}</p>
          ${waitView(resumable.rows.length - resumable.processed, "nextAllowed")}
          ${s.elsewhere ? html`<p id="elsewhere" class="warning" role="status">${t("runningElsewhere")}</p>` : nothing}
          ${resumable.baseUrl === app.session?.baseUrl
            ? html`<button type="button" class="primary" aria-disabled=${s.elsewhere ? "true" : "false"} @click=${() => void run(resumable)}>${t("resume")}</button>`
            : html`<p class="warning">${t("resumeOtherSite", { site: resumable.baseUrl })}</p>`}
          <button type="button" @click=${async () => { await forgetJob(resumable); s.resumable = null; s.job = null; s.report = null; update(); }}>${t("discard")}</button>
        </div>`
      : nothing}
    ${s.phase !== "edit" ? resultsView() : resumable ? resultsTable() : editView()}
  </main>`;
}

/** Forgets the screen's session: a run stops; at a sign-out, the rows being edited and the job
 * kept in IndexedDB (its rows with their passwords, and its journal) go too. */
async function resetBulk(why: Ending): Promise<string[]> {
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

export const bulkScreen: Screen = {
  route: "bulk",
  nav: "navBulk",
  view: bulkView,
  reset: resetBulk,
  atRisk: () => jobAtRisk(s.phase === "running" ? runRows().length - (s.progress?.remaining ?? runRows().length) : undefined),
};
