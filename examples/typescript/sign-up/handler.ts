// The server half of a public sign-up form, as one function of the web's Request and Response, so
// that a Cloudflare Worker (worker.ts), a Node server (node-server.ts), a Next.js route handler
// (`export const POST = signUpHandler(client)`) or Deno.serve use it as it is. The token stays on
// the server: the page never holds one. It validates the form again with the page's own
// validator (a page can be bypassed), registers the account with `registerUser`, and says why not
// in the form's terms: each reason on its field, the platform's 5 s between sign-ups with when
// to try again.
import { ApiError, IntervalError, LpmError, ValidationError, type Client } from 'lpm-client';
import { account, signUpSchema, type SignUp, type SignUpAnswer } from './schema.js';

const answer = (status: number, body: SignUpAnswer, headers: Record<string, string> = {}) =>
  Response.json(body, { status, headers });
const refused = (status: number, path: string[], message: string) =>
  answer(status, { ok: false, issues: [{ path, message }] });

/** `POST` of the form's fields as JSON → 201 registered; 422 the fields' issues; 409 an account
 * that exists (on its field); 429 within the platform's 5 s (with `retryAt` and Retry-After);
 * 502 the platform could not be reached or answered otherwise. */
export function signUpHandler(client: Client): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'POST') return new Response('method not allowed', { status: 405, headers: { allow: 'POST' } });
    const lang = /^vi\b/i.test(request.headers.get('accept-language') ?? '') ? 'vi' : 'en';
    let form: unknown;
    try {
      form = await request.json();
    } catch {
      return refused(400, [], 'The form could not be read');
    }
    const issues = signUpSchema(form, { lang, platformRules: true });
    if (issues.length > 0) return answer(422, { ok: false, issues });
    const values = form as SignUp;
    try {
      // Decision: a sign-up inside the platform's 5 s is refused with when to try again rather
      // than held open here: the page shows a countdown, and no request waits on another's.
      await client.registerUser(account(values), { signal: request.signal });
      return answer(201, { ok: true, username: values.username });
    } catch (e) {
      if (e instanceof ApiError && e.reason === 'emailInUse') return refused(409, ['email'], 'An account with this e-mail exists already');
      if (e instanceof ApiError && e.reason === 'usernameInUse') return refused(409, ['username'], 'This username is taken');
      if (e instanceof IntervalError) {
        const seconds = String(Math.ceil(e.waitMs / 1000));
        return answer(429, { ok: false, issues: [{ path: [], message: 'Many sign-ups just now: try again in a moment' }], retryAt: e.nextAllowedAt.getTime() }, { 'retry-after': seconds });
      }
      if (e instanceof ValidationError) return answer(422, { ok: false, issues: e.issues });
      // The token is never in an error's message or data, so it may be logged.
      if (e instanceof LpmError) {
        console.error(`sign-up: ${e.kind}: ${e.message}`);
        return refused(502, [], 'The sign-up could not be completed; please try again later');
      }
      throw e;
    }
  };
}
