// The bulk screen's chunk runner, and the only module that talks to the create endpoint.
//
// Its call shape is the package's coming resumable import engine,
// `client.importUsers(rows, { journal, onProgress, signal, chunkSize })`; until that exists it is
// implemented here on `client.createUsers` + `client.nextCreateAllowedAt`, with its journal in
// IndexedDB. Swapping it for the package's engine replaces this file and nothing else.
import { openDB } from "idb";
import { ApiError, IntervalError, type Client, type NewUser } from "lpm-client";

export type RowStatus = "pending" | "sent" | "created" | "verified" | "failed";
export interface RowResult {
  status: RowStatus;
  /** The platform's per-item status ("Email already in use") or why the row failed. */
  message?: string;
  userId?: string;
}
export interface ImportState {
  rows: NewUser[];
  results: RowResult[];
  /** When the next bulk create is allowed, as the client said after the last call (ms since epoch). */
  nextAllowedAt: number | null;
}
export interface Progress {
  total: number;
  done: number;
  created: number;
  failed: number;
  results: readonly RowResult[];
  /** Set while the runner waits for the create interval. */
  waitingUntil: Date | null;
}
export interface Journal {
  load(): Promise<ImportState | undefined>;
  save(state: ImportState): Promise<void>;
  clear(): Promise<void>;
}
export interface ImportOptions {
  journal: Journal;
  onProgress?: (p: Progress) => void;
  signal?: AbortSignal;
  /** Items per create call: 1..100 (the contract's maximum, the default). */
  chunkSize?: number;
}

/** A journal kept in IndexedDB, so a reload in the middle of an import loses nothing. */
export function indexedDbJournal(dbName = "lpm-dashboard"): Journal {
  const db = openDB(dbName, 1, { upgrade: (d) => void d.createObjectStore("imports") });
  return {
    load: async () => (await db).get("imports", "current") as Promise<ImportState | undefined>,
    save: async (state) => void (await (await db).put("imports", structuredClone(state), "current")),
    clear: async () => void (await (await db).delete("imports", "current")),
  };
}

export function progressOf(state: ImportState, waitingUntil: Date | null = null): Progress {
  const count = (...st: RowStatus[]) => state.results.filter((r) => st.includes(r.status)).length;
  const created = count("created", "verified");
  const failed = count("failed");
  return { total: state.rows.length, done: created + failed, created, failed, results: state.results, waitingUntil };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

const sameRows = (a: NewUser[], b: NewUser[]) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Creates `rows` in chunks, keeping the create interval, recording every step in `journal`
 * before and after each call. Called again with the same rows (after a reload, an error or a
 * pause) it resumes: rows whose call was sent but never answered are looked up by e-mail first,
 * so none is created twice. A POST is never retried blindly.
 */
export async function importUsers(client: Client, rows: NewUser[], options: ImportOptions): Promise<Progress> {
  const { journal, onProgress, signal } = options;
  const chunkSize = Math.min(100, Math.max(1, options.chunkSize ?? 100));
  const saved = await journal.load();
  const state: ImportState =
    saved && sameRows(saved.rows, rows)
      ? saved
      : { rows, results: rows.map(() => ({ status: "pending" as const })), nextAllowedAt: null };
  await journal.save(state);
  const report = (waitingUntil: Date | null = null) => onProgress?.(progressOf(state, waitingUntil));
  report();

  // Rows sent before a reload or a lost answer: did the platform create them?
  for (const [i, r] of state.results.entries()) {
    if (r.status !== "sent") continue;
    signal?.throwIfAborted();
    try {
      const { user } = await client.searchUser({ email: rows[i].email }, { signal });
      state.results[i] = { status: "verified", userId: user._id };
    } catch (e) {
      if (!(e instanceof ApiError && e.category === "notFound")) throw e;
      state.results[i] = { status: "pending" };
    }
    await journal.save(state);
    report();
  }

  for (;;) {
    const next = state.results.flatMap((r, i) => (r.status === "pending" ? [i] : [])).slice(0, chunkSize);
    if (next.length === 0) break;
    // The client knows the interval in this page; the journal knows it across reloads.
    const allowedAt = Math.max(client.nextCreateAllowedAt()?.getTime() ?? 0, state.nextAllowedAt ?? 0);
    if (allowedAt > Date.now()) {
      report(new Date(allowedAt));
      await sleep(allowedAt - Date.now(), signal);
    }
    signal?.throwIfAborted();
    for (const i of next) state.results[i] = { status: "sent" };
    await journal.save(state);
    report();
    try {
      const reply = await client.createUsers(next.map((i) => rows[i]), { signal });
      reply.users.forEach((item, k) => {
        // Items come back in request order; the e-mail, when echoed, confirms the match.
        const i = next[k];
        if (i === undefined) return;
        state.results[i] = item.success
          ? { status: "created", userId: item.userId ?? undefined, message: item.status }
          : { status: "failed", message: item.status };
      });
    } catch (e) {
      // Refused before anything was created (interval, validation, an error code): the rows go
      // back to pending. Anything else (network, timeout, abort) leaves them "sent", checked on resume.
      const refused = e instanceof IntervalError || e instanceof ApiError || (e as { kind?: string }).kind === "validation";
      if (refused) for (const i of next) state.results[i] = { status: "pending" };
      if (e instanceof IntervalError) {
        state.nextAllowedAt = Math.max(state.nextAllowedAt ?? 0, e.nextAllowedAt.getTime());
        await journal.save(state);
        continue; // wait for it at the top of the loop
      }
      throw e;
    } finally {
      const after = client.nextCreateAllowedAt()?.getTime() ?? 0;
      state.nextAllowedAt = Math.max(state.nextAllowedAt ?? 0, after) || null;
      await journal.save(state);
      report();
    }
  }
  // Done: the journal holds passwords, so it goes; the caller keeps the results it was given.
  const final = progressOf(state);
  await journal.clear();
  return final;
}
