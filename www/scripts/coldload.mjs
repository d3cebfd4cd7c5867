// Cold load to a usable sign-in: the built dashboard (dist/, or the folder given) served by a local
// server without compression, loaded 5 times in headless Chromium, each in a new browser context
// (no cache), timed from the navigation's start to the page's marks: its first render
// (`lpm-first-render`) and the moment the sign-in screen is on it and works at once, config.json
// read and the package's wasm in (`lpm-usable`; a build without that mark rendered only then).
// Prints the medians (and the spread). Needs Debian's chromium and playwright-core
// (scripts/setup.sh --browser). `npm run build` prints them too (scripts/report.mjs).
//
//   node www/scripts/coldload.mjs [dist]
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".wasm": "application/wasm", ".json": "application/json", ".svg": "image/svg+xml" };

/** `loads` cold loads of the dashboard in `dist`: each one's first render and usable sign-in (ms). */
export async function coldLoads(dist, loads = 5) {
  const { chromium } = await import("playwright-core");
  const server = createServer((req, res) => {
    const p = path.join(dist, decodeURIComponent(new URL(req.url, "http://x").pathname));
    try {
      const body = readFileSync(p.endsWith("/") ? path.join(p, "index.html") : p);
      res.writeHead(200, { "content-type": TYPES[path.extname(p)] ?? "text/html" });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${server.address().port}/`;
  let browser;
  try {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_BIN || "/usr/bin/chromium",
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
    const out = [];
    for (let i = 0; i < loads; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(url);
      await page.waitForFunction(() => performance.getEntriesByName("lpm-usable").length || (performance.getEntriesByName("lpm-first-render").length && document.querySelector("#email")));
      out.push(await page.evaluate(() => {
        const at = (name) => performance.getEntriesByName(name)[0]?.startTime;
        const first = at("lpm-first-render");
        return { firstRender: first, usable: at("lpm-usable") ?? first };
      }));
      await context.close();
    }
    return out;
  } finally {
    await browser?.close();
    server.close();
  }
}

/** "median 254 ms (min 223, max 728)". */
function spread(values) {
  const v = [...values].sort((a, b) => a - b);
  return `median ${v[Math.floor(v.length / 2)].toFixed(0)} ms (min ${v[0].toFixed(0)}, max ${v.at(-1).toFixed(0)})`;
}

/** The figures of 5 cold loads of `dist`, as one line. */
export async function coldLoadLine(dist) {
  const loads = await coldLoads(dist);
  return `cold load (headless Chromium, local server, ${loads.length} loads): first render ${spread(loads.map((l) => l.firstRender))}; usable sign-in ${spread(loads.map((l) => l.usable))}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await coldLoadLine(path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), "../dist"))));
}
