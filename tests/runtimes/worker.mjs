// A Cloudflare Worker that imports the package (the "workerd" export condition: the wasm comes in
// precompiled as a module import) and answers GET /?emulator=<url>&token=<token> with the
// exercise's summary, calling the emulator through the Worker's own fetch.
import * as lpm from 'lpm-client';
import { exercise } from './exercise.mjs';

export default {
  async fetch(request) {
    const q = new URL(request.url).searchParams;
    try {
      const summary = await exercise(lpm, { baseUrl: q.get('emulator'), token: q.get('token') });
      return Response.json(summary);
    } catch (e) {
      return new Response(String((e && e.stack) || e), { status: 500 });
    }
  },
};
