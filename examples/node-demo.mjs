// A minute's tour of lpm-client from Node: log in, read courses, validate a batch, create the
// good accounts, grant them a course. Run it with `bash scripts/demo.sh` (which starts the
// emulator), or against any server: LPM_BASE_URL=... LPM_EMAIL=... LPM_PASSWORD=... node node-demo.mjs
import { Client, ApiError, IntervalError, LpmError, validateCreateUsers } from 'lpm-client';

const baseUrl = process.env.LPM_BASE_URL ?? 'http://127.0.0.1:8787';
const email = process.env.LPM_EMAIL ?? 'admin@demo.lpm.test';
const password = process.env.LPM_PASSWORD ?? 'demo-admin-password';

// 1. Log in: the token comes back with its expiry; a client bound to it does the rest.
const anonymous = new Client({ baseUrl });
const { token, tokenExpires } = await anonymous.login(email, password);
const client = anonymous.withToken(token);
console.log(`Logged in as ${email}; token valid until ${tokenExpires}`);

// 2. Courses: one page, a search (accents and case don't matter), and a count of all of them.
const page = await client.getCourses({ start: 0, limit: 5 });
console.log(`\nFirst ${page.courses.length} courses:`);
for (const c of page.courses) console.log(`  ${c._id}  ${c.title}  (${c.type}, ${c.price.original} VND)`);
const found = await client.searchCourses('trac nghiem');
console.log(`Search "trac nghiem": ${found.courses.map((c) => c.title).join('; ') || 'nothing'}`);
let total = 0;
for await (const _course of client.allCourses()) total += 1;
console.log(`All courses, page by page: ${total}`);

// 3. A batch from a spreadsheet, one row bad. Validate before sending (what a form does).
const stamp = Date.now().toString(36);
const rows = [
  { name: 'Nguyễn Văn An', username: `an${stamp}`, email: `an.${stamp}@example.vn`, password: 'matkhau123' },
  { name: 'Trần Thị Bình', username: `binh${stamp}`, email: `binh.${stamp}@example.vn`, password: 'matkhau123', gender: 'Nữ' },
  { name: 'Lê', username: 'le hoang!', email: 'not-an-email', password: '123' },
];
const issues = validateCreateUsers(rows, { lang: 'vi' });
console.log(`\nValidation found ${issues.length} issue(s):`);
for (const i of issues) console.log(`  row ${i.path[0]} ${i.path.slice(1).join('.')}: ${i.message} [${i.code}, ${i.level}]`);
const badRows = new Set(issues.map((i) => i.path[0]));
const good = rows.filter((_, index) => !badRows.has(index));

// 4. Create the good accounts. Per-item outcomes come back even when some fail.
const created = await client.createUsers(good);
console.log(`\nCreated ${created.created}, failed ${created.failed} (server said: "${created.msg}")`);
for (const u of created.users) console.log(`  ${u.username}: ${u.status}${u.userId ? ` -> ${u.userId}` : ''}`);

// The contract asks for 10 minutes between bulk creates; the client keeps that for you.
try {
  await client.createUsers(good);
} catch (e) {
  if (e instanceof IntervalError) console.log(`Second batch refused until ${e.nextAllowedAt.toISOString()}`);
  else throw e;
}

// 5. Grant the first course to the new accounts, then read one back.
const ids = created.users.filter((u) => u.success).map((u) => u.userId);
if (ids.length > 0) {
  const grant = await client.addCoursesToUsers({ users: ids, courses: [page.courses[0]._id] });
  console.log(`\nGranted "${grant.validCourses.map((c) => c.title).join(', ')}": ${grant.succeeded} ok, ${grant.failed} failed`);
  console.log(`  server said: ${grant.msg}`);
  const { user } = await client.getUser(ids[0]);
  console.log(`  ${user.username} now has ${user.myCourses?.length ?? 0} course(s)`);
}

// 6. Errors are typed: branch on the class and the category, never on message text.
try {
  await client.getUser('no-such-id');
} catch (e) {
  if (e instanceof ApiError) console.log(`\nUnknown id -> ApiError ${e.code} (${e.category}): ${e.msg}`);
  else if (e instanceof LpmError) console.log(`\n${e.name}: ${e.message}`);
  else throw e;
}
