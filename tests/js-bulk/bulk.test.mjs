// importUsers / grantCourses of lpm-client-bulk (pkg-bulk/) against the emulator over HTTP: chunks,
// rows set aside, a create whose answer is lost (looked up, never sent twice), abort and resume
// from a file journal, grants beyond 100 accounts. Every account is checked in the emulator's state.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as bulk from '../../pkg-bulk/node.js';
import * as lean from '../../pkg/node.js';
import { emulator, DEMO } from '../js/helpers.mjs';

let emu;
before(async () => { emu = await emulator(['--create-interval-secs', '0']); });
after(async () => { await emu?.stop(); });
beforeEach(async () => { await emu.reset(); });

const client = (pkg = bulk, extra = {}) => new pkg.Client({ baseUrl: emu.url, token: DEMO.adminToken, createInterval: { guard: 'off' }, ...extra });
const opts = (extra = {}) => ({ intervalMs: 0, retryDelayMs: 20, ...extra });
let serial = 0;
const rows = (n, tag) => Array.from({ length: n }, () => {
  serial += 1;
  const id = `${tag}${serial}`;
  return { name: `Bulk ${id}`, username: id, email: `${id}@example.test`, password: 'secret-123' };
});
/** The emulator's accounts by e-mail (lower case): how many hold each. */
async function accounts() {
  const state = await emu.control('GET', 'state?records=1');
  const by = new Map();
  for (const u of state.records.users) for (const e of u.emails) by.set(e.address.toLowerCase(), (by.get(e.address.toLowerCase()) ?? 0) + 1);
  return by;
}
async function assertCreatedOnce(list) {
  const by = await accounts();
  for (const r of list) assert.equal(by.get(r.email.toLowerCase()), 1, `${r.email} exists exactly once`);
}

test('validateCreateUsersInSlices: the whole list\'s issues, repeats across slices found; in lpm-client-bulk only', () => {
  const list = rows(30, 's');
  list[10] = { ...list[10], email: ` ${list[9].email.toUpperCase()}` }; // across a boundary at 10
  list[21] = { ...list[21], username: list[2].username.toUpperCase() }; // by letter case, two slices on
  list[25] = { ...list[25], username: list[24].username }; // within a slice
  list[15] = null;
  list[17] = { ...list[17], password: '' };
  const whole = bulk.validateCreateUsers(list, { lang: 'vi' }).filter((i) => i.path.length > 0);
  assert.ok(whole.some((i) => i.path[0] === 10 && i.code === 'duplicate_email'));
  assert.ok(whole.some((i) => i.path[0] === 21 && i.code === 'duplicate_username' && i.level === 'platform'));
  for (const size of [1, 7, 10, 30]) {
    const cut = function* () { for (let at = 0; at < list.length; at += size) yield list.slice(at, at + size); };
    for (const count of [undefined, list.length, 3]) {
      assert.deepEqual([...bulk.validateCreateUsersInSlices(cut(), { lang: 'vi' }, count)].flat(), whole, `slices of ${size}, ${count} rows said`);
    }
  }
  // A loop left early frees its check; a new one starts afresh (row 10 alone repeats nothing).
  for (const issues of bulk.validateCreateUsersInSlices([list.slice(0, 10), list.slice(10)])) if (issues) break;
  const again = [...bulk.validateCreateUsersInSlices([list.slice(10, 11)])].flat();
  assert.ok(again.every((i) => i.path[0] === 0 && i.code !== 'duplicate_email'));
  assert.equal(lean.validateCreateUsersInSlices, undefined);
});

test('lpm-client (lean) refuses importUsers and grantCourses with a ConfigError naming lpm-client-bulk', async () => {
  await assert.rejects(client(lean).importUsers(rows(1, 'l')), (e) => e instanceof lean.ConfigError && /lpm-client-bulk/.test(e.message));
  await assert.rejects(client(lean).grantCourses({ users: ['u1'], courses: ['c1'] }), (e) => e instanceof lean.ConfigError && e.option === 'grantCourses');
  // Nor does it export the bulk jobs' abort errors (its types declare neither job).
  assert.equal(lean.ImportAbortError, undefined);
  assert.equal(lean.GrantAbortError, undefined);
});

