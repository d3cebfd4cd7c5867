// The engine's state on screen while it works (issue 38, items 1, 2, 3, 9): a chunk out, rows in
// doubt looked up by the running job, a grant's failures in a row, the interval counted from the
// platform's answer. Each check gets its own emulator and browser context, signed in, and waits
// for states; a fault is injected once the page has stopped loading. Each failed on the build
// before its fix (`LPM_WWW_DIST=<that build's dist> node tests/www/engine.mjs`).
import assert from "node:assert/strict";
import path from "node:path";
import { VIEWPORTS, axe, checker, launch, openBulkEditor, serveSite, shots, signIn } from "./lib.mjs";

const INTERVAL_SECS = 3;
// The engine's wait after a lost answer (before its look-ups, or a grant's try again): long enough
// for a check to see the state it shows, short enough for the check.
const RETRY_MS = 3000;
const started = Date.now();
const state = checker();
const browser = await launch();
const [desktop] = VIEWPORTS;
const stamp = Date.now().toString(36);

const bulkRows = (n, key) =>
  `Họ tên\tTên đăng nhập\tE-mail\tMật khẩu\n${Array.from({ length: n }, (_, i) => `Học viên ${i}\t${key}${stamp}${i}\t${key}${i}.${stamp}@truong.vn\tmatkhau-${i}`).join("\n")}`;
async function paste(page, text) {
  await openBulkEditor(page);
  await page.locator("#paste").fill(text);
  await page.getByRole("button", { name: "Đọc dữ liệu đã dán" }).click();
  await page.locator("#rows-summary").waitFor();
}
const resultTexts = (page) => page.locator("table.results tbody tr td:last-child").allInnerTexts();

/** Runs `fn` on a new emulator serving the dashboard, in a new desktop context, signed in. */
async function signedIn(fn) {
  const { name: vp, ...options } = desktop;
  const { emu, cleanup } = await serveSite(
    { createIntervalMs: INTERVAL_SECS * 1000, retryDelayMs: RETRY_MS },
    ["--create-interval-secs", String(INTERVAL_SECS)],
  );
  const context = await browser.newContext(options);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  state.page = page;
  const pageErrors = [];
  page.on("pageerror", (e) => pageErrors.push(e.message));
  try {
    await signIn(page, emu.url);
    await fn({ page, emu, vp });
    assert.deepEqual(pageErrors, []);
  } catch (e) {
    await page.screenshot({ path: path.join(shots, `FAIL-engine-${state.failed + 1}.png`), fullPage: true }).catch(() => {});
    throw e;
  } finally {
    await context.close();
    await cleanup();
  }
}

await state.check("1 a chunk in flight: its rows being sent, since when, no countdown, no expected end", () =>
  signedIn(async ({ page, emu }) => {
    await paste(page, bulkRows(2, "f"));
    await emu.control("POST", "faults", { endpoint: "create-multi-user", kind: "delay", delayMs: 8000 });
    await page.getByRole("button", { name: "Tạo 2 tài khoản" }).click();
    await page.locator("#run-sending", { hasText: "Đang gửi 2 dòng: chờ nền tảng trả lời từ" }).waitFor();
    assert.deepEqual(await resultTexts(page), ["Đang gửi, chờ nền tảng trả lời", "Đang gửi, chờ nền tảng trả lời"]);
    assert.equal(await page.locator(".countdown").count(), 0, "a countdown to a chunk that does not exist");
    assert.equal(await page.locator(".expected-end").count(), 0, "an expected end while the answer's time is unknown");
    const since = Date.parse(await page.locator("#run-sending time").getAttribute("datetime"));
    assert.ok(Math.abs(Date.now() - since) < 8000, `sent at ${new Date(since).toISOString()}`);
    await axe(page, "a chunk in flight");
    await page.getByRole("button", { name: "Switch to English" }).click();
    await page.locator("#run-sending", { hasText: "Sending 2 rows: waiting for the platform's answer since" }).waitFor();
    assert.deepEqual(await resultTexts(page), ["Being sent, awaiting the platform's answer", "Being sent, awaiting the platform's answer"]);
    await page.getByRole("button", { name: "Chuyển sang tiếng Việt" }).click();
    await page.locator(".done", { hasText: "2 tạo được" }).waitFor();
  }));

await state.check("2 after an HTML 500: rows in doubt looked up by the running job, the look-up's wait, the error told", () =>
  signedIn(async ({ page, emu }) => {
    await paste(page, bulkRows(2, "h"));
    // The create's answer an HTML 500; the first look-up's answer held, so the row looked up now is on screen.
    await emu.control("POST", "faults", { endpoint: "create-multi-user", kind: "html500" });
    await emu.control("POST", "faults", { endpoint: "search-user", kind: "delay", delayMs: 6000 });
    await page.getByRole("button", { name: "Tạo 2 tài khoản" }).click();
    await page.locator("#run-doubt", { hasText: "2 dòng chưa rõ kết quả: lượt tạo này tự tra cứu chúng trên nền tảng" }).waitFor();
    assert.match(await page.locator("#run-retries").innerText(), /^1 lần gọi liên tiếp không thành công, được thử lại\. Lỗi gần nhất: .+/);
    for (const text of await resultTexts(page)) {
      assert.match(text, /^Chưa rõ \(không đọc được trả lời\), lượt tạo này sẽ tra cứu trước khi gửi tiếp$|^Chưa rõ, đang được tra cứu/);
      assert.doesNotMatch(text, /khi tiếp tục/);
    }
    const wait = page.locator(".countdown");
    if (await wait.count()) assert.match(await wait.innerText(), /^Các dòng chưa rõ được tra cứu sau/);
    await axe(page, "rows in doubt");
    await page.locator("#run-doubt", { hasText: "Đang tra cứu dòng 2 trên nền tảng" }).waitFor();
    assert.equal((await resultTexts(page))[0], "Chưa rõ, đang được tra cứu trên nền tảng");
    assert.equal(await page.locator(".countdown").count(), 0, "a wait while the look-up is out");
    await page.getByRole("button", { name: "Switch to English" }).click();
    await page.locator("#run-doubt", { hasText: "Looking up row 2 on the platform (2 rows with no known outcome" }).waitFor();
    assert.match(await page.locator("#run-retries").innerText(), /^Calls failed in a row and tried again: 1\. The last error: .+/);
    await page.getByRole("button", { name: "Chuyển sang tiếng Việt" }).click();
    // Not found (an HTML 500 from a proxy: the platform did nothing): sent again, created once.
    await page.locator(".done", { hasText: "2 tạo được" }).waitFor();
    assert.equal((await emu.control("GET", "create-calls")).calls.at(-1).items, 2);
  }));

