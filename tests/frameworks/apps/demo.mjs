// What every framework app does with the package, written once: validates a bad account (no
// e-mail) with Vietnamese messages and lists five courses from the emulator. No Node built-ins,
// no DOM: pages, route handlers and server renders all call it and hand its result on.

/** The account every app validates: it lacks its e-mail. */
export const BAD_ACCOUNT = { name: 'Trần Thị Bình', username: 'tranthibinh', password: 'matkhau123' };

/** Validation needs no network: synchronous once the package is imported. */
export const issuesOf = (lpm) => lpm.validateCreateUser(BAD_ACCOUNT, { lang: 'vi' }).map((i) => i.message);

/**
 * @param lpm      the package's module namespace, as the app imported it
 * @param options  { baseUrl, token }: the emulator and its demo admin token
 * @returns        { issues: the Vietnamese messages, courses: five [id, title] pairs }
 */
export async function demo(lpm, { baseUrl, token }) {
  const issues = issuesOf(lpm);
  // The page stands for a dashboard whose staff member signed in: the token is theirs.
  const client = new lpm.Client({ baseUrl, token, ownToken: true });
  try {
    const { courses } = await client.getCourses({ start: 0, limit: 5 });
    return { issues, courses: courses.map((c) => [c._id, c.title]) };
  } finally {
    client.free();
  }
}

/** Renders a result (or a failure) into the page and leaves it in window.__result for the check. */
export function show(result) {
  const list = document.createElement('ul');
  for (const text of result.error ? [result.error] : [...result.issues, ...result.courses.map(([, title]) => title)]) {
    const li = document.createElement('li');
    li.textContent = text;
    list.append(li);
  }
  document.body.append(list);
  window.__result = result;
}

/** The page's query: the token and, where the page is not served by the emulator, its address. */
export function fromQuery() {
  const q = new URLSearchParams(location.search);
  return { baseUrl: q.get('api') || location.origin, token: q.get('token') };
}