test('250 rows with bad ones: chunks of 100, bad rows set aside with issues, the rest created once', async () => {
  const input = rows(250, 'a');
  input[3] = { ...input[3], email: '' };
  input[120] = { ...input[120], password: undefined };
  input[200] = { ...input[10] };
  const progress = [];
  const journal = bulk.memoryJournal();
  const report = await client().importUsers(input, opts({ journal, onProgress: (p) => progress.push(p), lang: 'vi' }));
  assert.equal(report.counts.total, 250);
  assert.equal(report.counts.setAside, 3);
  assert.equal(report.counts.created, 247);
  assert.equal(report.rows[3].result.kind, 'setAside');
  assert.ok(report.rows[3].result.issues.length > 0);
  assert.match(report.rows[200].result.issues[0].message, /11/, 'a repeat names the first row (1-based)');
  assert.equal(report.rows[0].result.kind, 'created');
  assert.ok(report.rows[0].result.userId);
  await assertCreatedOnce(input.filter((_, i) => ![3, 120, 200].includes(i)));
  const sending = journal.events.filter((e) => e.event === 'chunkSending');
  assert.equal(sending.length, 3, '247 rows in chunks of at most 100');
  assert.equal(progress.at(-1).remaining, 0);
  assert.ok(progress.some((p) => p.done > 0 && p.done < 247), 'progress along the way');
  assert.ok(!JSON.stringify(journal.events).includes('secret-123'), 'no password in the journal');
});

test('rows whose texts hold line breaks, quotes and backslashes are sent whole (a chunk body comes last in its call description)', async () => {
  const input = rows(3, 'n').map((r, i) => ({ ...r, street: `Số ${i} "Lê Lợi"\nphường 1\r\n\\ tầng 2`, job: 'a\nb\n\nc' }));
  const bodies = [];
  const c = client(bulk, { fetch: (url, init) => { if (init?.body) bodies.push(init.body); return fetch(url, init); } });
  const report = await c.importUsers(input, opts());
  assert.equal(report.counts.created, 3);
  const sent = bodies.map((b) => JSON.parse(b)).find((b) => Array.isArray(b.users));
  assert.deepEqual(sent.users.map((u) => [u.street, u.job]), input.map((r) => [r.street, r.job]));
  await assertCreatedOnce(input);
});

test('onIssues: the rows with issues or warnings before anything is sent, as the report has them; a throw stops the job there', async () => {
  const input = rows(30, 'i');
  input[2] = { ...input[2], email: '' };
  input[5] = { ...input[5], name: 'Al' };
  input[9] = { ...input[0] };
  let listed;
  const journal = bulk.memoryJournal();
  const report = await client().importUsers(input, opts({
    journal,
    onIssues: (r) => { listed = r; assert.equal(journal.events.length, 0, 'told before anything is journaled'); },
  }));
  assert.deepEqual(listed.map((r) => r.row), [2, 5, 9]);
  for (const r of [2, 9]) assert.deepEqual(listed.find((l) => l.row === r).issues, report.rows[r].result.issues);
  assert.deepEqual(listed.find((l) => l.row === 5), { row: 5, issues: [], warnings: report.rows[5].warnings });
  assert.equal(report.rows[5].result.kind, 'created');
  const stop = bulk.memoryJournal();
  await assert.rejects(client().importUsers(rows(3, 'j'), opts({ journal: stop, onIssues: () => { throw new Error('no'); } })), /no/);
  assert.equal(stop.events.length, 0);
  await assert.rejects(client().importUsers(rows(3, 'j'), opts({ onIssues: 1 })), (e) => e instanceof bulk.ConfigError && /onIssues/.test(e.message));
});

test('a create committed whose answer is lost is looked up, not sent again', async () => {
  const input = rows(30, 'd');
  await emu.fault({ endpoint: 'create-multi-user', kind: 'drop' });
  const journal = bulk.memoryJournal();
  const report = await client().importUsers(input, opts({ journal }));
  assert.equal(report.counts.created, 30);
  assert.ok(journal.events.some((e) => e.event === 'rowsInDoubt'));
  assert.ok(journal.events.some((e) => e.event === 'lookupResult' && e.result.kind === 'created'));
  await assertCreatedOnce(input);
  const calls = await emu.control('GET', 'create-calls');
  assert.equal(calls.calls.length, 1, 'one create call: the lost answer was looked up, not resent');
});

