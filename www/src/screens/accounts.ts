// Accounts: a table paged by the server (getUsers, 100 a page) and sorted on the page by
// TanStack Table, search by e-mail or username, and a detail view joined to course titles.
import { MAX_PAGE } from "lpm-client/lazy";
import { html, nothing } from "lit-html";
import { live } from "lit-html/directives/live.js";
import type { User } from "lpm-client";
import { cache, cacheStatusView, forgetCache, loadCache, resetCache, searchByName } from "../account-cache";
import { LOGIN_TOKEN_GAP_MS, app, client, focusNext, handle, loadCourses, siteUrl, update } from "../app";
import type { Described } from "../errors";
import { formatDate, formatVnd, formatWait } from "../format";
import { t, tMaybe } from "../i18n";
import type { Screen } from "../screen";
import { errorBox, makeTable, setTableData, tableView } from "../ui";

export const PAGE = MAX_PAGE;
/** The most name-search results listed (the count says how many there are). */
const NAME_RESULTS = 50;

const fresh = () => ({
  page: 0,
  users: [] as User[],
  loadedPage: -1,
  /** app.usersVersion when the page and the detail were read: older means stale (a write since). */
  pageVersion: 0,
  detailVersion: 0,
  loading: false,
  error: null as Described | null,
  /** What the error box's retry re-runs: the call that failed. */
  retry: null as (() => void) | null,
  query: "",
  /** The name search over the accounts read into this browser. */
  nameQuery: "",
  searching: false,
  searchResult: undefined as User | null | undefined,
  detailId: "",
  /** The account whose detail got the focus when opened ("" on the list). */
  focusedDetail: "",
  detail: null as User | null,
  detailError: null as Described | null,
  /** The site link, shown only when the browser blocked the new tab (the token is in it). */
  loginLink: "",
  loginOpened: false,
  loginBusy: false,
  loginNextAt: 0,
  /** A click inside the 5 s was refused: the wait is announced. */
  loginRefused: false,
});
const s = fresh();

const email = (u: User) => u.emails[0]?.address ?? "";
export const accountLabel = (u: User) => `${u.profile.name} <${email(u) || u.username}>`;

function selectPageBox() {
  const all = s.users.length > 0 && s.users.every((u) => app.picked.has(u._id));
  return html`<input type="checkbox" aria-label=${t("selectPage")} .checked=${live(all)}
    @change=${(e: Event) => {
      const on = (e.target as HTMLInputElement).checked;
      for (const u of s.users) if (on) app.picked.set(u._id, accountLabel(u)); else app.picked.delete(u._id);
      update();
    }} />`;
}

function togglePick(u: User, on: boolean): void {
  if (on) app.picked.set(u._id, accountLabel(u));
  else app.picked.delete(u._id);
  update();
}

const table = makeTable<User>({
  columns: [
    {
      id: "select",
      header: () => t("colSelect"),
      meta: { headerControl: () => selectPageBox() },
      enableSorting: false,
      cell: (c) => {
        const u = c.row.original;
        return html`<input type="checkbox" aria-label=${t("selectAccount", { name: u.profile.name })} .checked=${live(app.picked.has(u._id))} @change=${(e: Event) => togglePick(u, (e.target as HTMLInputElement).checked)} />`;
      },
    },
    {
      id: "name",
      accessorFn: (u) => u.profile.name,
      header: () => t("colName"),
      cell: (c) => html`<a href="#/accounts/${c.row.original._id}">${c.getValue()}</a>`,
    },
    { id: "username", accessorKey: "username", header: () => t("colUsername") },
    { id: "email", accessorFn: email, header: () => t("colEmail") },
    { id: "createdAt", accessorKey: "createdAt", header: () => t("colCreated"), cell: (c) => formatDate(String(c.getValue())) },
    { id: "courses", accessorFn: (u) => u.myCourses?.length ?? 0, header: () => t("colCourses") },
  ],
});

async function loadPage(page: number): Promise<void> {
  s.loading = true;
  s.error = null;
  s.pageVersion = app.usersVersion;
  update();
  try {
    const { users } = await client().getUsers({ start: page * PAGE, limit: PAGE });
    s.users = users;
    s.page = page;
    s.loadedPage = page;
    setTableData(table, users);
  } catch (e) {
    s.retry = () => void loadPage(page);
    s.error = handle(e, s.retry);
  } finally {
    s.loading = false;
    update();
  }
}

