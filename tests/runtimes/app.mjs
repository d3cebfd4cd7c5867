// The browser app the Vite and esbuild tests bundle: imports the package as an app does (the
// bundler picks the "default" entry) and leaves the exercise's summary in window.__result.
// Served by the emulator, so the API is the page's own origin; the token comes in the query.
import * as lpm from 'lpm-client';
import { exercise } from './exercise.mjs';

const token = new URLSearchParams(location.search).get('token');
exercise(lpm, { baseUrl: location.origin, token }).then(
  (summary) => { window.__result = { summary }; document.body.dataset.state = 'done'; },
  (e) => { window.__result = { error: String((e && e.stack) || e) }; document.body.dataset.state = 'failed'; },
);
