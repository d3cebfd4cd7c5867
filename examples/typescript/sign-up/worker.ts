// The sign-up form's server as a Cloudflare Worker: `POST /api/sign-up` registers the account
// with the token of the Worker's secret (`wrangler secret put LPM_TOKEN`); serve the built page
// as the Worker's static assets. The platform's 5 s between sign-ups is kept per isolate (the
// client's memory); give `intervalStore` a Durable Object's storage to keep it across isolates.
import { Client } from 'lpm-client';
import { signUpHandler } from './handler.js';
import { SIGN_UP_PATH } from './schema.js';

interface Env {
  LPM_BASE_URL: string;
  LPM_TOKEN: string;
}

let handle: ((request: Request) => Promise<Response>) | undefined;

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    if (new URL(request.url).pathname !== SIGN_UP_PATH) return new Response('not found', { status: 404 });
    // One client per isolate: its register guard remembers this isolate's last sign-up.
    handle ??= signUpHandler(new Client({ baseUrl: env.LPM_BASE_URL, token: env.LPM_TOKEN }));
    return handle(request);
  },
};
