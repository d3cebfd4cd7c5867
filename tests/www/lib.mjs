// What the dashboard's browser tests share: the browser, the built site served by an emulator
// (with a config.json), axe-core, the one-line-per-check runner and the sign-in.
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startEmulator, DEMO } from "../js/emulator.mjs";

export { DEMO };
/** The dashboard's Content-Security-Policy, as deployed (its deploy notes quote it). */
export const CSP_FILE = path.join(path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../.."), "www/csp.txt");
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const shots = path.join(root, "target/www-screens");
mkdirSync(shots, { recursive: true });
const axeSource = readFileSync(createRequire(path.join(root, "www/package.json")).resolve("axe-core/axe.min.js"), "utf8");

/** The two sizes every new check runs at: a laptop and a phone. */
export const VIEWPORTS = [
  { name: "desktop", viewport: { width: 1366, height: 768 } },
  { name: "phone", viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
];

export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_BIN || "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

/**
 * The built dashboard (www/dist) copied to a temporary folder with `config`, served by an
 * emulator started with `args` (`--static` added). Resolves with the emulator and `cleanup`.
 */
export async function serveSite(config, args = [], extraFiles = {}) {
  const site = mkdtempSync(path.join(tmpdir(), "lpm-www-site-"));
  // LPM_WWW_DIST: another build of the dashboard (e.g. an older one, to see a check fail before its fix).
  cpSync(process.env.LPM_WWW_DIST || path.join(root, "www/dist"), site, { recursive: true });
  writeFileSync(path.join(site, "config.json"), JSON.stringify(config));
  for (const [name, body] of Object.entries(extraFiles)) writeFileSync(path.join(site, name), body);
  const emu = await startEmulator(["--static", site, "--static-csp", CSP_FILE, ...args]);
  return { emu, site, cleanup: async () => { await emu.stop(); rmSync(site, { recursive: true, force: true }); } };
}

/** One line per check; a failure takes a screenshot of `state.page` and is counted. */
export function checker() {
  const state = { page: null, passed: 0, failed: 0 };
  state.check = async (name, fn) => {
    try {
      await fn();
      state.passed += 1;
      console.log(`ok   ${name}`);
    } catch (e) {
      state.failed += 1;
      await state.page?.screenshot({ path: path.join(shots, `FAIL-${path.basename(process.argv[1], ".mjs")}-${state.failed}.png`) }).catch(() => {});
      console.log(`FAIL ${name}: ${String(e.message).split("\n").slice(0, 4).join(" | ")}`);
    }
  };
  return state;
}

/** axe-core on the page as it is: no violation at all. */
export async function axe(page, name) {
  // Evaluated through the DevTools protocol: a <script> tag would be refused by the page's CSP.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, target: v.nodes[0]?.target.join(" ") }));
  });
  assert.deepEqual(violations, [], `${name}: ${JSON.stringify(violations)}`);
}

/** The page does not scroll sideways (a phone's screen is its width). */
export async function noSideScroll(page, name) {
  const { scroll, width, widest } = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    let widest = "";
    for (const el of document.querySelectorAll("body *")) {
      const r = el.getBoundingClientRect();
      if (r.right > width + 1 && getComputedStyle(el).position !== "absolute" && !el.closest(".scroll")) {
        widest = `${el.tagName.toLowerCase()}.${el.className} ${Math.round(r.right)}px`;
        break;
      }
    }
    return { scroll: document.documentElement.scrollWidth, width, widest };
  });
  assert.ok(scroll <= width, `${name}: ${scroll} px wide in ${width} px (${widest})`);
}

/** Signs in with the demo admin token (not remembered). */
export async function signIn(page, url) {
  await page.goto(`${url}/`);
  await page.getByLabel(/Dán token|Paste a token/).check();
  await page.fill("#token", DEMO.adminToken);
  await page.click("button[type=submit]");
  await page.locator("main table tbody tr").first().waitFor();
}

/** Opens the bulk screen's editor: its link, then "new import" when the screen shows the last
 * import's results. Waits for the screen (the editor or those results) before deciding. */
export async function openBulkEditor(page) {
  await page.getByRole("link", { name: "Tạo hàng loạt" }).click();
  const again = page.getByRole("button", { name: "Lượt tạo mới" });
  await page.locator("#paste").or(again).first().waitFor();
  if (await again.count()) await again.click();
  await page.locator("#paste").waitFor();
}
