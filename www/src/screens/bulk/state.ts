// The bulk screen's state, and what is read from it (no I/O, no rendering): the rows being
// prepared and their issues, the job and its progress, the words for a row's result. Its actions
// (actions.ts) change it; its views (view.ts) render it.
import type { DoubtReason, ImportReport, Issue, NewUser, Progress, RowResult } from "lpm-client";
import { CREATE_INTERVAL_MS, MAX_ITEMS_PER_CALL, validateCreateUsers } from "lpm-client/lazy";
import type { RowProblem } from "lpm-sheets";
import { app, type BulkClient } from "../../app";
import type { SavedJob } from "../../bulk-job";
import { FIELDS, REQUIRED, problemText, type Field, type Parsed } from "../../csv";
import type { Described } from "../../errors";
import { getLang, t, type Key } from "../../i18n";
import { statusText } from "../../server-texts";

/** The contract's maximum per create call. */
export const CHUNK = MAX_ITEMS_PER_CALL;

export interface Row {
  cells: Record<Field, string>;
  include: boolean;
  /** The line (CSV) or row (.xlsx) of the sheet it came from. */
  line: number;
  /** Why the sheet's row cannot be read as an account, until a cell of it is edited. */
  problem: RowProblem | null;
  /** Cells of columns that are no account field showing an error: said, the row is read. */
  warnings?: RowProblem[];
  /** Its password was generated here (it goes in the credentials download). */
  generated?: boolean;
}

