// Courses: the whole catalogue (allCourses), paged and sorted by TanStack Table, searched
// without accents ("trac nghiem" finds "Trắc nghiệm"), prices in VND.
import { html, nothing } from "lit-html";
import { live } from "lit-html/directives/live.js";
import type { Course } from "lpm-client";
import { app, handle, loadCourses, update } from "../app";
import type { Described } from "../errors";
import { fold, formatVnd } from "../format";
import { t, tMaybe } from "../i18n";
import type { Screen } from "../screen";
import { errorBox, makeTable, pager, setTableData, tableView } from "../ui";

const s = { loading: false, error: null as Described | null, query: "", shown: null as Course[] | null };

export const courseType = (type: string) => tMaybe(`type${type}`) ?? type;

const escape = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * How well a course matches `q` (accents, case ignored): in the title as whole words 4, at the
 * start of a title word 3, in the label or headline as whole words 2, at the start of one of their
 * words 1, else 0 (left out). A match must start a word: "Hóa học" ("hoa hoc") is not found inside
 * the "Khoá học" ("khoa hoc") of every headline, and "trac ngh" still finds "Trắc nghiệm".
 */
export function courseScore(c: Course, q: string): number {
  const needle = fold(q.trim().replace(/\s+/g, " "));
  if (!needle) return 1;
  const word = `(^|[^\\p{L}\\p{N}])${escape(needle)}`;
  const whole = new RegExp(`${word}($|[^\\p{L}\\p{N}])`, "u");
  const start = new RegExp(word, "u");
  const title = fold(c.title);
  const rest = fold(`${c.label} ${c.headline}`);
  if (whole.test(title)) return 4;
  if (start.test(title)) return 3;
  if (whole.test(rest)) return 2;
  return start.test(rest) ? 1 : 0;
}

/** The catalogue for `q`: matches only, best first (the catalogue's order among equals). */
function ranked(all: Course[], q: string): Course[] {
  return all
    .map((c, i) => ({ c, i, score: courseScore(c, q) }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map((x) => x.c);
}

const table = makeTable<Course>({
  pageSize: 20,
  columns: [
    { id: "title", accessorKey: "title", header: () => t("colTitle") },
    { id: "type", accessorFn: (c) => courseType(c.type), header: () => t("colType") },
    { id: "label", accessorKey: "label", header: () => t("colLabel") },
    {
      id: "price",
      accessorFn: (c) => c.price.original,
      header: () => t("colPrice"),
      cell: (c) => html`<span class="num">${formatVnd(Number(c.getValue()))}</span>`,
    },
  ],
});

async function load(): Promise<void> {
  s.loading = true;
  s.error = null;
  update();
  try {
    s.shown = await loadCourses();
    setTableData(table, ranked(s.shown, s.query));
  } catch (e) {
    s.error = handle(e, () => void load());
  } finally {
    s.loading = false;
    update();
  }
}

function coursesView() {
  if (s.shown !== app.courses || (!s.shown && !s.loading && !s.error)) {
    if (app.courses) {
      s.shown = app.courses;
      setTableData(table, ranked(app.courses, s.query));
    } else if (!s.loading && !s.error) void load();
  }
  const count = table.getCoreRowModel().rows.length;
  return html`<main id="main">
    <h1>${t("coursesTitle")}</h1>
    <div class="row" role="search">
      <label for="course-search">${t("searchCourses")}</label>
      <input id="course-search" type="search" .value=${live(s.query)} @input=${(e: Event) => {
        s.query = (e.target as HTMLInputElement).value;
        // A search ranks by relevance: a column's sort would hide the best matches.
        table.setSorting([]);
        table.setPageIndex(0);
        setTableData(table, ranked(s.shown ?? [], s.query));
        update();
      }} />
    </div>
    ${errorBox(s.error, () => void load())}
    ${s.loading ? html`<p role="status">${t("loading")}</p>` : nothing}
    ${s.shown
      ? html`<p role="status">${t("courseCount", { n: count })}</p>
          ${tableView(table, t("coursesTitle"))} ${pager(table)}`
      : nothing}
  </main>`;
}

export const coursesScreen: Screen = {
  route: "courses",
  nav: "navCourses",
  view: coursesView,
  reset() {
    Object.assign(s, { loading: false, error: null, query: "", shown: null });
    setTableData(table, []);
  },
};