await state.check("3 a grant counts the accounts the engine handled, notes its tries again and the chunk out", () =>
  signedIn(async ({ page, emu }) => {
    // More accounts than one add-courses call takes: the seed's, and 60 more (two pages picked).
    await paste(page, bulkRows(60, "g"));
    await page.getByRole("button", { name: "Tạo 60 tài khoản" }).click();
    await page.locator(".done", { hasText: "60 tạo được" }).waitFor();
    await page.getByRole("link", { name: "Tài khoản", exact: true }).click();
    await page.locator("main table tbody tr").nth(1).waitFor();
    await page.getByLabel("Chọn mọi tài khoản trên trang này").check();
    await page.getByRole("button", { name: "Trang sau" }).first().click();
    await page.locator("main", { hasText: "Trang 2" }).waitFor();
    await page.locator("main table tbody tr").first().waitFor();
    await page.getByLabel("Chọn mọi tài khoản trên trang này").check();
    const n = Number((await page.locator(".picked").innerText()).match(/\d+/)[0]);
    assert.ok(n > 100, `${n} picked`);
    await page.getByRole("link", { name: "Cấp khoá học cho các tài khoản đã chọn" }).click();
    await page.fill("#grant-filter", "yoga");
    await page.locator(".course-picks input").first().check();
    // The first call's answer an HTML 500, the next two held: the try again, then the other chunk.
    await emu.control("POST", "faults", { endpoint: "add-multi-course-to-multi-user", kind: "html500" });
    await emu.control("POST", "faults", { endpoint: "add-multi-course-to-multi-user", kind: "delay", delayMs: 5000, count: 2 });
    await page.getByRole("button", { name: `Cấp 1 khoá học cho ${n} tài khoản` }).click();
    // The answer unreadable: told, and the wait is a try again's.
    await page.locator("#grant-retries", { hasText: /^1 lần gọi liên tiếp không thành công, được thử lại\. Lỗi gần nhất: .+/ }).waitFor();
    await page.locator(".countdown", { hasText: "Thử lại sau" }).waitFor();
    assert.equal(await page.locator("#grant-status").innerText(), `Đã xử lý 0/${n} tài khoản`);
    await axe(page, "a grant trying again");
    // The try again out: the chunk is told, the note still up until an answer comes.
    await page.locator("#grant-sending", { hasText: /^Đang cấp cho \d+ tài khoản: chờ nền tảng trả lời từ/ }).waitFor();
    assert.equal(await page.locator("#grant-retries").count(), 1);
    // Counted as the engine reports them handled, once a chunk is answered, while the other is out.
    await page.locator("#grant-status", { hasText: new RegExp(`^Đã xử lý (100|${n - 100})/${n} tài khoản$`) }).waitFor();
    assert.equal(await page.locator("#grant-sending").count(), 1);
    await page.locator(".done", { hasText: `${n} tài khoản được cấp, 0 lỗi` }).waitFor();
  }));

await state.check("9 the next chunk's time is the engine's, counted from the platform's answer, and said so", () =>
  signedIn(async ({ page, emu }) => {
    await paste(page, bulkRows(101, "i"));
    const DELAY = 2500;
    let answeredAt = 0;
    page.on("response", (r) => { if (r.url().includes("create-multi-user") && !answeredAt) answeredAt = Date.now(); });
    await emu.control("POST", "faults", { endpoint: "create-multi-user", kind: "delay", delayMs: DELAY });
    await page.getByRole("button", { name: "Tạo 101 tài khoản" }).click();
    const countdown = page.locator(".countdown", { hasText: "Đợt tiếp theo được gửi sau" });
    await countdown.waitFor();
    assert.ok(answeredAt > 0, "the countdown before the first chunk's answer");
    await countdown.getByText("Nền tảng tính khoảng cách giữa hai lượt tạo từ lúc nó trả lời lượt trước").waitFor();
    const at = Date.parse(await countdown.locator("time").getAttribute("datetime"));
    // From the answer (not from the send, DELAY earlier): the browser's response event comes a
    // moment after the engine read the answer.
    const expected = answeredAt + INTERVAL_SECS * 1000;
    assert.ok(at > expected - 1000 && at <= expected + 500, `next at ${at - answeredAt} ms after the answer`);
    await axe(page, "the interval's countdown");
    await page.getByRole("button", { name: "Switch to English" }).click();
    await page.locator(".countdown", { hasText: "The platform counts the interval from when it answered the last create" }).waitFor();
    await page.getByRole("button", { name: "Chuyển sang tiếng Việt" }).click();
    await page.locator(".done", { hasText: "101 tạo được" }).waitFor();
  }));

await browser.close();
console.log(`${state.passed} passed, ${state.failed} failed (${((Date.now() - started) / 1000).toFixed(0)} s)`);
process.exit(state.failed ? 1 : 0);