export const fresh = () => ({
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
export const s = fresh();

export const runRows = (): NewUser[] => s.job?.rows ?? [];

export function emptyCells(): Record<Field, string> {
  return Object.fromEntries(FIELDS.map((f) => [f, ""])) as Record<Field, string>;
}

/** The name a sheet is shown by: a file's own, or "the pasted rows" in the screen's language. */
export const sheetName = (name: string | null) => name ?? t("pastedRows");

export const shownFields = (): Field[] => FIELDS.filter((f) => REQUIRED.includes(f) || s.mapping.includes(f));

export function toNewUser(r: Row): NewUser {
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
export const LEFT_OUT: NewUser = { name: "", username: "", email: "", password: "" };
export function issuesByRow(): Map<number, Issue[]> {
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
export const blocks = (i: Issue) => i.level === "contract" || (i.level === "platform" && !s.sendAnyway);
export const blocking = (list: Issue[] | undefined) => (list ?? []).some(blocks);

/** The issues of every row grouped by what they say (code and field): one line each, counted. */
export function groupIssues(issues: Map<number, Issue[]>) {
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
export type FirstRows = Map<string, number>;
export function firstRows(): FirstRows {
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
export function issueText(issue: Issue, row: number, firsts: FirstRows): string {
  if (!issue.code.startsWith("duplicate")) return issue.message;
  const first = repeated(issue, row, firsts);
  return first !== undefined ? t("dupOfLine", { line: s.rows[first].line }) : t("dupGroup");
}

/** The row (index) that row `row` repeats, by its duplicate issue's field. */
export function repeated(issue: Issue, row: number, firsts: FirstRows): number | undefined {
  const f = String(issue.path[1]) as Field;
  const first = firsts.get(`${f}\u0000${s.rows[row].cells[f].trim().toLowerCase()}`);
  return first !== undefined && first < row ? first : undefined;
}

/** Whether a report leaves rows for a resume (in doubt, or not sent because the run stopped). */
export const unfinished = (r: ImportReport) => r.counts.inDoubt + r.counts.notSent > 0;

/** Why a row is in doubt, by the journal's code (the report's reasons are the engine's English). */
export const DOUBT: Record<DoubtReason["kind"], Key> = {
  transport: "doubtTransport",
  unreadable: "doubtUnreadable",
  noMatchingItem: "doubtNoMatchingItem",
  noUserId: "doubtNoUserId",
  interrupted: "doubtInterrupted",
  alreadyInUse: "doubtAlreadyInUse",
};

/** Why rows were left unsent or unresolved: by the report's `haltedBy` (its `halted` is English). */
export const stopWords = () => (s.report?.haltedBy ? t("stopHalted") : t("stopStopped"));

/** The result of a row in words, and whether it counts as not created (the CSV's rows). */
export function resultText(r: RowResult | undefined): string {
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
/** A row's result while its job runs, as the engine says it: a row of the chunk out is being sent;
 * a row in doubt is looked up by this run (the one looked up now says so). */
export function liveText(row: number, r: RowResult | undefined, p: RunProgress): string {
  if (!r && p.sending?.rows.includes(row)) return t("stSending");
  if (r?.kind !== "inDoubt") return resultText(r);
  if (p.lookingUp === row) return t("stLookingUp");
  const code = DOUBT[r.reason as DoubtReason["kind"]];
  return t("stInDoubtRunning", { reason: code ? t(code) : stopWords() });
}
/** The sheet's line of the job's row `row` (the one number a row is named by on this screen). */
export const sheetRow = (job: SavedJob, row: number) => job.sheetRows?.[row] ?? row + 1;

export const notCreated = (r: RowResult | undefined) => r?.kind === "failed" || r?.kind === "setAside" || r?.kind === "conflict";

export const fieldLabel = (f: Field) => t(`field${f}` as Key);
/** "hoc-vien.xlsx: .xlsx “Học viên”", "rows.csv: CSV (;)" in the screen's language. */
export const readAsText = ({ name, source }: NonNullable<typeof s.readAs>) =>
  `${sheetName(name)}: ${source.format !== "csv" ? `.${source.format} “${source.sheetName}”` : `CSV (${source.delimiter === "\t" ? t("tabDelimiter") : source.delimiter})`}`;

/** The create interval the screen's client keeps (config.json or the contract's 10 minutes). */
export const intervalMs = () => app.config.createIntervalMs ?? CREATE_INTERVAL_MS;

/**
 * When a create may go before a job runs: the interval store every client of this browser shares
 * (while a job runs, the engine says it: `runProgress`).
 */
export const storeNextSendAt = (): number => s.bulk?.nextCreateAllowedAt()?.getTime() ?? 0;

/** What waits before `left` rows are done (0 or undefined: nothing waits, or not known). */
export interface Wait {
  left: number;
  nextSendAt: number | undefined;
  expectedEnd: number | undefined;
}

/**
 * Before a job runs (the editor, an unfinished job's note) no engine plans yet: the first chunk at
 * the store's time, one interval each after.
 */
export function waitFor(left: number): Wait {
  const next = storeNextSendAt();
  return { left, nextSendAt: next, expectedEnd: Math.max(next, Date.now()) + Math.max(0, Math.ceil(left / CHUNK) - 1) * intervalMs() };
}

/**
 * A running (or just stopped) job as its views show it, in one object: the engine's `Progress`
 * as it says it, nothing re-derived (a time it does not know stays absent).
 */
export interface RunProgress extends Wait {
  /** Whether the engine has told any progress yet. */
  started: boolean;
  total: number;
  processed: number;
  created: number;
  failed: number;
  setAside: number;
  /** The chunk out, waiting for the platform's answer: its rows and since when. */
  sending: Progress["sending"];
  /** Rows whose outcome is unknown, which this run looks up before sending again. */
  inDoubt: number;
  /** The row looked up now. */
  lookingUp: number | undefined;
  /** Calls failed in a row (tried again), and the last one's words (the engine's). */
  retries: number;
  lastError: string | undefined;
  warning: string | undefined;
}
export function runProgress(): RunProgress {
  const total = runRows().length;
  const p = s.progress;
  const left = p ? p.remaining : total;
  return {
    left,
    nextSendAt: p?.nextSendAt,
    expectedEnd: p?.estimatedEndAt,
    started: !!p,
    total,
    processed: total - left,
    created: p?.done ?? 0,
    failed: p ? p.failed + p.unresolved : 0,
    setAside: p?.setAside ?? 0,
    sending: p?.sending,
    inDoubt: p?.inDoubt ?? 0,
    lookingUp: p?.lookingUp,
    retries: p?.retries ?? 0,
    lastError: p?.lastError,
    warning: p?.warning,
  };
}

/** When the screen's next create may go, as the engine (running) or the store (not) says. */
const nextSendAt = () => (s.phase === "running" ? (s.progress?.nextSendAt ?? 0) : storeNextSendAt());

/** Whether a countdown is on screen (main.ts ticks the clock while it is). */
export function bulkNeedsTick(): boolean {
  return location.hash.startsWith("#/bulk") && nextSendAt() > Date.now();
}
