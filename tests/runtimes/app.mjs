// The browser app the Vite and esbuild tests bundle: imports the package as an app does (the
// bundler picks the "default" entry) and leaves the exercise's summary in window.__result.
// The query gives the token and, when the page is not served by the emulator itself (Vite's dev
// server), the emulator's address.
import * as lpm from 'lpm-client';
import { exercise } from './exercise.mjs';

const q = new URLSearchParams(location.search);
exercise(lpm, { baseUrl: q.get('api') || location.origin, token: q.get('token') }).then(
  (summary) => { window.__result = { summary }; document.body.dataset.state = 'done'; },
  (e) => { window.__result = { error: String((e && e.stack) || e) }; document.body.dataset.state = 'failed'; },
);