test('the row looked up now is told before its look-up answers, not after (issue 38, item 2)', async () => {
  // The order things were seen in: a progress naming a row looked up, a look-up's answer.
  const seen = [];
  const fetch = async (url, init) => {
    const res = await globalThis.fetch(url, init);
    if (String(url).includes('search-user')) seen.push('answer');
    return res;
  };
  await emu.fault({ endpoint: 'create-multi-user', kind: 'drop' });
  const report = await client(bulk, { fetch }).importUsers(rows(3, 'lu'), opts({
    onProgress: (p) => { if (typeof p.lookingUp === 'number') seen.push(`lookingUp ${p.lookingUp}`); },
  }));
  assert.equal(report.counts.created, 3);
  assert.equal(seen[0], 'lookingUp 0', seen.join(', '));
  assert.ok(seen.indexOf('lookingUp 1') < seen.lastIndexOf('answer'), seen.join(', '));
});

test('a wait before the first chunk is told before it ends, not after (issue 38, item 1)', async () => {
  // The client's interval store says a create went just now: the job waits before its first chunk.
  const last = Date.now();
  const intervalStore = { get: () => last, set: () => {} };
  const told = [];
  const c = client(bulk, { intervalStore, createInterval: { intervalMs: 2000 } });
  const report = await c.importUsers(rows(2, 'fw'), opts({ intervalMs: 2000, onProgress: (p) => told.push({ at: Date.now(), p }) }));
  assert.equal(report.counts.created, 2);
  const wait = told.find(({ p }) => p.nextSendAt !== undefined);
  assert.ok(wait, JSON.stringify(told.map(({ p }) => p)));
  assert.ok(wait.at < wait.p.nextSendAt, `told at ${wait.at}, the wait it names ends at ${wait.p.nextSendAt}`);
});

test('aborted mid-job, resumed from the same file journal: every row created once', async () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'lpm-bulk-')), 'job.jsonl');
  const input = rows(120, 'f');
  const ctrl = new AbortController();
  const first = client().importUsers(input, opts({ journal: bulk.fileJournal(file), chunkSize: 40, intervalMs: 300, signal: ctrl.signal,
    onProgress: (p) => { if (p.done >= 40) ctrl.abort(new Error('stop')); } }));
  const e = await first.then(() => assert.fail('should abort'), (err) => err);
  assert.ok(e instanceof bulk.AbortError, e && e.stack);
  // The import's own error class (typed with the import's report), still an AbortError by kind and name.
  assert.ok(e instanceof bulk.ImportAbortError && !(e instanceof bulk.GrantAbortError));
  assert.equal(e.kind, 'abort');
  assert.equal(e.name, 'AbortError');
  assert.equal(bulk.ImportAbortError.name, 'ImportAbortError');
  assert.ok(e.report.counts.created >= 40 && e.report.counts.created < 120);
  assert.equal(e.report.rows[0].email, input[0].email);
  // A torn last line (a process killed mid-write) is ignored.
  appendFileSync(file, '{"event":"chunkSend');
  const report = await client().importUsers(input, opts({ journal: bulk.fileJournal(file), chunkSize: 40 }));
  assert.equal(report.counts.created, 120);
  await assertCreatedOnce(input);
  const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(lines[0].event, 'started');
  // Another input with this journal is refused.
  await assert.rejects(client().importUsers(rows(120, 'g'), opts({ journal: bulk.fileJournal(file) })), (err) => err instanceof bulk.ConfigError && err.problem === 'journal');
});

test('input that cannot be used rejects with ValidationError; bad options with ConfigError', async () => {
  await assert.rejects(client().importUsers('nope'), bulk.ValidationError);
  await assert.rejects(client().importUsers([], { chunkSize: 0 }), bulk.ConfigError);
  await assert.rejects(client().importUsers([], { lang: 'fr' }), bulk.ConfigError);
  await assert.rejects(client().grantCourses({ users: ['u1'], courses: [] }), bulk.ValidationError);
});

