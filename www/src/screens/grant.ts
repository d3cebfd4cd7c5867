// Grant courses: accounts picked on the Accounts screen or searched here, courses from the
// catalogue, granted through addCoursesToUsers (up to 100 accounts: one call) or, for more,
// lpm-client-bulk's grantCourses (the engine chunks them 100 a call), results per account.
import { MAX_ITEMS_PER_CALL } from "lpm-client/lazy";
import { html, nothing } from "lit-html";
import { live } from "lit-html/directives/live.js";
import type { AddCourseOutcome, GrantReport, Progress, RowResult } from "lpm-client";
import { app, bulkClient, client, focusNext, handle, loadCourses, update, usersChanged } from "../app";
import { haltedBox, type Described } from "../errors";
import { fold, formatTime, formatVnd, formatWait } from "../format";
import { t } from "../i18n";
import type { Screen } from "../screen";
import { statusText } from "../server-texts";
import { errorBox } from "../ui";
import { accountLabel } from "./accounts";

/** The contract's most accounts per add-courses call: more go through the bulk engine. */
const MAX_ONE_CALL = MAX_ITEMS_PER_CALL;

const fresh = () => ({
  query: "",
  filter: "",
  courses: new Set<string>(),
  busy: false,
  error: null as Described | null,
  searchNote: "",
  results: new Map<string, { ok: boolean; status: string }>(),
  /** The bulk engine's progress while a grant of more than 100 accounts runs. */
  progress: null as Progress | null,
  loadingCourses: false,
  /** The selection (`selectionKey`) last granted to every account: not offered again as is. */
  grantedKey: "",
});
const s = fresh();

/** The accounts and courses picked, as one string (order-free). */
const selectionKey = () => `${[...app.picked.keys()].sort().join()}|${[...s.courses].sort().join()}`;

async function addAccount(ev: Event): Promise<void> {
  ev.preventDefault();
  const q = s.query.trim();
  if (!q) return;
  s.searchNote = "";
  try {
    const { user } = await client().searchUser(q.includes("@") ? { email: q } : { username: q });
    app.picked.set(user._id, accountLabel(user));
    s.query = "";
  } catch (e) {
    if ((e as { category?: string }).category === "notFound") s.searchNote = t("noMatch");
    else s.error = handle(e, () => void addAccount(ev));
  }
  update();
}

/** A grant engine's row result in the screen's words (a row not sent: by the report's `haltedBy`,
 * its reason being the engine's English). */
function grantOutcome(r: RowResult, report: GrantReport): { ok: boolean; status: string } {
  switch (r.kind) {
    case "granted":
      return { ok: true, status: "" };
    case "failed":
      return { ok: false, status: statusText(r.status) };
    case "setAside":
      return { ok: false, status: r.issues.map((i) => i.message).join("; ") };
    case "notSent":
      return { ok: false, status: `${t("stNotSent")} (${t(report.haltedBy ? "grantStopHalted" : "grantStopStopped")})` };
    default:
      return { ok: false, status: t("stNoResult") };
  }
}

async function grantMany(users: string[], courses: string[]): Promise<void> {
  const bulk = await bulkClient();
  // A grant chunk sent twice is harmless, so the journal stays in memory (the default).
  const report: GrantReport = await bulk.grantCourses(
    { users, courses },
    {
      ...(app.config.retryDelayMs !== undefined ? { retryDelayMs: app.config.retryDelayMs } : {}),
      onProgress: (p) => { s.progress = p; update(); },
    },
  );
  for (const row of report.rows) s.results.set(row.userId, grantOutcome(row.result, report));
  if (report.halted) s.error = haltedBox(report, "grantHalted");
}

async function grant(): Promise<void> {
  const users = [...app.picked.keys()];
  const courses = [...s.courses];
  const key = selectionKey();
  s.busy = true;
  s.error = null;
  s.progress = null;
  s.results = new Map();
  update();
  try {
    if (users.length > MAX_ONE_CALL) {
      await grantMany(users, courses);
    } else {
      const reply = await client().addCoursesToUsers({ users, courses });
      for (const r of reply.result as AddCourseOutcome[]) s.results.set(r.userId, { ok: r.success, status: statusText(r.status) });
    }
    // Granted to every account: the same grant again would only repeat it (a failed one may be retried).
    if (!s.error && s.results.size === users.length && [...s.results.values()].every((r) => r.ok)) s.grantedKey = key;
  } catch (e) {
    s.error = handle(e, () => void grant());
  } finally {
    s.busy = false;
    s.progress = null;
    // Whatever was granted before a failure is granted: the accounts screens read them again.
    usersChanged();
    // The button was disabled while busy: focus goes to what happened (unless signed out).
    if (app.session) focusNext(s.error ? "main .error" : "main .done");
  }
}

