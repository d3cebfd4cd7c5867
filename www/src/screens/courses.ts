// Courses: the whole catalogue (allCourses), paged and sorted by TanStack Table, searched
// without accents ("trac nghiem" finds "Trắc nghiệm"), prices in VND.
import { html, nothing } from "lit-html";
import { live } from "lit-html/directives/live.js";
import type { Course } from "lpm-client";
import { app, handle, loadCourses, update } from "../app";
import type { Described } from "../errors";
import { fold, formatVnd } from "../format";
import { t, tMaybe } from "../i18n";
import { errorBox, makeTable, pager, setTableData, tableView } from "../ui";

const s = { loading: false, error: null as Described | null, query: "", shown: null as Course[] | null };

export const courseType = (type: string) => tMaybe(`type${type}`) ?? type;

const table = makeTable<Course>({
  pageSize: 20,
  globalFilterFn: (c, q) => fold(`${c.title} ${c.label} ${c.headline}`).includes(fold(q.trim())),
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
    setTableData(table, s.shown);
  } catch (e) {
    s.error = handle(e, () => void load());
  } finally {
    s.loading = false;
    update();
  }
}

export function coursesView() {
  if (s.shown !== app.courses || (!s.shown && !s.loading && !s.error)) {
    if (app.courses) {
      s.shown = app.courses;
      setTableData(table, app.courses);
    } else if (!s.loading && !s.error) void load();
  }
  const count = table.getFilteredRowModel().rows.length;
  return html`<main id="main">
    <h1>${t("coursesTitle")}</h1>
    <div class="row" role="search">
      <label for="course-search">${t("searchCourses")}</label>
      <input id="course-search" type="search" .value=${live(s.query)} @input=${(e: Event) => { s.query = (e.target as HTMLInputElement).value; table.setGlobalFilter(s.query); }} />
    </div>
    ${errorBox(s.error, () => void load())}
    ${s.loading ? html`<p role="status">${t("loading")}</p>` : nothing}
    ${s.shown
      ? html`<p role="status">${t("courseCount", { n: count })}</p>
          ${tableView(table, t("coursesTitle"))} ${pager(table)}`
      : nothing}
  </main>`;
}

export function resetCourses(): void {
  s.shown = null;
  s.error = null;
  setTableData(table, []);
}
