// Bulk create: paste rows or upload a sheet (CSV or .xlsx, read by lpm-sheets as the command line
// reads it), map columns, fix every cell with the package's validators
// live (en/vi), leave bad rows out, then create through lpm-client-bulk's import engine
// (`importUsers`, journaled in IndexedDB: see bulk-job.ts) with the create interval counted down,
// per-row results from its report, and the rows that were not created as CSV or .xlsx.
import { html, nothing } from "lit-html";
import { live } from "lit-html/directives/live.js";
import { validateCreateUsers, type ImportReport, type Issue, type NewUser, type Progress, type RowResult } from "lpm-client";
import { app, bulkClient, handle, update, type BulkClient } from "../app";
import { forgetJob, journalOf, loadJob, newJob, saveJob, type SavedJob } from "../bulk-job";
import { FIELDS, REQUIRED, SheetReadError, downloadRows, readSheet, readSheetFile, type Field } from "../csv";
import type { Described } from "../errors";
import { formatTime, formatWait } from "../format";
import { getLang, t, type Key } from "../i18n";
import { errorBox } from "../ui";

/** The contract's maximum per create call. */
const CHUNK = 100;

interface Row {
  cells: Record<Field, string>;
  include: boolean;
  /** The line (CSV) or row (.xlsx) of the sheet it came from. */
  line: number;
  /** Why the sheet's row cannot be read as an account, until a cell of it is edited. */
  problem: string | null;
  /** Its password was generated here (it goes in the credentials download). */
  generated?: boolean;
}

const s = {
  phase: "edit" as "edit" | "running" | "done",
  pasted: "",
  headers: [] as string[],
  mapping: [] as (Field | "")[],
  source: [] as { line: number; cells: string[]; problem: string | null }[],
  /** What the last sheet was read as (CSV and its delimiter, or the .xlsx sheet). */
  readAs: "",
  /** The sheet's columns that stand for a field another column took (ignored), in words. */
  twice: [] as string[],
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
};

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

/** Reads a sheet (a chosen file, or the pasted text as UTF-8) into the editing table. */
async function load(source: File | Uint8Array, name: string): Promise<void> {
  try {
    const sheet = source instanceof Uint8Array ? await readSheet(source, name, getLang()) : await readSheetFile(source, getLang());
    s.headers = sheet.headers;
    s.mapping = sheet.mapping;
    s.source = sheet.rows;
    s.readAs = sheet.source;
    s.twice = sheet.twice;
    applyMapping();
    s.error = null;
  } catch (e) {
    if (!(e instanceof SheetReadError)) throw e;
    s.headers = [];
    s.mapping = [];
    s.source = [];
    s.rows = [];
    s.twice = [];
    s.error = { text: t("sheetUnreadable", { name, reason: e.message }), retry: false, signOut: false, unreachable: false };
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
 * Issues per row index (into s.rows), from validateCreateUsers over every row in display order,
 * so its "already in row N" messages name the rows the user sees. A left-out row is validated as
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
    if (r.include && r.problem) out.set(i, [{ path: [i], code: "sheet", level: "contract", message: r.problem } as unknown as Issue, ...(out.get(i) ?? [])]);
  });
  return out;
}

// Contract-level issues block a row (the request is certain to fail); platform-level ones are
// warnings, as the package's client itself sends them unless strictPlatformRules is set.
const blocking = (list: Issue[] | undefined) => (list ?? []).some((i) => i.level === "contract");

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