function ensureCourses(): void {
  if (app.courses || s.loadingCourses) return;
  s.loadingCourses = true;
  loadCourses()
    .catch((e) => (s.error = handle(e, () => ensureCourses())))
    .finally(() => {
      s.loadingCourses = false;
      update();
    });
}

/** The grant engine's progress as it says it: accounts handled (answered, whatever the answer),
 * the chunk out and since when, failures in a row tried again, and when the next try goes. */
function grantProgressView(p: Progress) {
  const handled = p.done + p.failed + p.setAside + p.unresolved;
  const total = handled + p.remaining;
  const wait = (p.nextSendAt ?? 0) - Date.now();
  return html`<p id="grant-status" role="status">${t("grantProgress", { done: handled, total })}</p>
    ${p.sending
      ? html`<p id="grant-sending">${t("grantSendingLine", { n: p.sending.rows.length })} <time datetime=${new Date(p.sending.since).toISOString()}>${formatTime(new Date(p.sending.since))}</time>.</p>`
      : nothing}
    ${p.retries > 0 ? html`<p id="grant-retries" class="warning">${t("retryNote", { n: p.retries, error: p.lastError ?? "" })}</p>` : nothing}
    ${wait > 0 ? html`<p class="countdown" role="timer">${t(p.retries > 0 ? "retryCountdown" : "countdown", { time: formatWait(wait) })}</p>` : nothing}
    <progress max=${total} .value=${handled} aria-label=${t("progress")}></progress>`;
}

function grantView() {
  ensureCourses();
  const courses = (app.courses ?? []).filter((c) => fold(c.title).includes(fold(s.filter.trim())));
  const ok = [...s.results.values()].filter((r) => r.ok).length;
  return html`<main id="main">
    <h1>${t("grantTitle")}</h1>
    ${errorBox(s.error, () => void grant())}
    <div class="two-col">
      <section aria-labelledby="h-accounts">
        <h2 id="h-accounts">${t("grantAccounts")} (${app.picked.size})</h2>
        <form class="row" @submit=${addAccount}>
          <label for="grant-add">${t("addAccount")}</label>
          <input id="grant-add" type="search" .value=${live(s.query)} @input=${(e: Event) => { s.query = (e.target as HTMLInputElement).value; }} />
          <button type="submit">${t("add")}</button>
        </form>
        ${s.searchNote ? html`<p role="status">${s.searchNote}</p>` : nothing}
        ${app.picked.size
          ? html`<ul class="picked-list">
              ${[...app.picked].map(([id, label]) => {
                const r = s.results.get(id);
                return html`<li>
                  ${label}
                  ${r ? html`<strong class=${r.ok ? "ok" : "bad"}>${r.ok ? t("granted") : `${t("stFailed")}: ${r.status}`}</strong>` : nothing}
                  <button type="button" class="small" aria-label=${t("remove", { name: label })} @click=${() => { app.picked.delete(id); update(); }}>✕</button>
                </li>`;
              })}
            </ul>`
          : html`<p>${t("noAccountsPicked")}</p>`}
      </section>
      <section aria-labelledby="h-courses">
        <h2 id="h-courses">${t("grantCourses")} (${s.courses.size})</h2>
        <label for="grant-filter">${t("filterCourses")}</label>
        <input id="grant-filter" type="search" .value=${live(s.filter)} @input=${(e: Event) => { s.filter = (e.target as HTMLInputElement).value; update(); }} />
        ${s.loadingCourses ? html`<p role="status">${t("loading")}</p>` : nothing}
        <ul class="course-picks">
          ${courses.map(
            (c) => html`<li><label><input type="checkbox" .checked=${live(s.courses.has(c._id))}
              @change=${(e: Event) => { if ((e.target as HTMLInputElement).checked) s.courses.add(c._id); else s.courses.delete(c._id); update(); }} />
              ${c.title} <span class="hint">${formatVnd(c.price.original)}</span></label></li>`,
          )}
        </ul>
      </section>
    </div>
    <p>
      <button type="button" class="primary" ?disabled=${s.busy || !app.picked.size || !s.courses.size || s.grantedKey === selectionKey()}
        aria-describedby=${s.grantedKey && s.grantedKey === selectionKey() ? "granted-hint" : nothing} @click=${() => void grant()}>
        ${t("grantButton", { c: s.courses.size, a: app.picked.size })}
      </button>
      ${s.grantedKey && s.grantedKey === selectionKey() ? html`<span class="hint" id="granted-hint">${t("grantedAlready")}</span>` : nothing}
    </p>
    ${s.progress ? grantProgressView(s.progress) : nothing}
    ${s.results.size ? html`<p role="status" class="done">${t("grantResult", { ok, fail: s.results.size - ok })}</p>` : nothing}
  </main>`;
}

export const grantScreen: Screen = {
  route: "grant",
  nav: "navGrant",
  view: grantView,
  reset() {
    Object.assign(s, fresh());
  },
};
