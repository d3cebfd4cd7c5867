// A Cloudflare Worker: GET /courses?q=<keywords> answers the matching courses' ids and titles
// (every course without `q`), calling the platform with the token of the Worker's secret. The
// package's "workerd" entry brings its wasm in as a module, as Workers require (no fetch of a
// .wasm at run time). Deploy with wrangler (`wrangler secret put LPM_TOKEN`); examples/typescript/
// check.sh runs it in workerd against the emulator.
import { ApiError, Client, LpmError, type Course } from 'lpm-client';

interface Env {
  LPM_BASE_URL: string;
  LPM_TOKEN: string;
}

const brief = (c: Course) => ({ id: c._id, title: c.title });

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname !== '/courses') return new Response('not found', { status: 404 });
    // One client per request: cheap (the wasm is instantiated once per isolate), and the
    // per-call `signal` stops the platform call when the visitor goes away.
    const client = new Client({ baseUrl: env.LPM_BASE_URL, token: env.LPM_TOKEN });
    try {
      const q = url.searchParams.get('q');
      const courses: Course[] = [];
      if (q) {
        courses.push(...(await client.searchCourses(q, { signal: request.signal })).courses);
      } else {
        for await (const c of client.allCourses({ signal: request.signal })) courses.push(c);
      }
      return Response.json({ courses: courses.map(brief) });
    } catch (e) {
      // The token never appears in an error's message or data, so it may be logged.
      if (e instanceof ApiError) return Response.json({ error: e.reason, msg: e.msg }, { status: 502 });
      if (e instanceof LpmError) return Response.json({ error: e.kind, message: e.message }, { status: 502 });
      throw e;
    } finally {
      client.free();
    }
  },
};
