// Pieces every screen uses: the error box with its retry button, and sortable/paged tables
// rendered from TanStack Table's headless model.
import { html, nothing, type TemplateResult } from "lit-html";
import {
  createTable,
  functionalUpdate,
  getCoreRowModel,
  getFilteredRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  type ColumnDef,
  type Table,
  type TableOptionsResolved,
  type TableState,
} from "@tanstack/table-core";
import type { Described } from "./errors";
import { t } from "./i18n";
import { update } from "./app";

export function errorBox(d: Described | null, retry?: () => void): TemplateResult | typeof nothing {
  if (!d) return nothing;
  return html`<div class="error" role="alert">
    <p>${d.text}</p>
    ${d.detail ? html`<p class="detail">${d.detail}</p>` : nothing}
    ${d.retry && retry ? html`<button type="button" @click=${retry}>${t("retry")}</button>` : nothing}
  </div>`;
}

/** Text columns sort the way a Vietnamese reader expects (Intl.Collator), numbers as numbers. */
const collator = new Intl.Collator("vi", { sensitivity: "base", numeric: true });

export interface TableSetup<T> {
  columns: ColumnDef<T, any>[];
  /** Client-side paging with this page size; omit for a table paged by the server. */
  pageSize?: number;
  globalFilterFn?: (row: T, filter: string) => boolean;
}

/** A TanStack table whose state changes re-render the app. */
export function makeTable<T>(setup: TableSetup<T>): Table<T> {
  const options: TableOptionsResolved<T> = {
    data: [],
    columns: setup.columns.map((c) => ({
      sortingFn: (a, b, id) => {
        const x = a.getValue(id);
        const y = b.getValue(id);
        return typeof x === "number" && typeof y === "number" ? x - y : collator.compare(String(x ?? ""), String(y ?? ""));
      },
      ...c,
    })),
    state: {},
    onStateChange: () => {},
    renderFallbackValue: "",
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    ...(setup.pageSize ? { getPaginationRowModel: getPaginationRowModel() } : {}),
    ...(setup.globalFilterFn
      ? {
          getFilteredRowModel: getFilteredRowModel(),
          globalFilterFn: (row, _col, value) => setup.globalFilterFn!(row.original, String(value ?? "")),
        }
      : {}),
  };
  const table = createTable(options);
  let state: TableState = {
    ...table.initialState,
    pagination: { pageIndex: 0, pageSize: setup.pageSize ?? 1000 },
  };
  table.setOptions((prev) => ({
    ...prev,
    state,
    onStateChange: (updater) => {
      state = functionalUpdate(updater, state);
      table.setOptions((p) => ({ ...p, state }));
      update();
    },
  }));
  return table;
}

export function setTableData<T>(table: Table<T>, data: T[]): void {
  table.setOptions((p) => ({ ...p, data }));
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const headerLabel = (h: { column: { columnDef: { header?: any } }; getContext(): any }) => {
  const def = h.column.columnDef.header;
  return typeof def === "function" ? String(def(h.getContext())) : String(def ?? "");
};

/** The table as HTML: sortable headers are buttons, aria-sort says the order; on a phone each row
 * is a card whose cells carry their column's name (`data-label`). */
export function tableView<T>(table: Table<T>, caption: string): TemplateResult {
  const rows = table.options.getPaginationRowModel ? table.getRowModel().rows : table.getSortedRowModel().rows;
  const labels = new Map(table.getFlatHeaders().map((h) => [h.column.id, headerLabel(h)]));
  return html`<table class="cards">
    <caption class="sr-only">${caption}</caption>
    <thead>
      ${table.getHeaderGroups().map(
        (g) => html`<tr>
          ${g.headers.map((h) => {
            const label = headerLabel(h);
            const sorted = h.column.getIsSorted();
            return html`<th scope="col" aria-sort=${sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : "none"}>
              ${(h.column.columnDef.meta as { headerControl?: () => unknown } | undefined)?.headerControl?.() ?? nothing}
              ${h.column.getCanSort()
                ? html`<button type="button" class="sort" title=${t("sortBy", { col: label })} @click=${h.column.getToggleSortingHandler()}>
                    ${label} <span aria-hidden="true">${sorted === "asc" ? "▲" : sorted === "desc" ? "▼" : "↕"}</span>
                  </button>`
                : label}
            </th>`;
          })}
        </tr>`,
      )}
    </thead>
    <tbody>
      ${rows.map(
        (r) => html`<tr>
          ${r.getVisibleCells().map((c) => {
            const def = c.column.columnDef.cell;
            return html`<td data-label=${labels.get(c.column.id) ?? ""}><span class="cell">${typeof def === "function" ? def(c.getContext()) : c.getValue()}</span></td>`;
          })}
        </tr>`,
      )}
    </tbody>
  </table>`;
}

/** Previous/next for a client-paged table. */
export function pager<T>(table: Table<T>): TemplateResult {
  const { pageIndex } = table.getState().pagination;
  return html`<nav class="pager" aria-label=${t("pageN", { n: pageIndex + 1 })}>
    <button type="button" ?disabled=${!table.getCanPreviousPage()} @click=${() => table.previousPage()}>${t("prevPage")}</button>
    <span>${t("pageN", { n: pageIndex + 1 })} / ${Math.max(1, table.getPageCount())}</span>
    <button type="button" ?disabled=${!table.getCanNextPage()} @click=${() => table.nextPage()}>${t("nextPage")}</button>
  </nav>`;
}
