// Every account of the platform, read page by page (getUsers, 100 a call) with progress and kept
// in IndexedDB with the time it was read: the name search of the Accounts screen (the platform
// searches only a whole e-mail or username) and the Overview are computed from it. Only what they
// need is kept (no cart, no balance); it is forgotten at sign-out, like everything read for a token.
import { MAX_PAGE } from "lpm-client/lazy";
import { html, nothing } from "lit-html";
import type { User } from "lpm-client";
import { app, client, handle, update } from "./app";
import { db } from "./db";
import { describe } from "./errors";
import { fold, formatAge, formatDateTime } from "./format";
import { t, type Key } from "./i18n";
import { errorBox } from "./ui";

export interface CachedEnrolment {
  courseId: string;
  activatedDate: string;
  finish: boolean;
  lessonsDone: number;
  lessonsTotal: number;
}
export interface CachedAccount {
  _id: string;
  name: string;
  username: string;
  email: string;
  createdAt: string;
  courses: CachedEnrolment[];
}
export interface AccountCache {
  baseUrl: string;
  /** When the read ended (ms). */
  at: number;
  accounts: CachedAccount[];
}

const PAGE = MAX_PAGE;

const slim = (u: User): CachedAccount => ({
  _id: u._id,
  name: u.profile.name,
  username: u.username,
  email: u.emails[0]?.address ?? "",
  createdAt: u.createdAt,
  courses: (u.myCourses ?? []).map((c) => ({
    courseId: c.courseId,
    activatedDate: c.activatedDate,
    finish: !!c.finish,
    lessonsDone: (c.lessonStatus ?? []).filter((l) => l.finish).length,
    lessonsTotal: (c.lessonStatus ?? []).length,
  })),
});

export const cache = {
  value: null as AccountCache | null,
  loaded: false,
  /** Accounts read so far while a read runs. */
  reading: null as null | { read: number },
  /** app.usersVersion when it was read: a write since then makes it out of date. */
  version: -1,
  error: null as unknown,
};

/** The cache of this session's platform, from IndexedDB (once). */
export async function loadCache(): Promise<void> {
  if (cache.loaded || !app.session) return;
  cache.loaded = true;
  const stored = (await (await db).get("accounts", app.session.baseUrl)) as AccountCache | undefined;
  if (stored && !cache.value) {
    cache.value = stored;
    cache.version = app.usersVersion;
  }
  update();
}

/** Reads every account again, page by page, and keeps them. */
export async function refreshCache(): Promise<void> {
  const session = app.session;
  if (cache.reading || !session) return;
  const baseUrl = session.baseUrl;
  cache.reading = { read: 0 };
  cache.error = null;
  const version = app.usersVersion;
  update();
  try {
    const out: CachedAccount[] = [];
    for (let start = 0; ; start += PAGE) {
      const { users } = await client().getUsers({ start, limit: PAGE });
      out.push(...users.map(slim));
      cache.reading = { read: out.length };
      update();
      if (users.length < PAGE) break;
    }
    const value: AccountCache = { baseUrl, at: Date.now(), accounts: out };
    // Signed out (or in again) meanwhile: what was read belongs to the old session.
    if (app.session !== session) return;
    await (await db).put("accounts", value, baseUrl);
    cache.value = value;
    cache.version = version;
  } catch (e) {
    cache.error = e;
    // An expired token signs out, an unreachable server raises the banner, as everywhere.
    handle(e, () => void refreshCache());
  } finally {
    cache.reading = null;
    update();
  }
}

/** Whether a write happened since the accounts were read. */
export const cacheStale = () => cache.value !== null && cache.version !== app.usersVersion;

/** Accounts whose name (or username, or e-mail) holds `q`, accents and case ignored. */
export function searchByName(q: string): CachedAccount[] {
  const needle = fold(q.trim());
  if (!needle || !cache.value) return [];
  return cache.value.accounts.filter((a) => fold(`${a.name} ${a.username} ${a.email}`).includes(needle));
}

/** Drops the accounts held in memory (a new session reads its own from IndexedDB). */
export function resetCache(): void {
  cache.value = null;
  cache.loaded = false;
  cache.version = -1;
  cache.error = null;
}

/** Forgets the accounts read, in memory and in IndexedDB (a session's end); resolves with how
 * many accounts were kept there. */
export async function forgetCache(): Promise<number> {
  resetCache();
  const d = await db;
  const kept = ((await d.getAll("accounts")) as AccountCache[]).reduce((n, c) => n + c.accounts.length, 0);
  await d.clear("accounts");
  return kept;
}

/** The accounts read: reading (with the count so far), their number and age with "read again",
 * or `none` and a button to read them; the error of a failed read with its retry. */
export function cacheStatusView(id: string, none: Key) {
  const c = cache.value;
  return html`${cache.reading
      ? html`<p role="status">${t("cacheReading", { n: cache.reading.read })}</p>`
      : c
        ? html`<p id=${id} data-tick>${t("cacheAge", { n: c.accounts.length, age: formatAge(Date.now() - c.at), time: formatDateTime(c.at) })}
            ${cacheStale() ? html`<strong>${t("cacheStale")}</strong>` : nothing}
            <button type="button" @click=${() => void refreshCache()}>${t("cacheRefresh")}</button></p>`
        : html`<p>${t(none)} <button type="button" @click=${() => void refreshCache()}>${t("cacheRead")}</button></p>`}
    ${cache.error ? errorBox(describe(cache.error), () => void refreshCache()) : nothing}`;
}