test('grantCourses to 150 accounts: two add-courses calls, every account granted', async () => {
  const users = (await client().getUsers({ start: 0, limit: 100 })).users.map((u) => u._id);
  const more = (await client().getUsers({ start: 100, limit: 100 })).users.map((u) => u._id);
  const ids = [...users, ...more].slice(0, 150);
  assert.equal(ids.length, 150);
  const course = (await client().getCourses({ start: 0, limit: 1 })).courses[0]._id;
  const journal = bulk.memoryJournal();
  const report = await client().grantCourses({ users: [...ids, ids[0]], courses: [course] }, opts({ journal }));
  assert.equal(report.counts.granted, 150);
  assert.equal(report.counts.setAside, 1, 'the repeated account is set aside');
  assert.equal(journal.events.filter((e) => e.event === 'chunkSending').length, 2);
});

test('a grant whose answer is lost is sent again (granting twice is harmless), then resumes from its journal', async () => {
  const ids = (await client().getUsers({ start: 0, limit: 30 })).users.map((u) => u._id);
  const course = (await client().getCourses({ start: 0, limit: 1 })).courses[0]._id;
  await emu.fault({ endpoint: 'add-multi-course-to-multi-user', kind: 'drop' });
  const journal = bulk.memoryJournal();
  const report = await client().grantCourses({ users: ids, courses: [course] }, opts({ journal, chunkSize: 10 }));
  assert.equal(report.counts.granted, 30);
  assert.ok(journal.events.some((e) => e.event === 'rowsInDoubt'), 'the lost answer was journaled');
  // The same input and journal again: nothing left to send.
  const again = bulk.memoryJournal(journal.events);
  const spy = [];
  const c = client(bulk, { onRequest: (e) => spy.push(e.endpoint) });
  const resumed = await c.grantCourses({ users: ids, courses: [course] }, opts({ journal: again, chunkSize: 10 }));
  assert.equal(resumed.counts.granted, 30);
  assert.deepEqual(spy, [], 'a finished grant sends nothing on resume');
});

test('an aborted grant rejects with GrantAbortError, its report the grant\'s', async () => {
  const ids = (await client().getUsers({ start: 0, limit: 30 })).users.map((u) => u._id);
  const course = (await client().getCourses({ start: 0, limit: 1 })).courses[0]._id;
  const ctrl = new AbortController();
  const e = await client().grantCourses({ users: ids, courses: [course] }, opts({ chunkSize: 10, intervalMs: 200, signal: ctrl.signal,
    onProgress: (p) => { if (p.done >= 10) ctrl.abort(new Error('stop')); } })).then(() => assert.fail('should abort'), (err) => err);
  assert.ok(e instanceof bulk.GrantAbortError && e instanceof bulk.AbortError && !(e instanceof bulk.ImportAbortError), e && e.stack);
  assert.equal(e.kind, 'abort');
  assert.ok(e.report.counts.granted >= 10 && e.report.counts.granted < 30);
  assert.equal(e.report.rows[0].userId, ids[0]);
});

test('an answer handed to a job with no request out is an internal error of the driver, for an import and a grant alike', async () => {
  // The wasm's classes the package drives (node.js has instantiated the wasm), called as
  // pkg-templates/bulk.ts calls them: a driver that misuses a job.
  const { Core } = (await import('../../pkg-bulk/lib.js')).default;
  const core = new Core(JSON.stringify({ baseUrl: emu.url, token: DEMO.adminToken }), undefined);
  const bytes = (text) => new TextEncoder().encode(text);
  const jobs = {
    import: core.bulkJob('import', bytes(JSON.stringify(rows(1, 'm'))), '{}', '[]'),
    grant: core.bulkJob('grant', bytes(JSON.stringify({ users: ['u1'], courses: ['c1'] })), '{}', '[]'),
  };
  for (const [kind, job] of Object.entries(jobs)) {
    for (const hand of [() => job.handleResponse(Date.now(), 200, new Uint8Array()), () => job.handleFailure(Date.now(), 'network')]) {
      let thrown;
      try { hand(); } catch (e) { thrown = e; }
      const data = JSON.parse(thrown);
      assert.equal(data.lpmKind, 'internal', kind);
      assert.equal(data.data.reason, 'nothingInFlight');
      assert.match(data.message, /driver handed back an answer while no request was out \(a defect of the driver\)/);
      assert.doesNotMatch(data.message, /create-multi-user|journal was refused/);
    }
    job.free();
    // A freed job is no longer reached: the glue throws (errors.ts makes it an `internal` error),
    // never touching memory of another object.
    assert.throws(() => job.handleFailure(Date.now(), 'network'), /null pointer passed to rust/);
  }
  core.free();
});