async function run(job: SavedJob): Promise<void> {
  s.phase = "running";
  s.job = job;
  s.error = null;
  s.resumable = null;
  s.report = null;
  s.progress = null;
  const abort = (s.abort = new AbortController());
  // The job record's updates, in order (the last one settles before the record is deleted).
  let saving = Promise.resolve();
  update();
  try {
    const bulk = await bulkClient();
    await saveJob(job);
    const report = await bulk.importUsers(job.rows, {
      ...engineOptions(),
      journal: journalOf(job),
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
    if (report.halted) s.error = { text: t("halted", { reason: report.halted }), retry: true, signOut: false, unreachable: false };
    if (unfinished(report)) {
      s.resumable = job;
      s.phase = "edit";
    } else {
      // Over: the journal and the rows (passwords) go; the report stays on screen.
      await saving;
      await forgetJob(job);
      s.phase = "done";
    }
  } catch (e) {
    // Aborted: the engine's report holds the rows as they stood; the journal resumes them.
    const partial = (e as { report?: ImportReport }).report;
    if (partial) s.report = partial;
    if (!abort.signal.aborted) s.error = handle(e, () => void run(job));
    s.resumable = (await loadJob()) ?? null;
    s.phase = "edit";
  } finally {
    s.abort = null;
    update();
  }
}

async function checkJournal(): Promise<void> {
  s.checkedJournal = true;
  // The bulk client loads with the screen, for its create interval (shown before a create).
  bulkClient().then((b) => { s.bulk = b; update(); }, (e) => { s.error = handle(e); });
  // The sheet reader too, so reading a sheet does not wait for it (~11 KB gzip).
  import("lpm-sheets").catch(() => {});
  const saved = await loadJob();
  if (saved && s.phase === "edit") {
    s.resumable = saved;
    s.job = saved;
    update();
  }
}

/** The result of a row in words, and whether it counts as not created (the CSV's rows). */
function resultText(r: RowResult | undefined): string {
  switch (r?.kind) {
    case "created":
      return t("stCreated");
    case "failed":
      return `${t("stFailed")}: ${r.status}`;
    case "setAside":
      return `${t("stSetAside")}: ${r.issues.map((i) => i.message).join("; ")}`;
    case "conflict":
      return t("stConflict", { who: `${r.existing.username} <${r.existing.emails.join(", ")}>` });
    case "inDoubt":
      return `${t("stInDoubt")} (${r.reason})`;
    case "notSent":
      return `${t("stNotSent")} (${r.reason})`;
    default:
      return t("stPending");
  }
}
const notCreated = (r: RowResult | undefined) => r?.kind === "failed" || r?.kind === "setAside" || r?.kind === "conflict";

function downloadFailed(format: "csv" | "xlsx"): void {
  const report = s.report;
  if (!report) return;
  const rows = runRows();
  const value = (r: NewUser, f: Field) => (r as unknown as Record<string, string>)[f] ?? "";
  const fields = FIELDS.filter((f) => rows.some((r) => value(r, f)));
  const out = report.rows.flatMap((res) => (notCreated(res.result) ? [[...fields.map((f) => value(rows[res.row], f)), resultText(res.result)]] : []));
  void downloadRows([...fields, t("resultCol")], out, format, "failed-rows");
}

const fieldLabel = (f: Field) => t(`field${f}` as Key);

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

/** When the screen's next create may go: the engine's plan while running, else the client's. */
function nextSendAt(): number {
  if (s.phase === "running") return s.progress?.nextSendAt ?? 0;
  return s.bulk?.nextCreateAllowedAt()?.getTime() ?? 0;
}

/** Whether a countdown is on screen (main.ts ticks the clock while it is). */
export function bulkNeedsTick(): boolean {
  return location.hash.startsWith("#/bulk") && nextSendAt() > Date.now();
}

function resultsTable() {
  const report = s.report;
  if (!report) return s.phase === "running" ? html`<p class="hint">${t("resultsAtEnd")}</p>` : nothing;
  const rows = runRows();
  return html`<table class="results">
    <caption class="sr-only">${t("resultCol")}</caption>
    <thead><tr><th scope="col">${t("rowN")}</th><th scope="col">${fieldLabel("name")}</th><th scope="col">${fieldLabel("email")}</th><th scope="col">${t("resultCol")}</th></tr></thead>
    <tbody>
      ${report.rows.map((res) => html`<tr class=${res.result.kind}><td>${res.row + 1}</td><td>${rows[res.row]?.name ?? ""}</td><td>${res.email}</td><td>${resultText(res.result)}</td></tr>`)}
    </tbody>
  </table>`;
}

function progressView() {
  const total = runRows().length;
  const p = s.progress;
  if (!p) return html`<p role="status">${t("starting")}</p>`;
  const processed = total - p.remaining;
  const waitMs = (p.nextSendAt ?? 0) - Date.now();
  return html`
    <p role="status" aria-live="polite">${t("progressLine", { done: processed, total, ok: p.done, fail: p.failed + p.unresolved, aside: p.setAside, left: p.remaining })}</p>
    ${waitMs > 0 ? html`<p class="countdown" role="timer">${t("countdown", { time: formatWait(waitMs) })}</p>` : nothing}
    ${p.estimatedEndAt ? html`<p>${t("estimatedEnd", { time: formatTime(new Date(p.estimatedEndAt)) })}</p>` : nothing}
    <progress max=${total} .value=${processed} aria-label=${t("progress")}></progress>`;
}

function resultsView() {
  const c = s.report?.counts;
  const notOk = c ? c.failed + c.conflicts + c.setAside : 0;
  return html`
    ${s.phase === "running"
      ? html`${progressView()}<p><button type="button" @click=${() => s.abort?.abort()}>${t("stop")}</button></p>`
      : nothing}
    ${s.phase === "done" && c
      ? html`<p class="done" role="status">${t("done", { ok: c.created, fail: notOk })}</p>
          <p>
            ${notOk
              ? html`<button type="button" @click=${() => downloadFailed("csv")}>${t("downloadFailed")}</button>
                  <button type="button" @click=${() => downloadFailed("xlsx")}>${t("downloadFailedXlsx")}</button>`
              : nothing}
            <button type="button" @click=${() => { s.phase = "edit"; s.progress = null; s.report = null; s.job = null; s.rows = []; s.source = []; s.headers = []; s.pasted = ""; s.readAs = ""; update(); }}>${t("newImport")}</button>
          </p>`
      : nothing}
    ${resultsTable()}`;
}

function editView() {
  const issues = issuesByRow();
  const fields = shownFields();
  const included = s.rows.filter((r) => r.include);
  const bad = [...issues.entries()].filter(([, l]) => blocking(l)).map(([i]) => i);
  const dup = [...issues.values()].flat().filter((i) => i.code.startsWith("duplicate")).length;
  const missing = REQUIRED.filter((f) => !s.mapping.includes(f));
  const next = nextSendAt();
  return html`
    <p>${t("bulkIntro")}</p>
    <div class="input-pair">
      <div>
        <label for="paste">${t("pasteLabel")}</label>
        <textarea id="paste" rows="5" .value=${live(s.pasted)} @input=${(e: Event) => { s.pasted = (e.target as HTMLTextAreaElement).value; }}></textarea>
        <button type="button" @click=${() => void load(new TextEncoder().encode(s.pasted), t("pastedRows"))}>${t("readPasted")}</button>
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
          ${s.twice.map((w) => html`<p class="warning">${w}</p>`)}
        </fieldset>`
      : nothing}
    ${s.rows.length
      ? html`<p role="status">${t("rowsSummary", { n: s.rows.length, bad: bad.length, out: s.rows.length - included.length, dup })}</p>
          ${s.readAs ? html`<p class="hint">${t("readAs", { source: s.readAs })}</p>` : nothing}
          <p>${t("chunks", { n: CHUNK, time: formatWait(app.config.createIntervalMs ?? 600_000) })}</p>
          ${next > Date.now() ? html`<p class="countdown" role="timer">${t("nextAllowed", { time: formatWait(next - Date.now()) })}</p>` : nothing}
          <p>
            <button type="button" ?disabled=${!s.rows.some((r) => r.include && r.cells.password.trim() === "")} @click=${() => void generatePasswords()}>${t("generatePasswords")}</button>
            ${s.rows.some((r) => r.generated)
              ? html`<button type="button" @click=${downloadCredentials}>${t("downloadCredentials")}</button>
                  <span class="warning" role="note">${t("credentialsWarning", { n: s.rows.filter((r) => r.generated).length })}</span>`
              : nothing}
          </p>
          <p>
            <button type="button" ?disabled=${!bad.length} @click=${() => { for (const i of bad) s.rows[i].include = false; update(); }}>${t("leaveOutBad")}</button>
            <button type="button" class="primary" ?disabled=${bad.length > 0 || included.length === 0 || missing.length > 0}
              @click=${() => void run(newJob(included.map(toNewUser), app.session!.baseUrl))}>${t("createButton", { n: included.length })}</button>
            ${bad.length ? html`<span class="hint">${t("blockedByErrors")}</span>` : nothing}
          </p>
          <div class="scroll">
            <table class="edit">
              <caption class="sr-only">${t("bulkTitle")}</caption>
              <thead><tr><th scope="col">${t("rowN")}</th><th scope="col">${t("sheetLine")}</th><th scope="col">${t("include")}</th>${fields.map((f) => html`<th scope="col">${fieldLabel(f)}</th>`)}</tr></thead>
              <tbody>
                ${s.rows.map((r, i) => {
                  const list = issues.get(i) ?? [];
                  return html`<tr class=${!r.include ? "out" : blocking(list) ? "bad" : ""} data-line=${r.line}>
                    <td>${i + 1}</td>
                    <td>${r.line}${r.problem && r.include ? html`<span class="issue contract sheet-problem">${r.problem}</span>` : nothing}</td>
                    <td><input type="checkbox" aria-label=${t("includeRow", { n: i + 1 })} .checked=${live(r.include)} @change=${(e: Event) => { r.include = (e.target as HTMLInputElement).checked; update(); }} /></td>
                    ${fields.map((f) => {
                      const cellIssues = list.filter((x) => x.path[1] === f);
                      const id = `issue-${i}-${f}`;
                      return html`<td>
                        <input type="text" class=${cellIssues.some((x) => x.level === "contract") ? "invalid" : cellIssues.length ? "warn" : ""}
                          aria-label=${t("cellLabel", { field: fieldLabel(f), n: i + 1 })} aria-invalid=${cellIssues.some((x) => x.level === "contract") ? "true" : "false"}
                          aria-describedby=${cellIssues.length ? id : nothing}
                          .value=${live(r.cells[f])} @input=${(e: Event) => { r.cells[f] = (e.target as HTMLInputElement).value; r.problem = null; update(); }} />
                        ${cellIssues.length ? html`<span id=${id} class=${`issue ${cellIssues.some((x) => x.level === "contract") ? "contract" : "platform"}`}>${cellIssues.map((x) => x.message).join("; ")}</span>` : nothing}
                      </td>`;
                    })}
                  </tr>`;
                })}
              </tbody>
            </table>
          </div>`
      : nothing}`;
}

export function bulkView() {
  if (!s.checkedJournal) void checkJournal();
  const resumable = s.resumable;
  return html`<main id="main">
    <h1>${t("bulkTitle")}</h1>
    ${errorBox(s.error, resumable?.baseUrl === app.session?.baseUrl ? () => void run(resumable!) : undefined)}
    ${resumable && s.phase === "edit"
      ? html`<div class="note" role="status">
          <p>${t("resumeFound", { done: resumable.processed, total: resumable.rows.length })}</p>
          ${resumable.baseUrl === app.session?.baseUrl
            ? html`<button type="button" class="primary" @click=${() => void run(resumable)}>${t("resume")}</button>`
            : html`<p class="warning">${t("resumeOtherSite", { site: resumable.baseUrl })}</p>`}
          <button type="button" @click=${async () => { await forgetJob(resumable); s.resumable = null; s.job = null; s.report = null; update(); }}>${t("discard")}</button>
        </div>`
      : nothing}
    ${s.phase !== "edit" ? resultsView() : resumable ? resultsTable() : editView()}
  </main>`;
}

export function resetBulk(): void {
  s.abort?.abort();
  s.checkedJournal = false;
  s.bulk = null;
}
