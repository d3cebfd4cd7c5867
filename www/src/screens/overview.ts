// Overview: accounts created per week, enrolments and completion per course, the courses nobody
// finished; computed from every account read into this browser (account-cache.ts: read with
// progress, kept in IndexedDB with its age) and the catalogue. Charts: uPlot (the smallest of the
// libraries measured that runs under the CSP: it styles through the CSSOM, see README), with the
// figures in a table beside each chart.
import { html, nothing } from "lit-html";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { cache, cacheStale, cacheStatusView, loadCache, refreshCache, type CachedAccount } from "../account-cache";
import { app, handle, loadCourses, update } from "../app";
import { formatDate } from "../format";
import { getLang, t } from "../i18n";
import type { Screen } from "../screen";

const WEEKS = 12;
const WEEK_MS = 7 * 86_400_000;

/** Monday 00:00 (local) of the week of `ms`. */
function weekStart(ms: number): number {
  const d = new Date(ms);
  d.setHours(0, 0, 0, 0);
  d.setDate(d.getDate() - ((d.getDay() + 6) % 7));
  return d.getTime();
}

/** Accounts created in each of the `WEEKS` weeks up to the newest account's, oldest first (a
 * site where nobody was created lately still shows its last activity, not empty weeks). */
export function perWeek(accounts: CachedAccount[]): { start: number; n: number }[] {
  const newest = accounts.reduce((m, a) => Math.max(m, Date.parse(a.createdAt) || 0), 0);
  const last = weekStart(newest || Date.now());
  const weeks = Array.from({ length: WEEKS }, (_, i) => ({ start: weekStart(last - (WEEKS - 1 - i) * WEEK_MS + WEEK_MS / 2), n: 0 }));
  for (const a of accounts) {
    const w = weekStart(Date.parse(a.createdAt));
    const hit = weeks.find((x) => x.start === w);
    if (hit) hit.n += 1;
  }
  return weeks;
}

export interface CourseStats {
  id: string;
  title: string;
  enrolled: number;
  finished: number;
}

/** Enrolments and completions per course of the catalogue (and any course only enrolments name). */
export function perCourse(accounts: CachedAccount[], titles: Map<string, string>): CourseStats[] {
  const by = new Map<string, CourseStats>();
  for (const [id, title] of titles) by.set(id, { id, title, enrolled: 0, finished: 0 });
  for (const a of accounts) {
    for (const c of a.courses) {
      const s = by.get(c.courseId) ?? { id: c.courseId, title: t("unknownCourse", { id: c.courseId }), enrolled: 0, finished: 0 };
      s.enrolled += 1;
      if (c.finish) s.finished += 1;
      by.set(c.courseId, s);
    }
  }
  return [...by.values()].sort((a, b) => b.enrolled - a.enrolled || a.title.localeCompare(b.title, "vi"));
}

const charts = new Map<string, { plot: uPlot; key: string }>();

/** Draws (or redraws, when its data changed) a bar chart in `#id` once it is on screen; `label`
 * names an x value (an index) on the axis, "" for none. */
function drawBars(id: string, label: (i: number) => string, series: { values: number[]; color: string }[]) {
  const xs = series[0].values.map((_, i) => i);
  const key = JSON.stringify([series.map((x) => x.values), xs.map(label)]);
  requestAnimationFrame(() => {
    const el = document.getElementById(id);
    if (!el) return;
    const old = charts.get(id);
    const width = Math.max(240, el.clientWidth);
    if (old && old.key === key && el.contains(old.plot.root)) {
      if (Math.abs(old.plot.width - width) > 4) old.plot.setSize({ width, height: 220 });
      return;
    }
    old?.plot.destroy();
    const bars = uPlot.paths.bars!({ size: [0.7, 40] });
    const plot = new uPlot(
      {
        width,
        height: 220,
        legend: { show: false },
        cursor: { show: false },
        scales: { x: { time: false, range: [-0.5, xs.length - 0.5] }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        axes: [
          { stroke: "#1b1f24", splits: () => xs, values: (_u, splits) => splits.map(label) },
          { stroke: "#1b1f24", values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? String(v) : "")) },
        ],
        series: [{}, ...series.map((x) => ({ fill: x.color, stroke: x.color, paths: bars, points: { show: false } }))],
      },
      [xs, ...series.map((x) => x.values)],
      el,
    );
    charts.set(id, { plot, key });
  });
}

let courseError: unknown = null;