test('a job interval shorter than the client\'s guarded create interval is refused up front, nothing sent', async () => {
  const before = (await emu.control('GET', 'state')).accounts;
  // The client keeps the contract's 10 minutes (guard on); the job asks for 6 s: it would stall
  // on the client's guard while its progress promised 6 s.
  const c = client(bulk, { createInterval: { intervalMs: 600000 } });
  await assert.rejects(c.importUsers(rows(3, 'short'), { intervalMs: 6000 }), (e) => {
    assert.ok(e instanceof bulk.ConfigError, String(e));
    assert.equal(e.option, 'intervalMs');
    assert.match(e.message, /createInterval/);
    return true;
  });
  // The same interval on both, or the client's guard off, is one setting: accepted.
  const ok = await client(bulk, { createInterval: { guard: 'off' } }).importUsers(rows(2, 'same'), opts());
  assert.equal(ok.counts.created, 2);
  assert.equal((await emu.control('GET', 'state')).accounts, before + 2);
});

// The platform counts from its answer (issue 34, defect 4): an import and a sync store when each
// create ended, not only when it left.
for (const job of ['importUsers', 'syncAccounts']) {
  test(`${job}: the interval store keeps when a create ended, not only when it left`, async () => {
    const sets = [];
    const intervalStore = { get: () => undefined, set: (_key, at) => { sets.push(at); } };
    let answeredAt = 0;
    // The platform holds the create 300 ms before it answers.
    const fetch = async (url, init) => {
      const res = await globalThis.fetch(url, init);
      if (String(url).includes('create-multi-user')) {
        await new Promise((r) => setTimeout(r, 300));
        answeredAt = Date.now();
      }
      return res;
    };
    const list = rows(3, job === 'importUsers' ? 'iv' : 'si');
    const input = job === 'importUsers' ? list : { rows: list, courses: list.map(() => []) };
    const report = await client(bulk, { fetch, intervalStore })[job](input, opts());
    assert.equal(report.counts.created, 3);
    assert.ok(sets.length >= 2, `the send and the end: ${sets}`);
    assert.ok(sets.at(-1) >= answeredAt, `last stored ${sets.at(-1)} is the answer's time (${answeredAt}) or later`);
  });
}

test('a guarded create given up (aborted) counts its interval from the give-up (issue 34, defect 4)', async () => {
  const sets = [];
  const intervalStore = { get: () => undefined, set: (_key, at) => { sets.push(at); } };
  // The platform never answers; the caller gives up after 200 ms.
  const fetch = (_url, init) => new Promise((_resolve, reject) => init.signal.addEventListener('abort', () => reject(init.signal.reason)));
  const c = client(bulk, { fetch, intervalStore, registerInterval: { guard: 'reject' } });
  const stop = new AbortController();
  const user = rows(1, 'ga')[0];
  const call = c.registerUser(user, { signal: stop.signal });
  await new Promise((r) => setTimeout(r, 200));
  const gaveUpAt = Date.now();
  stop.abort();
  await assert.rejects(call, (e) => e.name === 'AbortError');
  assert.ok(sets.length >= 2, `the send and the give-up: ${sets}`);
  assert.ok(sets.at(-1) >= gaveUpAt, `last stored ${sets.at(-1)} is the give-up (${gaveUpAt}) or later`);
});

