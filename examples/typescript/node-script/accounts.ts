// Log in, list every account, and grant a course to the newest one.
//
//   LPM_BASE_URL=https://school.example.com LPM_EMAIL=admin@… LPM_PASSWORD=… node accounts.js
//
// (`examples/typescript/check.sh` compiles it and runs it against the emulator.)
import { ApiError, Client, LpmError, type User } from 'lpm-client';

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name}`);
  return value;
}

const baseUrl = env('LPM_BASE_URL');

try {
  // 1. Log in: `login` needs no token; `withToken` gives a client bound to the one it returns.
  const anonymous = new Client({ baseUrl });
  const { token, tokenExpires } = await anonymous.login(env('LPM_EMAIL'), env('LPM_PASSWORD'));
  const client = anonymous.withToken(token);
  console.log(`logged in; the token expires at ${tokenExpires}`);

  // 2. Every account: `allUsers()` reads page after page (100 a call) until the last one.
  let count = 0;
  let newest: User | undefined;
  for await (const user of client.allUsers()) {
    count += 1;
    // Timestamps are ISO 8601 UTC strings, so they compare as text.
    if (!newest || user.createdAt > newest.createdAt) newest = user;
  }
  console.log(`accounts: ${count}`);
  if (!newest) throw new Error('no account to grant a course to');
  console.log(`newest: ${newest.username} (${newest.profile.name}), created ${newest.createdAt}`);

  // 3. A course (the first of the first page) granted to that account.
  const { courses } = await client.getCourses({ start: 0, limit: 1 });
  const course = courses[0];
  if (!course) throw new Error('no course to grant');
  const granted = await client.addCoursesToUsers({ users: [newest._id], courses: [course._id] });
  const outcome = granted.result[0];
  console.log(`granted "${course.title}" to ${newest.username}: ${outcome?.status ?? 'no result'}`);
  console.log(JSON.stringify({ count, newest: newest._id, course: course._id, success: outcome?.success ?? false }));
} catch (e) {
  // Every error the package throws is an LpmError; `kind` says which, `ApiError` carries the
  // server's code decoded (docs/errors.md lists every category and reason).
  if (e instanceof ApiError) {
    console.error(`the server said no: ${e.category}/${e.reason} (${e.code} ${e.msg})`);
  } else if (e instanceof LpmError) {
    console.error(`${e.kind}: ${e.message}`);
  } else {
    console.error(e);
  }
  process.exitCode = 1;
}