const shortDate = (ms: number) => new Intl.DateTimeFormat(getLang() === "vi" ? "vi-VN" : "en-GB", { day: "numeric", month: "numeric" }).format(new Date(ms));

function overviewView() {
  void loadCache();
  // Figures from accounts read before a write (an import, a grant) are read again at once: the
  // overview does not show what it knows is out of date.
  if (cacheStale() && !cache.reading && !cache.error) void refreshCache();
  if (!app.courses && !courseError) loadCourses().then(update, (e) => { courseError = e; handle(e); });
  const c = cache.value;
  const titles = new Map((app.courses ?? []).map((x) => [x._id, x.title]));
  const weeks = c ? perWeek(c.accounts) : [];
  const courses = c && app.courses ? perCourse(c.accounts, titles) : [];
  const nobody = courses.filter((x) => x.finished === 0);
  if (c) {
    // Every other week is labelled: twelve dates do not fit a phone's width.
    drawBars("chart-weeks", (i) => (i % 2 ? "" : shortDate(weeks[i]?.start ?? 0)), [{ values: weeks.map((w) => w.n), color: "#1d5fa8" }]);
    if (courses.length) {
      drawBars("chart-courses", (i) => (i % 5 ? "" : String(i + 1)), [
        { values: courses.map((x) => x.enrolled), color: "#1d5fa8" },
        { values: courses.map((x) => x.finished), color: "#14632a" },
      ]);
    }
  }
  const pct = (x: CourseStats) => (x.enrolled ? Math.round((100 * x.finished) / x.enrolled) : 0);
  return html`<main id="main">
    <h1>${t("navOverview")}</h1>
    ${cacheStatusView("overview-age", "ovNeedsRead")}
    ${c
      ? html`<section aria-labelledby="h-weeks">
            <h2 id="h-weeks">${t("ovWeeks")}</h2>
            <div id="chart-weeks" class="overview-chart" role="img" aria-label=${t("ovWeeksAlt", { n: weeks.reduce((n, w) => n + w.n, 0), weeks: WEEKS })}></div>
            <details><summary>${t("ovTable")}</summary>
              <table class="figures"><caption class="sr-only">${t("ovWeeks")}</caption>
                <thead><tr><th scope="col">${t("ovWeekOf")}</th><th scope="col">${t("ovCreated")}</th></tr></thead>
                <tbody>${weeks.map((w) => html`<tr><td data-label=${t("ovWeekOf")}>${formatDate(new Date(w.start).toISOString())}</td><td data-label=${t("ovCreated")}>${w.n}</td></tr>`)}</tbody>
              </table>
            </details>
          </section>
          <section aria-labelledby="h-courses">
            <h2 id="h-courses">${t("ovCourses")}</h2>
            ${courses.length
              ? html`<div id="chart-courses" class="overview-chart" role="img" aria-label=${t("ovCoursesAlt")}></div>
                  <p class="hint" aria-hidden="true"><span class="legend-a">■</span> ${t("ovEnrolled")} <span class="legend-b">■</span> ${t("ovFinished")}</p>
                  <table class="figures course-stats"><caption class="sr-only">${t("ovCourses")}</caption>
                    <thead><tr><th scope="col">#</th><th scope="col">${t("colTitle")}</th><th scope="col">${t("ovEnrolled")}</th><th scope="col">${t("ovFinished")}</th><th scope="col">${t("ovCompletion")}</th></tr></thead>
                    <tbody>${courses.map((x, i) => html`<tr><td data-label="#">${i + 1}</td><td data-label=${t("colTitle")}><span class="cell">${x.title}</span></td><td data-label=${t("ovEnrolled")}>${x.enrolled}</td><td data-label=${t("ovFinished")}>${x.finished}</td><td data-label=${t("ovCompletion")}>${pct(x)} %</td></tr>`)}</tbody>
                  </table>`
              : html`<p role="status">${t("loading")}</p>`}
          </section>
          <section aria-labelledby="h-nobody">
            <h2 id="h-nobody">${t("ovNobody", { n: nobody.length })}</h2>
            <ul class="nobody">${nobody.map((x) => html`<li>${x.title} <span class="hint">(${t("ovEnrolledN", { n: x.enrolled })})</span></li>`)}</ul>
          </section>`
      : nothing}
  </main>`;
}

export const overviewScreen: Screen = {
  route: "overview",
  nav: "navOverview",
  view: overviewView,
  reset() {
    for (const { plot } of charts.values()) plot.destroy();
    charts.clear();
    courseError = null;
  },
};