async function search(ev: Event): Promise<void> {
  ev.preventDefault();
  const q = s.query.trim();
  if (!q) {
    s.searchResult = undefined;
    return update();
  }
  s.searching = true;
  s.error = null;
  update();
  try {
    // An "@" makes it an e-mail; anything else is a username.
    const { user } = await client().searchUser(q.includes("@") ? { email: q } : { username: q });
    s.searchResult = user;
  } catch (e) {
    if ((e as { category?: string }).category === "notFound") s.searchResult = null;
    else {
      s.retry = () => void search(ev);
      s.error = handle(e, s.retry);
    }
  } finally {
    s.searching = false;
    update();
  }
}

async function loadDetail(id: string): Promise<void> {
  s.detailId = id;
  s.detailVersion = app.usersVersion;
  s.detail = null;
  s.detailError = null;
  s.loginLink = "";
  s.loginOpened = false;
  update();
  try {
    const [{ user }] = await Promise.all([client().getUser(id), loadCourses()]);
    if (s.detailId === id) s.detail = user;
  } catch (e) {
    s.detailError = handle(e, () => void loadDetail(id));
  } finally {
    update();
  }
}

type WithLoginToken = { createLoginToken(userId: string): Promise<{ token: string }> };
function loginTokenMethod(): WithLoginToken["createLoginToken"] | null {
  const c = client() as unknown as Partial<WithLoginToken>;
  return typeof c.createLoginToken === "function" ? c.createLoginToken.bind(c) : null;
}

/**
 * Opens `<site>?login_token=<token>` in a new tab. The tab is opened inside the click (one opened
 * after the await would be blocked as a pop-up) and pointed at the site once the token arrives;
 * if the browser blocked it anyway, the link is shown to click. The token is never logged or kept.
 * Inside the platform's 5 s the click is refused and the wait is shown.
 */
function loginAs(id: string): void {
  const make = loginTokenMethod();
  if (!make || s.loginBusy) return;
  if (Date.now() < s.loginNextAt) {
    s.loginRefused = true;
    update();
    return;
  }
  const tab = window.open("", "_blank");
  s.loginBusy = true;
  s.loginRefused = false;
  s.loginLink = "";
  s.loginOpened = false;
  update();
  make(id)
    .then(({ token }) => {
      const site = siteUrl();
      site.searchParams.set("login_token", token);
      if (tab) {
        tab.opener = null;
        tab.location.href = site.toString();
        s.loginOpened = true;
      } else {
        s.loginLink = site.toString();
      }
    })
    .catch((e: unknown) => {
      tab?.close();
      s.detailError = handle(e);
    })
    .finally(() => {
      s.loginBusy = false;
      s.loginNextAt = Date.now() + LOGIN_TOKEN_GAP_MS;
      setTimeout(() => {
        s.loginRefused = false;
        update();
      }, LOGIN_TOKEN_GAP_MS);
      update();
    });
}

