// The shell: optional config.json, language, session restore, hash routes, header and the
// "server unreachable" banner around the current screen.
import { html, nothing, render } from "lit-html";
import { ready } from "lpm-client/lazy";
import { app, applyFocus, endSession, focusNext, hasSavedSession, initLang, restoreSession, setRenderer, switchLang, update, type Session } from "./app";
import { forgetSavedJob, jobAtRisk } from "./bulk-job";
import { getLang, t, type Key } from "./i18n";
import type { Screen } from "./screen";
import { accountsScreen } from "./screens/accounts";
import { coursesScreen } from "./screens/courses";
import { grantScreen } from "./screens/grant";
import { signInView } from "./screens/signin";
import "./style.css";

const root = document.getElementById("app")!;

/**
 * A screen whose code loads when it is first shown: no other screen waits for it (the bulk
 * screen's editor and runner, the Overview and its chart library). Until then, `unloaded` says
 * what it stored in this browser in an earlier visit and forgets it.
 */
function lazyScreen<M>(route: string, nav: Key, load: () => Promise<M>, screenOf: (m: M) => Screen, unloaded: Partial<Screen> = {}): Screen & { loaded: () => M | null } {
  let module: M | null = null;
  let loading: Promise<void> | null = null;
  const screen = () => (module ? screenOf(module) : null);
  return {
    route,
    nav,
    view(arg) {
      const s = screen();
      if (s) return s.view(arg);
      // (A chunk that failed to load is tried again at the next render.)
      loading ??= load().then((m) => { module = m; update(); }, () => { loading = null; });
      return html`<main id="main"><h1>${t(nav)}</h1><p role="status">${t("loading")}</p></main>`;
    },
    reset: (why) => (screen() ?? unloaded).reset?.(why),
    atRisk: () => (screen() ?? unloaded).atRisk?.() ?? Promise.resolve(null),
    loaded: () => module,
  };
}

const bulkScreen = lazyScreen("bulk", "navBulk", () => import("./screens/bulk/view"), (m) => m.bulkScreen, {
  reset: (why) => (why === "signOut" ? forgetSavedJob() : undefined),
  atRisk: () => jobAtRisk(),
});
const overviewScreen = lazyScreen("overview", "navOverview", () => import("./screens/overview"), (m) => m.overviewScreen);

/** Every screen, in the navigation's order; the first is shown for an unknown route. */
const SCREENS: readonly Screen[] = [accountsScreen, coursesScreen, bulkScreen, grantScreen, overviewScreen];

let lastSession: Session | null = null;
/** What a sign-out would lose, while the user is asked whether to sign out anyway. */
let signOutRisks: string[] | null = null;

/**
 * Sign-out: every screen forgets what it holds and what it stored in this browser (rows and
 * passwords of an import, the accounts read), and the note says what was forgotten. When a
 * paused import would be lost, the user is asked first.
 */
async function signOut(confirmed: boolean): Promise<void> {
  if (!confirmed) {
    const risks = (await Promise.all(SCREENS.map((s) => s.atRisk?.() ?? null))).filter((r): r is string => !!r);
    if (risks.length) {
      signOutRisks = risks;
      focusNext("#signout-ask");
      return;
    }
  }
  signOutRisks = null;
  // The token goes whatever happens; what could not be removed (IndexedDB refused) is said.
  let failed = false;
  const forgot = (await Promise.all(SCREENS.map(async (s) => {
    try {
      return (await s.reset("signOut")) ?? [];
    } catch {
      failed = true;
      return [];
    }
  }))).flat();
  endSession([t("signedOut"), ...(forgot.length ? [t("forgotten", { what: forgot.join("; ") })] : []), ...(failed ? [t("forgetFailed")] : [])].join(" "));
  location.hash = "";
}

function signOutAsk() {
  if (!signOutRisks) return nothing;
  return html`<div id="signout-ask" class="warning ask" role="alertdialog" aria-labelledby="signout-ask-text">
    <p id="signout-ask-text">${t("signOutRisk", { what: signOutRisks.join("; ") })}</p>
    <button type="button" @click=${() => void signOut(true)}>${t("signOutAnyway")}</button>
    <button type="button" class="primary" @click=${() => { signOutRisks = null; focusNext("main h1"); }}>${t("stay")}</button>
  </div>`;
}

function view() {
  if (app.session !== lastSession) {
    // A new session or an ended one: nothing loaded for the previous token is kept in memory.
    lastSession = app.session;
    signOutRisks = null;
    for (const s of SCREENS) void s.reset("session");
  }
  document.title = t("appTitle");
  const [, route = "", arg] = location.hash.split("/");
  const current = SCREENS.find((s) => s.route === route) ?? SCREENS[0];
  const langButton = html`<button type="button" class="lang" lang=${getLang() === "vi" ? "en" : "vi"} aria-label=${t("switchLangLabel")}
    @click=${() => switchLang(getLang() === "vi" ? "en" : "vi")}>${t("switchLang")}</button>`;
  if (!app.session) {
    return html`<header class="top"><span class="brand">${t("appTitle")}</span>${langButton}</header>${signInView()}`;
  }
  return html`<a class="skip" href="#main" @click=${(e: Event) => { e.preventDefault(); document.getElementById("main")?.focus(); }}>↓ ${t("skipToMain")}</a>
    <header class="top">
      <span class="brand">${t("appTitle")}</span>
      <nav aria-label=${t("mainNav")}>
        ${SCREENS.map((s) => html`<a href="#/${s.route}" aria-current=${s === current ? "page" : "false"}>${t(s.nav)}</a>`)}
      </nav>
      ${langButton}
      <button type="button" @click=${() => void signOut(false)}>${t("signOut")}</button>
    </header>
    ${signOutAsk()}
    ${app.unreachable
      ? html`<div class="unreachable" role="alert">
          <strong>${t("unreachableTitle")}</strong> ${t("unreachableBody")}
          <button type="button" @click=${() => { const r = app.unreachable?.retry; app.unreachable = null; update(); r?.(); }}>${t("retry")}</button>
          <button type="button" @click=${() => { app.unreachable = null; update(); }}>${t("dismiss")}</button>
        </div>`
      : nothing}
    ${current.view(arg)}`;
}

let firstRender = true;
let usable = false;
setRenderer(() => {
  render(view(), root);
  root.querySelector("main")?.setAttribute("tabindex", "-1");
  applyFocus(root);
  if (firstRender) {
    firstRender = false;
    performance.mark("lpm-first-render");
  }
  // Usable: a screen is on it and a press works at once (config.json and the wasm are in).
  if (!usable && loaded) {
    usable = true;
    performance.mark("lpm-usable");
  }
});

let loaded = false;
async function loadConfig(): Promise<void> {
  try {
    const res = await fetch("./config.json", { cache: "no-store" });
    if (res.ok) app.config = await res.json();
  } catch {
    /* no config.json: defaults (same origin, the contract's 10 minutes) */
  }
}

async function start(): Promise<void> {
  initLang();
  window.addEventListener("hashchange", update);
  // Countdowns: re-render each second while one is on screen.
  setInterval(() => {
    if (app.session && (bulkScreen.loaded()?.bulkNeedsTick() || document.querySelector("[role=timer], [data-tick]"))) update();
  }, 1000);
  // The sign-in screen renders at once; config.json and the package's wasm load beside it (a
  // sign-in waits for them). A session kept in this tab is shown once they are in.
  app.loaded = Promise.all([loadConfig(), ready()]).then(() => {});
  if (!hasSavedSession()) update();
  await app.loaded.catch(() => {});
  loaded = true;
  restoreSession();
  update();
}
void start();
