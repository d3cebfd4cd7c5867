// The app's shared state: the session (client and token, in memory), the route, the language,
// the "server unreachable" banner, and a render scheduler the screens call after changing state.
import { Client, webStorageStore, type Course } from "lpm-client/lazy";
import type { Client as BulkClient } from "lpm-client-bulk";
import { describe, type Described } from "./errors";
import { setLang, t, type Lang } from "./i18n";

export interface Config {
  /** Platform address; default this page's origin. */
  baseUrl?: string;
  /** The bulk-create interval; default the contract's 10 minutes (tests and the emulator use less). */
  createIntervalMs?: number;
  /** The import engine's wait before looking up rows whose answer was lost; default the engine's. */
  retryDelayMs?: number;
  /** The learners' site, which "log in as" opens with `?login_token=`: its own address, as the
   * platform's API and its site are two addresses; relative to this page; default the platform's. */
  siteUrl?: string;
}

/** Where "log in as" sends a learner: `siteUrl` of config.json, else the platform's address. */
export function siteUrl(): URL {
  return new URL(app.config.siteUrl ?? app.session?.baseUrl ?? location.origin, location.href);
}

export interface Session {
  client: Client;
  baseUrl: string;
  /** The same session on lpm-client-bulk, loaded on first use (see `bulkClient`). */
  bulk: () => Promise<BulkClient>;
}
export type { BulkClient };

const SESSION_KEY = "lpm.session";
const LANG_KEY = "lpm.lang";

export const app = {
  config: {} as Config,
  /** Resolves once config.json is read and the package's wasm is in (main.ts): a client may be
   * made from then on. */
  loaded: Promise.resolve() as Promise<void>,
  session: null as Session | null,
  /** Why the sign-in screen is shown (expired token, signed out). */
  signInNote: "",
  unreachable: null as null | { retry: () => void },
  /** Accounts picked on the Accounts screen for the Grant screen: id → label. */
  picked: new Map<string, string>(),
  courses: null as Course[] | null,
  /** Bumped by every write that changes accounts (grant, create): a screen showing accounts it
   * read at an older version reads them again when next shown. */
  usersVersion: 0,
};

/** A write changed accounts: the screens showing accounts read them again. */
export function usersChanged(): void {
  app.usersVersion += 1;
  update();
}

/** Where focus goes after the next render that has it (a control that disappeared, a new screen). */
let focusTarget: string | null = null;
export function focusNext(selector: string): void {
  focusTarget = selector;
  update();
}
/** Moves focus to the pending target once it is on screen (kept until then). */
export function applyFocus(root: HTMLElement): void {
  if (!focusTarget) return;
  const el = root.querySelector<HTMLElement>(focusTarget);
  if (!el) return;
  focusTarget = null;
  if (!el.matches("a[href], button, input, select, textarea, [tabindex]")) el.setAttribute("tabindex", "-1");
  el.focus();
}

let renderer: () => void = () => {};
let scheduled = false;
export function setRenderer(r: () => void): void {
  renderer = r;
}
/** Re-renders once after the current task; screens call it after changing state. */
export function update(): void {
  if (scheduled) return;
  scheduled = true;
  queueMicrotask(() => {
    scheduled = false;
    renderer();
  });
}

export function initLang(): void {
  const saved = localStorage.getItem(LANG_KEY);
  setLang(saved === "en" ? "en" : "vi");
}
export function switchLang(l: Lang): void {
  localStorage.setItem(LANG_KEY, l);
  setLang(l);
  update();
}

export function defaultBaseUrl(): string {
  return app.config.baseUrl ?? location.origin;
}

/** The platform advises at least 5 s between two create-user-login-token calls: given to the
 * client, which keeps it, and shown by the "log in as" button's countdown. */
export const LOGIN_TOKEN_GAP_MS = 5000;

/** Options of both packages' clients. The interval store in localStorage makes the create
 * interval hold across reloads, tabs and the two clients (its key is the base URL and a hash of
 * the token, never the token). */
function clientOptions(baseUrl: string, token?: string) {
  return {
    baseUrl,
    token,
    ownToken: true, // the token is the signed-in staff member's own (`login`), not one in the page
    intervalStore: webStorageStore(localStorage),
    loginTokenInterval: { intervalMs: LOGIN_TOKEN_GAP_MS },
    ...(app.config.createIntervalMs !== undefined ? { createInterval: { intervalMs: app.config.createIntervalMs } } : {}),
  };
}

export function makeClient(baseUrl: string, token?: string): Client {
  return new Client(clientOptions(baseUrl, token));
}

// Every screen but bulk create (and grants to more than 100 accounts) loads the lean lpm-client;
// those two load lpm-client-bulk on first use: its engines are wasm that a sign-in or a table
// page should not wait for (sizes: docs/performance.md).
function session(baseUrl: string, token: string): Session {
  let bulk: Promise<BulkClient> | undefined;
  return {
    client: makeClient(baseUrl, token),
    baseUrl,
    bulk: () => (bulk ??= import("lpm-client-bulk").then((m) => new m.Client(clientOptions(baseUrl, token)))),
  };
}

/** This session's lpm-client-bulk client (a second Client with the same base URL and token). */
export function bulkClient(): Promise<BulkClient> {
  if (!app.session) return Promise.reject(new Error("not signed in"));
  return app.session.bulk();
}

/** Keeps the session; the token goes to sessionStorage only when the user asked for it. */
export function startSession(baseUrl: string, token: string, remember: boolean): void {
  app.session = session(baseUrl, token);
  app.signInNote = "";
  if (remember) sessionStorage.setItem(SESSION_KEY, JSON.stringify({ baseUrl, token }));
  else sessionStorage.removeItem(SESSION_KEY);
  focusNext("main h1");
}

/** Whether this tab keeps a session (the user asked to stay signed in). */
export const hasSavedSession = (): boolean => sessionStorage.getItem(SESSION_KEY) !== null;

export function restoreSession(): void {
  const raw = sessionStorage.getItem(SESSION_KEY);
  if (!raw) return;
  try {
    const { baseUrl, token } = JSON.parse(raw) as { baseUrl: string; token: string };
    app.session = session(baseUrl, token);
  } catch {
    sessionStorage.removeItem(SESSION_KEY);
  }
}

/** Forgets the token everywhere (memory and sessionStorage) and shows sign-in with `note`. */
export function endSession(note: string): void {
  sessionStorage.removeItem(SESSION_KEY);
  // Not free()d here: a call of this client may still be in flight; the wasm side is released
  // when the object is collected.
  app.session = null;
  app.signInNote = note;
  app.picked.clear();
  app.courses = null;
  app.unreachable = null;
  // The button pressed (sign-out, or whatever met the expired token) is gone: focus goes to the
  // line that says why this screen is shown.
  focusNext("#signin-note");
}

export function client(): Client {
  if (!app.session) throw new Error("not signed in");
  return app.session.client;
}

/**
 * Handles what every screen handles the same way: an expired token returns to sign-in with the
 * reason, an unreachable server raises the banner (its retry re-runs `retry`). Returns the
 * description for the screen to show inline.
 */
export function handle(e: unknown, retry?: () => void): Described {
  const d = describe(e);
  if (d.signOut) endSession(t("expiredReason"));
  else if (d.unreachable && retry) app.unreachable = { retry };
  update();
  return d;
}

/** Every course, loaded once per session and shared by the screens that join to titles. */
export async function loadCourses(): Promise<Course[]> {
  if (app.courses) return app.courses;
  const out: Course[] = [];
  for await (const c of client().allCourses()) out.push(c);
  app.courses = out;
  return out;
}