function detailView(id: string) {
  // An account opened (the link followed is gone): focus goes to its name once read.
  if (s.focusedDetail !== id) {
    s.focusedDetail = id;
    focusNext("main h1");
  }
  if (s.detailId !== id || s.detailVersion !== app.usersVersion) void loadDetail(id);
  const u = s.detail;
  const titles = new Map((app.courses ?? []).map((c) => [c._id, c.title]));
  const title = (cid: string) => titles.get(cid) ?? t("unknownCourse", { id: cid });
  const wait = s.loginNextAt - Date.now();
  return html`<main id="main">
    <p><a href="#/accounts">← ${t("back")}</a></p>
    ${errorBox(s.detailError, () => void loadDetail(id))}
    ${!u
      ? s.detailError ? nothing : html`<p role="status">${t("loading")}</p>`
      : html`<h1>${u.profile.name}</h1>
          <section aria-labelledby="h-profile">
            <h2 id="h-profile">${t("profile")}</h2>
            <dl>
              <dt>${t("colUsername")}</dt><dd>${u.username}</dd>
              <dt>${t("colEmail")}</dt>
              <dd>${u.emails.map((e) => html`${e.address} (${e.verified ? t("verified") : t("unverified")}) `)}</dd>
              ${u.profile.phone ? html`<dt>${t("phone")}</dt><dd>${u.profile.phone}</dd>` : nothing}
              <dt>${t("colCreated")}</dt><dd>${formatDate(u.createdAt)}</dd>
            </dl>
            ${loginTokenMethod()
              ? html`<p>
                  <button type="button" aria-disabled=${s.loginBusy || wait > 0 ? "true" : "false"} aria-describedby="login-as-note" @click=${() => loginAs(u._id)}>${t("loginAs")}</button>
                  <span id="login-as-note" class=${s.loginRefused ? "hint refused" : "hint"} role="status" ?data-tick=${wait > 0}>${wait > 0
                    ? t(s.loginRefused ? "loginAsRefused" : "loginAsWait", { s: formatWait(wait) })
                    : s.loginOpened ? t("loginAsOpened") : ""}</span>
                  ${s.loginLink ? html`<a href=${s.loginLink} target="_blank" rel="noopener noreferrer">${t("loginAsLink")}</a>` : nothing}
                </p>`
              : nothing}
          </section>
          <section aria-labelledby="h-enrol">
            <h2 id="h-enrol">${t("enrolments")}</h2>
            ${u.myCourses?.length
              ? html`<table class="cards">
                  <thead><tr><th scope="col">${t("colTitle")}</th><th scope="col">${t("activated")}</th><th scope="col">${t("expires")}</th><th scope="col">${t("progress")}</th></tr></thead>
                  <tbody>
                    ${u.myCourses.map((en) => {
                      const ls = en.lessonStatus ?? [];
                      return html`<tr>
                        <td data-label=${t("colTitle")}>${title(en.courseId)}</td>
                        <td data-label=${t("activated")}>${formatDate(en.activatedDate)}</td>
                        <td data-label=${t("expires")}>${formatDate(en.expiredAt)}</td>
                        <td data-label=${t("progress")}>
                          ${en.finish ? t("finished") : ls.length ? t("lessonsDone", { done: ls.filter((l) => l.finish).length, total: ls.length }) : t("notStarted")}
                          ${en.currentLesson ? html`<br /><span class="hint">${t("currentLesson", { slug: en.currentLesson.lessonSlug })}</span>` : nothing}
                        </td>
                      </tr>`;
                    })}
                  </tbody>
                </table>`
              : html`<p>${t("noEnrolments")}</p>`}
          </section>
          <section aria-labelledby="h-cart">
            <h2 id="h-cart">${t("cart")}</h2>
            ${u.myCart?.length
              ? html`<ul>${u.myCart.map((c) => html`<li>${title(c.courseId)} · ${tMaybe(`cart${c.status}`) ?? c.status}</li>`)}</ul>`
              : html`<p>${t("emptyCart")}</p>`}
          </section>
          <section aria-labelledby="h-balance">
            <h2 id="h-balance">${t("balance")}</h2>
            ${u.balance && Object.keys(u.balance).length
              ? html`<dl>${Object.entries(u.balance).map(([k, v]) => html`<dt>${k}</dt><dd>${typeof v === "number" ? formatVnd(v) : JSON.stringify(v)}</dd>`)}</dl>`
              : html`<p>${t("noBalance")}</p>`}
          </section>`}
  </main>`;
}

function pagerView(where: "top" | "bottom") {
  const go = (page: number) => {
    // The new page is read from its top: focus (and the view) go to its first line.
    focusNext("#page-range");
    void loadPage(page);
  };
  return html`<nav class="pager" aria-label=${t(where === "top" ? "pagerTop" : "pagerBottom")}>
    <button type="button" ?disabled=${s.page === 0 || s.loading} @click=${() => go(s.page - 1)}>${t("prevPage")}</button>
    <span>${t("pageN", { n: s.page + 1 })}${cache.value ? ` / ${Math.max(1, Math.ceil(cache.value.accounts.length / PAGE))}` : ""}</span>
    <button type="button" ?disabled=${s.users.length < PAGE || s.loading} @click=${() => go(s.page + 1)}>${t("nextPage")}</button>
    ${where === "top" ? html`<button type="button" ?disabled=${s.loading} @click=${() => void loadPage(s.page)}>${t("reload")}</button>` : nothing}
  </nav>`;
}

