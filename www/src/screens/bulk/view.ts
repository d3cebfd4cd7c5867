// Bulk create: paste rows or upload a sheet (CSV or .xlsx, read by lpm-sheets as the command line
// reads it), map columns, fix every cell with the package's validators live (en/vi), leave bad
// rows out, then create through lpm-client-bulk's import engine (`importUsers`, journaled in
// IndexedDB: see bulk-job.ts) with the create interval counted down, per-row results from its
// report, and the rows that were not created as CSV or .xlsx. The views: they render the state
// (state.ts), a running job from one progress object (`runProgress`), and call the actions.
import { html, nothing } from "lit-html";
import { live } from "lit-html/directives/live.js";
import type { Issue, NewUser, RowResult } from "lpm-client";
import { app, focusNext, update } from "../../app";
import { forgetJob, jobAtRisk, newJob } from "../../bulk-job";
import { FIELDS, REQUIRED, problemText, twiceText, type Field } from "../../csv";
import { formatTime, formatWait } from "../../format";
import { getLang, t } from "../../i18n";
import type { Screen } from "../../screen";
import { errorBox } from "../../ui";
import { applyMapping, checkJournal, downloadCredentials, downloadFailed, generatePasswords, load, resetBulk, run, startCreate } from "./actions";
import {
  CHUNK, blocking, blocks, fieldLabel, firstRows, groupIssues, intervalMs, issueText, issuesByRow, liveText, readAsText, repeated, resultText,
  runProgress, runRows, s, sheetRow, shownFields, toNewUser, waitFor, type FirstRows, type RunProgress, type Wait,
} from "./state";

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

/** The note of a create from elsewhere, while its interval lasts. */
function recentElsewhereView() {
  const at = s.recentElsewhere;
  if (at === null || at + intervalMs() <= Date.now()) return nothing;
  return html`<p id="recent-elsewhere" class="warning">${t("recentElsewhere", { time: formatTime(new Date(at)), until: formatTime(new Date(at + intervalMs())) })}</p>`;
}

/** The countdown and the expected end of the rows left, while anything waits; a time not known
 * (a chunk out: its answer's time is the platform's) is not shown. */
function waitView({ left, nextSendAt, expectedEnd }: Wait, key: "countdown" | "nextAllowed" | "lookupCountdown" | "retryCountdown") {
  const wait = (nextSendAt ?? 0) - Date.now();
  if (left <= 0) return nothing;
  return html`${wait > 0 ? html`<p class="countdown" role="timer">${t(key, { time: formatWait(wait) })}
      <span class="hint">${t("nextAt")} <time datetime=${new Date(nextSendAt!).toISOString()}>${formatTime(new Date(nextSendAt!))}</time>.
        ${key === "countdown" || key === "nextAllowed" ? t("intervalFromAnswer") : nothing} ${t("intervalPerBrowser")}</span></p>` : nothing}
    ${expectedEnd !== undefined ? html`<p class="expected-end">${t("estimatedEnd", { time: formatTime(new Date(expectedEnd)) })}</p>` : nothing}`;
}

/** Every row of the sheet with its result, under the sheet's row numbers: the report's once
 * there is one, else the journal's so far; the rows left out before sending among them. */
