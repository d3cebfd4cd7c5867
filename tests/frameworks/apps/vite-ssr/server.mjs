// Vite's SSR entry: renders the page's list on the server (built with `vite build --ssr`, the
// package external or, with `ssr.noExternal: true`, bundled in).
import * as lpm from 'lpm-client';
import { demo } from './demo.mjs';

export async function render(options) {
  const result = await demo(lpm, options);
  const items = [...result.issues, ...result.courses.map(([, title]) => title)];
  return { result, html: `<ul>${items.map((t) => `<li>${t.replace(/[<&]/g, (c) => `&#${c.charCodeAt(0)};`)}</li>`).join('')}</ul>` };
}