/** The members of `interface name` in the package's generated declarations: name -> {optional, type}. */
function declared(name) {
  const dts = readFileSync(new URL('../../pkg-bulk/wasm/lpm_client.d.ts', import.meta.url), 'utf8');
  const body = dts.match(new RegExp(`export interface ${name} \\{([\\s\\S]*?)\\n\\}`))[1].replace(/\/\*\*[\s\S]*?\*\//g, '');
  const members = new Map();
  for (const m of body.matchAll(/^\s*(\w+)(\?)?: ([^;]+);/gm)) members.set(m[1], { optional: m[2] === '?', type: m[3].trim() });
  assert.ok(members.size > 0, `interface ${name} read`);
  return members;
}
/** Holds `value` to the declared interface `name` (nested interfaces by name): every member
 * declared is there with its type, or absent when optional; nothing else, never null. */
function conforms(value, name, where) {
  const members = declared(name);
  for (const key of Object.keys(value)) assert.ok(members.has(key), `${where}: ${key} is not declared in ${name}`);
  for (const [key, declaredAs] of members) {
    const v = value[key];
    // `T | undefined` (a member that may be absent) is held as `T`, optional.
    const type = declaredAs.type.replace(/ \| undefined$/, '');
    const optional = declaredAs.optional || type !== declaredAs.type;
    if (v === undefined) { assert.ok(optional, `${where}: ${name}.${key} is declared required but absent`); continue; }
    assert.notEqual(v, null, `${where}: ${name}.${key} is null`);
    if (type === 'number') assert.equal(typeof v, 'number', `${where}: ${name}.${key}`);
    else if (type === 'string') assert.equal(typeof v, 'string', `${where}: ${name}.${key}`);
    else if (type === 'number[]') assert.ok(Array.isArray(v) && v.every((x) => typeof x === 'number'), `${where}: ${name}.${key}`);
    else conforms(v, type, `${where}.${key}`);
  }
}

test('every progress event the wasm hands out is what its declared type says: times absent, never null or 0 (issue 37, item 3)', async () => {
  const progress = [];
  const start = Date.now();
  await emu.fault({ endpoint: 'create-multi-user', kind: 'drop' });
  const report = await client().importUsers(rows(150, 'pt'), opts({ intervalMs: 50, chunkSize: 100, onProgress: (p) => progress.push(p) }));
  assert.equal(report.counts.created, 150);
  assert.ok(progress.length > 3);
  progress.forEach((p, i) => conforms(p, 'Progress', `event ${i}`));
  for (const p of progress) {
    for (const key of ['nextSendAt', 'estimatedEndAt']) if (key in p) assert.ok(p[key] >= start, `${key} ${p[key]} is a time of this run`);
  }
  // A chunk out, rows in doubt and their look-ups were told while the job ran.
  assert.ok(progress.some((p) => p.sending && p.sending.rows.length === 100));
  assert.ok(progress.some((p) => p.inDoubt === 100 && p.retries === 1 && typeof p.lastError === 'string'));
  assert.ok(progress.some((p) => typeof p.lookingUp === 'number'));
  const end = progress.at(-1);
  assert.equal(end.done, 150);
  assert.ok(!('nextSendAt' in end) && !('estimatedEndAt' in end), JSON.stringify(end));
});

test('syncAccounts: the missing created, each account granted what it lacks, a conflict untouched; again: nothing to send; an abort rejects with SyncAbortError', async () => {
  const c = client();
  const state = await emu.control('GET', 'state?records=1');
  const course = state.records.courses[0]._id;
  const found = state.records.users.find((u) => u.emails?.length);
  const list = [...rows(3, 'sy')];
  list.push({ name: 'Other One', username: found.username, email: 'someone-else@example.test', password: 'secret-123' });
  const input = { rows: list, courses: list.map(() => [course]) };
  let planned;
  const report = await c.syncAccounts(input, opts({ chunkSize: 2, onPlan: (r) => { planned = r; } }));
  assert.deepEqual(planned, [0, 1, 2]);
  assert.deepEqual(report.rows.map((r) => r.result.kind), ['created', 'created', 'created', 'conflict']);
  assert.equal(report.counts.granted, 3);
  assert.equal(report.counts.conflicts, 1);
  assert.equal(report.nothingToSend, false);
  await assertCreatedOnce(list.slice(0, 3));
  const again = await c.syncAccounts(input, opts());
  assert.equal(again.nothingToSend, true);
  assert.equal(again.counts.exists, 3);
  const stop = new AbortController();
  stop.abort();
  const e = await c.syncAccounts(input, opts({ signal: stop.signal })).catch((x) => x);
  assert.ok(e instanceof bulk.SyncAbortError && e instanceof bulk.AbortError, e && e.stack);
  assert.equal(e.report.rows.length, 4);
  assert.equal(lean.SyncAbortError, undefined);
});
