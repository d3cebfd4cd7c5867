// Bulk create: paste or upload rows, map columns, fix every cell with the package's validators
// live (en/vi), leave bad rows out, then create through the chunk runner (bulk-runner.ts) with
// the create interval counted down, per-row results, and the failed rows as CSV.
import { html, nothing } from "lit-html";
import { live } from "lit-html/directives/live.js";
import { validateCreateUsers, type Issue, type NewUser } from "lpm-client";
import { app, client, handle, update } from "../app";
import { importUsers, indexedDbJournal, progressOf, type Progress } from "../bulk-runner";
import { FIELDS, REQUIRED, guessField, parseTable, toCsv, type Field } from "../csv";
import type { Described } from "../errors";
import { formatWait } from "../format";
import { getLang, t, type Key } from "../i18n";
import { errorBox } from "../ui";

/** The contract's maximum per create call. */
const CHUNK = 100;
const journal = indexedDbJournal();

interface Row {
  cells: Record<Field, string>;
  include: boolean;
}

const s = {
  phase: "edit" as "edit" | "running" | "done",
  pasted: "",
  headers: [] as string[],
  mapping: [] as (Field | "")[],
  source: [] as string[][],
  rows: [] as Row[],
  /** Rows being (or last) sent, and their progress. */
  runRows: [] as NewUser[],
  progress: null as Progress | null,
  error: null as Described | null,
  abort: null as AbortController | null,
  /** An unfinished import found in the journal at start. */
  resumable: null as Progress | null,
  checkedJournal: false,
};

function emptyCells(): Record<Field, string> {
  return Object.fromEntries(FIELDS.map((f) => [f, ""])) as Record<Field, string>;
}

function applyMapping(): void {
  s.rows = s.source.map((src) => {
    const cells = emptyCells();
    s.mapping.forEach((f, col) => {
      if (f) cells[f] = (src[col] ?? "").trim();
    });
    return { cells, include: true };
  });
}

function load(text: string): void {
  const { headers, rows } = parseTable(text);
  s.headers = headers;
  s.mapping = headers.map(guessField);
  s.source = rows;
  applyMapping();
  s.error = null;
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
  return out;
}

// Contract-level issues block a row (the request is certain to fail); platform-level ones are
// warnings, as the package's client itself sends them unless strictPlatformRules is set.
const blocking = (list: Issue[] | undefined) => (list ?? []).some((i) => i.level === "contract");

async function run(rows: NewUser[]): Promise<void> {
  s.phase = "running";
  s.runRows = rows;
  s.error = null;
  s.resumable = null;
  s.progress = { total: rows.length, done: 0, created: 0, failed: 0, results: [], waitingUntil: null };
  s.abort = new AbortController();
  update();
  try {
    s.progress = await importUsers(client(), rows, {
      journal,
      chunkSize: CHUNK,
      signal: s.abort.signal,
      onProgress: (p) => {
        s.progress = p;
        update();
      },
    });
    s.phase = "done";
  } catch (e) {
    if (!s.abort.signal.aborted) s.error = handle(e, () => void run(rows));
    const saved = await journal.load();
    s.resumable = saved ? progressOf(saved) : null;
    s.phase = "edit";
  } finally {
    s.abort = null;
    update();
  }
}

async function checkJournal(): Promise<void> {
  s.checkedJournal = true;
  const saved = await journal.load();
  if (saved && s.phase === "edit") {
    s.resumable = progressOf(saved);
    s.runRows = saved.rows;
    update();
  }
}