/** The accounts read into this browser: their count and age, a refresh, and the name search. */
function cacheView() {
  void loadCache();
  const c = cache.value;
  const found = c && s.nameQuery.trim() ? searchByName(s.nameQuery) : null;
  return html`<section class="name-search" aria-labelledby="h-names">
    <h2 id="h-names">${t("nameSearchTitle")}</h2>
    <p class="hint">${t("platformSearchNote")}</p>
    ${cacheStatusView("cache-age", "cacheNone")}
    ${c
      ? html`<div class="row" role="search" aria-label=${t("nameSearchTitle")}>
          <label for="name-search">${t("nameSearch")}</label>
          <input id="name-search" type="search" .value=${live(s.nameQuery)} @input=${(e: Event) => { s.nameQuery = (e.target as HTMLInputElement).value; update(); }} />
        </div>`
      : nothing}
    ${found
      ? html`<p role="status">${t("nameMatches", { n: found.length })}</p>
          <ul class="name-results">
            ${found.slice(0, NAME_RESULTS).map((a) => html`<li><a href="#/accounts/${a._id}">${a.name}</a> <span class="hint">${a.username} · ${a.email}</span></li>`)}
          </ul>
          ${found.length > NAME_RESULTS ? html`<p class="hint">${t("nameMore", { n: NAME_RESULTS })}</p>` : nothing}`
      : nothing}
  </section>`;
}

function accountsView(id?: string) {
  if (id) return detailView(id);
  s.focusedDetail = "";
  if (s.loadedPage < 0 && !s.loading && !s.error) void loadPage(0);
  else if (s.loadedPage >= 0 && s.pageVersion !== app.usersVersion && !s.loading) void loadPage(s.page);
  const from = s.page * PAGE + 1;
  const total = cache.value?.accounts.length;
  return html`<main id="main">
    <h1>${t("accountsTitle")}</h1>
    <form class="row" role="search" aria-label=${t("platformSearch")} @submit=${search}>
      <label for="acc-search">${t("searchAccounts")}</label>
      <input id="acc-search" type="search" .value=${live(s.query)} @input=${(e: Event) => { s.query = (e.target as HTMLInputElement).value; }} />
      <button type="submit" ?disabled=${s.searching}>${t("search")}</button>
      ${s.searchResult !== undefined ? html`<button type="button" @click=${() => { s.query = ""; s.searchResult = undefined; update(); }}>${t("clearSearch")}</button>` : nothing}
    </form>
    ${s.searchResult === null ? html`<p role="status">${t("noMatch")} ${t("noMatchHint")}</p>` : nothing}
    ${s.searchResult
      ? html`<p role="status" class="found"><a href="#/accounts/${s.searchResult._id}">${accountLabel(s.searchResult)}</a>
          <label class="check"><input type="checkbox" .checked=${live(app.picked.has(s.searchResult._id))} @change=${(e: Event) => togglePick(s.searchResult!, (e.target as HTMLInputElement).checked)} /> ${t("colSelect")}</label></p>`
      : nothing}
    ${cacheView()}
    ${errorBox(s.error, s.retry ?? undefined)}
    ${app.picked.size ? html`<p class="picked">${t("selectedForGrant", { n: app.picked.size })} <a href="#/grant">${t("goGrant")}</a></p>` : nothing}
    ${s.loading ? html`<p role="status">${t("loading")}</p>` : nothing}
    ${s.loadedPage >= 0
      ? html`<p id="page-range">${t("pageRange", { from, to: from + s.users.length - 1 })}${total !== undefined ? ` ${t("ofTotal", { n: total })}` : ""}</p>
          <p class="hint">${t("sortPageOnly", { n: PAGE })}</p>
          ${pagerView("top")}
          ${tableView(table, t("accountsTitle"))}
          ${pagerView("bottom")}`
      : nothing}
  </main>`;
}

/** Forget what was loaded (sign-out, a new session). */
function resetAccounts(): void {
  Object.assign(s, fresh());
  setTableData(table, []);
}

export const accountsScreen: Screen = {
  route: "accounts",
  nav: "navAccounts",
  view: accountsView,
  async reset(why) {
    resetAccounts();
    // Decision: the accounts read into IndexedDB go whenever a session ends (an expired token
    // too), not only at a sign-out: they are read again at will, and nobody should find them.
    if (why === "session" && app.session) {
      resetCache();
      return [];
    }
    const n = await forgetCache();
    return n ? [t("forgotAccounts", { n })] : [];
  },
};
