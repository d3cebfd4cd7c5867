// The shell: optional config.json, language, session restore, hash routes, header and the
// "server unreachable" banner around the current screen.
import { html, nothing, render } from "lit-html";
import { app, applyFocus, endSession, initLang, restoreSession, setRenderer, switchLang, update, type Session } from "./app";
import { forgetCache, resetCache } from "./account-cache";
import { getLang, t } from "./i18n";
import { accountsView, resetAccounts } from "./screens/accounts";
import { bulkNeedsTick, bulkView, resetBulk } from "./screens/bulk";
import { coursesView, resetCourses } from "./screens/courses";
import { grantView, resetGrant } from "./screens/grant";
import { signInView } from "./screens/signin";
import "./style.css";

const root = document.getElementById("app")!;
const ROUTES = [
  ["accounts", "navAccounts"],
  ["courses", "navCourses"],
  ["bulk", "navBulk"],
  ["grant", "navGrant"],
  ["overview", "navOverview"],
] as const;

let lastSession: Session | null = null;
// The Overview and its chart library load with it: no other screen waits for them.
let overview: typeof import("./screens/overview") | null = null;

function screen(route: string, arg?: string) {
  switch (route) {
    case "courses":
      return coursesView();
    case "bulk":
      return bulkView();
    case "grant":
      return grantView();
    case "overview":
      if (overview) return overview.overviewView();
      void import("./screens/overview").then((m) => { overview = m; update(); });
      return html`<main id="main"><h1>${t("navOverview")}</h1><p role="status">${t("loading")}</p></main>`;
    default:
      return accountsView(arg);
  }
}

function view() {
  if (app.session !== lastSession) {
    // A new session or a sign-out: nothing loaded for the previous token is kept; a sign-out
    // also forgets the accounts kept in IndexedDB.
    if (lastSession && !app.session) void forgetCache();
    else resetCache();
    lastSession = app.session;
    resetAccounts();
    resetCourses();
    resetGrant();
    resetBulk();
    overview?.resetOverview();
  }
  document.title = t("appTitle");
  const [, route = "accounts", arg] = location.hash.split("/");
  const langButton = html`<button type="button" class="lang" lang=${getLang() === "vi" ? "en" : "vi"} aria-label=${t("switchLangLabel")}
    @click=${() => switchLang(getLang() === "vi" ? "en" : "vi")}>${t("switchLang")}</button>`;
  if (!app.session) {
    return html`<header class="top"><span class="brand">${t("appTitle")}</span>${langButton}</header>${signInView()}`;
  }
  return html`<a class="skip" href="#main" @click=${(e: Event) => { e.preventDefault(); document.getElementById("main")?.focus(); }}>↓ ${t("skipToMain")}</a>
    <header class="top">
      <span class="brand">${t("appTitle")}</span>
      <nav aria-label=${t("mainNav")}>
        ${ROUTES.map(([r, key]) => html`<a href="#/${r}" aria-current=${r === route ? "page" : "false"}>${t(key)}</a>`)}
      </nav>
      ${langButton}
      <button type="button" @click=${() => { endSession(t("signedOut")); location.hash = ""; }}>${t("signOut")}</button>
    </header>
    ${app.unreachable
      ? html`<div class="unreachable" role="alert">
          <strong>${t("unreachableTitle")}</strong> ${t("unreachableBody")}
          <button type="button" @click=${() => { const r = app.unreachable?.retry; app.unreachable = null; update(); r?.(); }}>${t("retry")}</button>
          <button type="button" @click=${() => { app.unreachable = null; update(); }}>${t("dismiss")}</button>
        </div>`
      : nothing}
    ${screen(route, arg)}`;
}

let firstRender = true;
setRenderer(() => {
  render(view(), root);
  root.querySelector("main")?.setAttribute("tabindex", "-1");
  applyFocus(root);
  if (firstRender) {
    firstRender = false;
    performance.mark("lpm-first-render");
  }
});

async function start(): Promise<void> {
  try {
    const res = await fetch("./config.json", { cache: "no-store" });
    if (res.ok) app.config = await res.json();
  } catch {
    /* no config.json: defaults (same origin, the contract's 10 minutes) */
  }
  initLang();
  restoreSession();
  window.addEventListener("hashchange", update);
  // Countdowns: re-render each second while one is on screen.
  setInterval(() => {
    if (app.session && (bulkNeedsTick() || document.querySelector("[role=timer], [data-tick]"))) update();
  }, 1000);
  update();
}
void start();