function downloadFailed(): void {
  const p = s.progress;
  if (!p) return;
  const fields = FIELDS.filter((f) => s.runRows.some((r) => (r as unknown as Record<string, string>)[f]));
  const rows = s.runRows.flatMap((r, i) =>
    p.results[i]?.status === "failed"
      ? [[...fields.map((f) => (r as unknown as Record<string, string>)[f] ?? ""), p.results[i].message ?? ""]]
      : [],
  );
  const blob = new Blob([toCsv([...fields, t("resultCol")], rows)], { type: "text/csv;charset=utf-8" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = "failed-rows.csv";
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

const fieldLabel = (f: Field) => t(`field${f}` as Key);

function statusText(status: string | undefined, message?: string): string {
  switch (status) {
    case "created":
      return t("stCreated");
    case "verified":
      return t("stVerified");
    case "failed":
      return `${t("stFailed")}: ${message ?? ""}`;
    default:
      return t("stPending");
  }
}

/** Whether a countdown is on screen (main.ts ticks the clock while it is). */
export function bulkNeedsTick(): boolean {
  return location.hash.startsWith("#/bulk") && (!!s.progress?.waitingUntil || (client().nextCreateAllowedAt()?.getTime() ?? 0) > Date.now());
}

function resultsView() {
  const p = s.progress!;
  return html`
    <p role="status" aria-live="polite">${t("progressLine", { done: p.done, total: p.total, ok: p.created, fail: p.failed })}</p>
    ${p.waitingUntil && s.phase === "running"
      ? html`<p class="countdown" role="timer">${t("countdown", { time: formatWait(p.waitingUntil.getTime() - Date.now()) })}</p>`
      : nothing}
    <progress max=${p.total} .value=${p.done} aria-label=${t("progress")}></progress>
    ${s.phase === "running" ? html`<p><button type="button" @click=${() => s.abort?.abort()}>${t("stop")}</button></p>` : nothing}
    ${s.phase === "done"
      ? html`<p class="done">${t("done", { ok: p.created, fail: p.failed })}</p>
          <p>
            ${p.failed ? html`<button type="button" @click=${downloadFailed}>${t("downloadFailed")}</button>` : nothing}
            <button type="button" @click=${() => { s.phase = "edit"; s.progress = null; s.rows = []; s.source = []; s.headers = []; s.pasted = ""; update(); }}>${t("newImport")}</button>
          </p>`
      : nothing}
    <table class="results">
      <caption class="sr-only">${t("resultCol")}</caption>
      <thead><tr><th scope="col">${t("rowN")}</th><th scope="col">${fieldLabel("name")}</th><th scope="col">${fieldLabel("email")}</th><th scope="col">${t("resultCol")}</th></tr></thead>
      <tbody>
        ${s.runRows.map((r, i) => {
          const res = p.results[i];
          return html`<tr class=${res?.status ?? "pending"}><td>${i + 1}</td><td>${r.name}</td><td>${r.email}</td><td>${statusText(res?.status, res?.message)}</td></tr>`;
        })}
      </tbody>
    </table>`;
}

function editView() {
  const issues = issuesByRow();
  const fields = shownFields();
  const included = s.rows.filter((r) => r.include);
  const bad = [...issues.entries()].filter(([, l]) => blocking(l)).map(([i]) => i);
  const dup = [...issues.values()].flat().filter((i) => i.code.startsWith("duplicate")).length;
  const missing = REQUIRED.filter((f) => !s.mapping.includes(f));
  const next = client().nextCreateAllowedAt();
  return html`
    <p>${t("bulkIntro")}</p>
    <div class="input-pair">
      <div>
        <label for="paste">${t("pasteLabel")}</label>
        <textarea id="paste" rows="5" .value=${live(s.pasted)} @input=${(e: Event) => { s.pasted = (e.target as HTMLTextAreaElement).value; }}></textarea>
        <button type="button" @click=${() => load(s.pasted)}>${t("readPasted")}</button>
      </div>
      <div>
        <label for="csv-file">${t("uploadCsv")}</label>
        <input id="csv-file" type="file" accept=".csv,.tsv,.txt,text/csv" @change=${async (e: Event) => {
          const f = (e.target as HTMLInputElement).files?.[0];
          if (f) load(await f.text());
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
        </fieldset>`
      : nothing}
    ${s.rows.length
      ? html`<p role="status">${t("rowsSummary", { n: s.rows.length, bad: bad.length, out: s.rows.length - included.length, dup })}</p>
          <p>${t("chunks", { n: CHUNK, time: formatWait(app.config.createIntervalMs ?? 600_000) })}</p>
          ${next && next.getTime() > Date.now() ? html`<p class="countdown" role="timer">${t("nextAllowed", { time: formatWait(next.getTime() - Date.now()) })}</p>` : nothing}
          <p>
            <button type="button" ?disabled=${!bad.length} @click=${() => { for (const i of bad) s.rows[i].include = false; update(); }}>${t("leaveOutBad")}</button>
            <button type="button" class="primary" ?disabled=${bad.length > 0 || included.length === 0 || missing.length > 0 || !!s.resumable}
              @click=${() => void run(included.map(toNewUser))}>${t("createButton", { n: included.length })}</button>
            ${bad.length ? html`<span class="hint">${t("blockedByErrors")}</span>` : nothing}
            ${s.resumable ? html`<span class="hint">${t("resumeFirst")}</span>` : nothing}
          </p>
          <div class="scroll">
            <table class="edit">
              <caption class="sr-only">${t("bulkTitle")}</caption>
              <thead><tr><th scope="col">${t("rowN")}</th><th scope="col">${t("include")}</th>${fields.map((f) => html`<th scope="col">${fieldLabel(f)}</th>`)}</tr></thead>
              <tbody>
                ${s.rows.map((r, i) => {
                  const list = issues.get(i) ?? [];
                  return html`<tr class=${!r.include ? "out" : blocking(list) ? "bad" : ""}>
                    <td>${i + 1}</td>
                    <td><input type="checkbox" aria-label=${t("includeRow", { n: i + 1 })} .checked=${live(r.include)} @change=${(e: Event) => { r.include = (e.target as HTMLInputElement).checked; update(); }} /></td>
                    ${fields.map((f) => {
                      const cellIssues = list.filter((x) => x.path[1] === f);
                      const id = `issue-${i}-${f}`;
                      return html`<td>
                        <input type="text" class=${cellIssues.some((x) => x.level === "contract") ? "invalid" : cellIssues.length ? "warn" : ""}
                          aria-label=${t("cellLabel", { field: fieldLabel(f), n: i + 1 })} aria-invalid=${cellIssues.some((x) => x.level === "contract") ? "true" : "false"}
                          aria-describedby=${cellIssues.length ? id : nothing}
                          .value=${live(r.cells[f])} @input=${(e: Event) => { r.cells[f] = (e.target as HTMLInputElement).value; update(); }} />
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
  return html`<main id="main">
    <h1>${t("bulkTitle")}</h1>
    ${errorBox(s.error, s.runRows.length ? () => void run(s.runRows) : undefined)}
    ${s.resumable && s.phase === "edit"
      ? html`<div class="note" role="status">
          <p>${t("resumeFound", { done: s.resumable.done, total: s.resumable.total })}</p>
          <button type="button" class="primary" @click=${() => void run(s.runRows)}>${t("resume")}</button>
          <button type="button" @click=${async () => { await journal.clear(); s.resumable = null; s.runRows = []; update(); }}>${t("discard")}</button>
        </div>`
      : nothing}
    ${s.phase === "edit" ? editView() : resultsView()}
  </main>`;
}

export function resetBulk(): void {
  s.abort?.abort();
  s.checkedJournal = false;
}
