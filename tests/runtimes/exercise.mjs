// What every runtime does with the package, written once and run everywhere (Node versions, Deno,
// Bun, workerd, the bundled browser apps): no Node built-ins, no globals beyond fetch.
// Calls the emulator for real (one page of courses, an ApiError decoded from the server), checks
// a batch with a bad row both with the validator and with createUsers (refused before sending),
// throws on anything unexpected, and returns a summary the harness compares across runtimes.

/** The batch every runtime validates: row 0 is good, row 1 has no e-mail. */
export const BATCH = [
  { name: 'Nguyễn Văn An', username: 'nguyenvanan', email: 'an@example.test', password: 'matkhau123' },
  { name: 'Trần Thị Bình', username: 'tranthibinh', password: 'matkhau123' },
];

function expect(ok, what, got) {
  if (!ok) throw new Error(`${what} (got ${JSON.stringify(got)?.slice(0, 300)})`);
}

async function rejection(promise) {
  try {
    const v = await promise;
    return { resolved: v };
  } catch (e) {
    return { error: e };
  }
}

/**
 * @param lpm      the package's module namespace (however the runtime imported it)
 * @param options  { baseUrl, token }: the emulator and its demo admin token
 */
export async function exercise(lpm, { baseUrl, token }) {
  // ownToken: in a browser page the test plays a dashboard whose user signed in.
  const client = new lpm.Client({ baseUrl, token, ownToken: true });

  const page = await client.getCourses({ start: 0, limit: 100 });
  expect(Array.isArray(page.courses) && page.courses.length > 0, 'getCourses: a non-empty page', page);
  expect(page.courses.every((c) => typeof c._id === 'string' && typeof c.title === 'string'), 'getCourses: each course has _id and title', page.courses[0]);

  const issues = lpm.validateCreateUsers(BATCH);
  expect(issues.some((i) => JSON.stringify(i.path) === '[1,"email"]' && i.code === 'required'), 'validateCreateUsers: row 1 lacks its e-mail', issues);
  expect(issues.every((i) => i.path[0] === 1), 'validateCreateUsers: row 0 is good', issues);
  const vi = lpm.validateCreateUsers(BATCH, { lang: 'vi' });
  expect(vi.some((i) => i.message === 'Bắt buộc nhập email'), 'validateCreateUsers: Vietnamese messages', vi);

  const refused = await rejection(client.createUsers(BATCH));
  expect(refused.error instanceof lpm.ValidationError && refused.error instanceof lpm.LpmError, 'createUsers refuses the batch with a ValidationError', refused.error?.name ?? refused.resolved);

  const missing = await rejection(client.getUser('NoSuchUser1234567'));
  const e = missing.error;
  expect(e instanceof lpm.ApiError && e.code === '03' && e.category === 'notFound', 'getUser of an unknown id rejects with ApiError 03 notFound', e ? { name: e.name, code: e.code } : missing.resolved);
  expect(!String(e.message).includes(token) && !JSON.stringify(e).includes(token), 'the error does not carry the token', e.message);

  client.free();
  return {
    courses: page.courses.map((c) => [c._id, c.title]),
    msg: page.msg,
    issues: issues.map((i) => [i.path, i.code, i.level]),
    refused: refused.error.issues.map((i) => [i.path, i.code]),
    apiError: { endpoint: e.endpoint, code: e.code, category: e.category, status: e.status },
  };
}
