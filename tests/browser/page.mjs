// Runs inside Chromium: imports the package's browser entry (top-level await fetches the wasm)
// and records what each call gave in window.__results, for run.mjs to assert from Node.
import * as lpm from './pkg/index.js';

const params = new URLSearchParams(location.search);
const same = location.origin;
const cross = params.get('cross');
const admin = { email: params.get('email'), password: params.get('password') };
const results = {};
const log = (k, v) => { results[k] = v; const li = document.createElement('li'); li.textContent = `${k}: ${JSON.stringify(v).slice(0, 160)}`; document.getElementById('out').append(li); };
const errInfo = (e) => ({
  name: e && e.name, message: e && e.message, isLpm: e instanceof lpm.LpmError,
  isApi: e instanceof lpm.ApiError, isValidation: e instanceof lpm.ValidationError,
  code: e && e.code, category: e && e.category, status: e && e.status, endpoint: e && e.endpoint,
  issues: e && e.issues,
});

async function run(base, prefix) {
  // ownToken: the token `login` gives is this signed-in user's own (a dashboard's case).
  const anon = new lpm.Client({ baseUrl: base, ownToken: true, createInterval: { intervalMs: 0 } });
  const login = await anon.login(admin.email, admin.password);
  log(`${prefix}login`, { tokenType: typeof login.token, tokenLength: login.token.length, tokenExpires: login.tokenExpires });
  const c = anon.withToken(login.token);
  const page = await c.getCourses({ start: 0, limit: 5 });
  log(`${prefix}getCourses`, { count: page.courses.length, msg: page.msg, firstTitle: page.courses[0]?.title });
  const found = await c.searchCourses('trac nghiem');
  log(`${prefix}searchCourses`, { titles: found.courses.map((x) => x.title) });
  const users = await c.getUsers({ start: 0, limit: 1 });
  const one = await c.getUser(users.users[0]._id);
  log(`${prefix}getUser`, { sameId: one.user._id === users.users[0]._id, username: one.user.username });
  try {
    await c.createUsers([{ name: 'Browser Ok', username: `br${prefix.length}ok`, email: `br${prefix.length}@example.test`, password: 'secret-123' },
      { name: 'No Mail', username: 'nomail1', password: 'secret-123' }]);
    log(`${prefix}createUsersInvalid`, { resolved: true });
  } catch (e) { log(`${prefix}createUsersInvalid`, errInfo(e)); }
  const ok = await c.createUsers([{ name: 'Browser Ok', username: `brok${prefix.length}x`, email: `brok${prefix.length}x@example.test`, password: 'secret-123' }]);
  log(`${prefix}createUsers`, { created: ok.created, status: ok.users[0].status });
  try { await c.getUser('NoSuchUser1234567'); log(`${prefix}apiError`, { resolved: true }); } catch (e) { log(`${prefix}apiError`, errInfo(e)); }
  const ids = [];
  for await (const course of c.allCourses()) ids.push(course._id);
  log(`${prefix}allCourses`, { count: ids.length, unique: new Set(ids).size });
}

try {
  await run(same, '');
  if (cross) await run(cross, 'cross.');
  results.validators = {
    issues: lpm.validateCreateUsers([{ name: 'Al' }], { lang: 'vi' }),
    standard: lpm.validateCreateUser['~standard'].vendor,
  };
  results.done = true;
} catch (e) {
  results.fatal = { name: e && e.name, message: e && e.message, stack: e && e.stack };
}
document.getElementById('status').textContent = results.fatal ? `failed: ${results.fatal.message}` : 'done';
window.__results = results;