function resultsTable() {
  const job = s.job;
  const rows = runRows();
  const report = s.report;
  if (!job || (!report && s.phase !== "running")) return nothing;
  const p = runProgress();
  const results: { n: number; user: NewUser | undefined; result: RowResult | undefined; text?: string; out?: true }[] = [
    ...(report ? report.rows.map((r) => ({ row: r.row, result: r.result })) : rows.map((_, row) => ({ row, result: s.live.get(row) }))).map(
      ({ row, result }) => ({ n: sheetRow(job, row), user: rows[row], result, text: report ? resultText(result) : liveText(row, result, p) }),
    ),
    ...(job.leftOut ?? []).map(({ n, user }) => ({ n, user, result: undefined, out: true as const })),
  ].sort((a, b) => a.n - b.n);
  return html`<div class="scroll"><table class="results cards">
    <caption class="sr-only">${t("resultCol")}</caption>
    <thead><tr><th scope="col">${t("sheetLine")}</th><th scope="col">${fieldLabel("name")}</th><th scope="col">${fieldLabel("username")}</th><th scope="col">${fieldLabel("email")}</th><th scope="col">${t("resultCol")}</th></tr></thead>
    <tbody>
      ${results.map(({ n, user: u, result, text, out }) => html`<tr class=${out ? "leftOut" : (result?.kind ?? "pending")}>
        <td data-label=${t("sheetLine")}>${n}</td><td data-label=${fieldLabel("name")}><span class="cell">${u?.name ?? ""}</span></td><td data-label=${fieldLabel("username")}><span class="cell">${u?.username ?? ""}</span></td>
        <td data-label=${fieldLabel("email")}><span class="cell">${u?.email ?? ""}</span></td><td data-label=${t("resultCol")}><span class="cell">${out ? t("stLeftOut") : text}</span></td></tr>`)}
    </tbody>
  </table></div>`;
}

/** The running job's lines, countdown and bar: from its one progress object, the engine's. */
function progressView(p: RunProgress = runProgress()) {
  // The wait is the look-ups' while rows are in doubt, a try again's after a refusal that may pass.
  const waitKey = p.inDoubt > 0 ? "lookupCountdown" : p.retries > 0 ? "retryCountdown" : "countdown";
  return html`
    <p id="run-status" role="status" aria-live="polite">${p.started
      ? t("progressLine", { done: p.processed, total: p.total, ok: p.created, fail: p.failed, aside: p.setAside, left: p.left })
      : t("starting")}</p>
    ${p.sending
      ? html`<p id="run-sending">${t("sendingLine", { n: p.sending.rows.length })} <time datetime=${new Date(p.sending.since).toISOString()}>${formatTime(new Date(p.sending.since))}</time>.</p>`
      : nothing}
    ${p.lookingUp !== undefined
      ? html`<p id="run-doubt">${t("lookingUpLine", { row: sheetRow(s.job!, p.lookingUp), n: p.inDoubt })}</p>`
      : p.inDoubt > 0 ? html`<p id="run-doubt">${t("inDoubtLine", { n: p.inDoubt })}</p>` : nothing}
    ${p.retries > 0 ? html`<p id="run-retries" class="warning">${t("retryNote", { n: p.retries, error: p.lastError ?? "" })}</p>` : nothing}
    ${p.warning ? html`<p id="run-warning" class="warning">${t("engineWarning", { warning: p.warning })}</p>` : nothing}
    ${waitView(p, waitKey)}
    <progress max=${p.total} .value=${p.processed} aria-label=${t("progress")}></progress>`;
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
        <input id="csv-file" type="file" accept=".xlsx,.xlsm,.ods,.xls,.csv,.tsv,.txt,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,application/vnd.oasis.opendocument.spreadsheet,application/vnd.ms-excel" @change=${async (e: Event) => {
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
          ${waitView(waitFor(included.length), "nextAllowed")}
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
                    <td data-label=${t("sheetLine")}>${r.line}${r.problem && r.include ? html`<span class="issue contract sheet-problem">${problemText(r.problem, getLang())}</span>` : nothing}${r.include ? (r.warnings ?? []).map((w) => html`<span class="issue platform sheet-warning">${problemText(w, getLang())}</span>`) : nothing}</td>
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
          ${waitView(waitFor(resumable.rows.length - resumable.processed), "nextAllowed")}
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

export const bulkScreen: Screen = {
  route: "bulk",
  nav: "navBulk",
  view: bulkView,
  reset: resetBulk,
  atRisk: () => jobAtRisk(s.phase === "running" ? runRows().length - (s.progress?.remaining ?? runRows().length) : undefined),
};

export { bulkNeedsTick } from "./state";
