// lpm-client-bulk's bulk jobs as a typed program would write them. tests/types/check.sh compiles
// it with `tsc --strict --exactOptionalPropertyTypes --noEmit` against the packed lpm-client-bulk;
// it is never run. Its `@ts-expect-error` lines must not compile (an unused one is an error).
import {
  AbortError,
  Client,
  GrantAbortError,
  ImportAbortError,
  LpmError,
  SyncAbortError,
  fileJournal,
  indexedDbJournal,
  isLpmError,
  memoryJournal,
} from "lpm-client-bulk";
import type {
  BulkMethods,
  GrantCoursesOptions,
  GrantReport,
  ImportReport,
  ImportUsersOptions,
  JournalEvent,
  JournalStore,
  NewUser,
  Progress,
  RowIssues,
  SyncAccountsOptions,
  SyncReport,
} from "lpm-client-bulk";

type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function expectType<T extends true>(): void {}

const maybe = (name: string): string | undefined => process.env[name];
const client = new Client({ baseUrl: "https://school.example.com", token: maybe("LPM_TOKEN") });

// The bulk jobs are the client's methods here (lpm-client's Client has neither).
expectType<Equals<Client["importUsers"], BulkMethods["importUsers"]>>();
expectType<Equals<Awaited<ReturnType<Client["importUsers"]>>, ImportReport>>();
expectType<Equals<Awaited<ReturnType<Client["grantCourses"]>>, GrantReport>>();
expectType<Equals<Awaited<ReturnType<Client["syncAccounts"]>>, SyncReport>>();

async function syncWork(c: Client, rows: unknown[]): Promise<boolean> {
  const options: SyncAccountsOptions = {
    journal: fileJournal("sync.jsonl"),
    chunkSize: 50,
    onPlan: (create: number[], so: SyncReport) => Object.fromEntries(create.filter((i) => so.rows[i]?.result.kind === "notSent").map((i) => [i, "a-password-1"])),
  };
  try {
    const report = await c.syncAccounts({ rows, courses: rows.map(() => ["c1"]) }, options);
    for (const row of report.rows) if (row.result.kind === "exists" && row.grant?.kind === "granted") console.log(row.result.userId, row.lacked, row.other);
    // @ts-expect-error each row's courses are a list of ids
    await c.syncAccounts({ rows, courses: ["c1"] });
    return report.nothingToSend;
  } catch (e) {
    if (e instanceof SyncAbortError) return e.report.counts.created > 0;
    throw e;
  }
}
void syncWork;

async function bulkWork(c: Client, rows: NewUser[]): Promise<number> {
  const journal: JournalStore = memoryJournal();
  const report: ImportReport = await c.importUsers(rows, {
    journal,
    chunkSize: 50,
    lang: "vi",
    onProgress: (p: Progress) => console.log(p.done, p.remaining, p.nextSendAt ?? "now"),
    onIssues: (found: RowIssues[]) => console.log(found.length),
    signal: AbortSignal.timeout(60_000),
  });
  for (const row of report.rows) {
    if (row.result.kind === "created") console.log(row.result.userId);
    if (row.result.kind === "setAside") console.log(row.result.issues.map((i) => i.message));
  }
  // @ts-expect-error a row is an account: `emial` is no key of one
  await c.importUsers([{ name: "An", username: "an", emial: "an@example.vn", password: "matkhau123" }]);
  // @ts-expect-error a grant's accounts are ids (strings)
  await c.grantCourses({ users: [1], courses: ["c1"] });
  // @ts-expect-error chunkSize is a number
  await c.importUsers(rows, { chunkSize: "50" });
  // @ts-expect-error a journal needs load and append
  await c.importUsers(rows, { journal: { load: () => [] } });
  // @ts-expect-error a grant's courses are ids (strings)
  await c.grantCourses({ users: ["u1"], courses: [1] });
  const grant: GrantReport = await c.grantCourses({ users: ["u1"], courses: ["c1"] }, { journal: fileJournal("grant.jsonl") });
  const events: readonly JournalEvent[] = await indexedDbJournal("job").load();
  return report.counts.created + grant.counts.granted + events.length;
}

// An aborted job's error carries its own job's report.
async function resumable(rows: NewUser[], signal: AbortSignal): Promise<string> {
  try {
    await client.importUsers(rows, { journal: fileJournal("import.jsonl"), signal });
    await client.grantCourses({ users: ["u1"], courses: ["c1"] }, { signal });
    return "done";
  } catch (e) {
    if (e instanceof ImportAbortError) {
      expectType<Equals<typeof e.report, ImportReport>>();
      const first: string | undefined = e.report.rows[0]?.email;
      // @ts-expect-error an import's rows are no grant's (they have no userId)
      console.log(e.report.rows[0]?.userId);
      return `stopped with ${e.report.counts.created} created (${first ?? "none"}); run again to resume`;
    }
    if (e instanceof GrantAbortError) {
      expectType<Equals<typeof e.report, GrantReport>>();
      return `stopped with ${e.report.counts.granted} granted, ${e.report.rows[0]?.userId ?? ""}`;
    }
    // All are AbortErrors (kind "abort") and LpmErrors; a plain AbortError is a call's, or a job's
    // report of any kind.
    if (e instanceof AbortError) {
      expectType<Equals<typeof e.report, ImportReport | GrantReport | SyncReport | undefined>>();
      return "aborted";
    }
    if (isLpmError(e) && e.kind === "abort") return e.message;
    throw e;
  }
}
expectType<ImportAbortError extends AbortError ? (GrantAbortError extends LpmError ? true : false) : false>();

// Options that may be unset, under exactOptionalPropertyTypes: `undefined` is as if absent.
const limit = maybe("CHUNK") === undefined ? undefined : Number(maybe("CHUNK"));
const importOptions: ImportUsersOptions = {
  journal: undefined, signal: undefined, onProgress: undefined, onIssues: undefined,
  chunkSize: limit, intervalMs: undefined, lang: undefined, setAsidePlatform: undefined,
  retryDelayMs: undefined, attempts: undefined,
};
const grantOptions: GrantCoursesOptions = { journal: undefined, chunkSize: limit, lang: undefined, intervalMs: undefined };
console.log(importOptions, grantOptions, bulkWork, resumable);
