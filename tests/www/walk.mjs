// The dashboard's second walk (issue 38): what a sign-out forgets, the overview after an import,
// the texts, the layout at a laptop's and a phone's size, the course search. Each check gets its
// own emulator and browser context, signed in; each failed on the build before its fix
// (`LPM_WWW_DIST=<that build's dist> node tests/www/walk.mjs`).
import assert from "node:assert/strict";
import path from "node:path";
import { DEMO, VIEWPORTS, axe, checker, launch, noSideScroll, openBulkEditor, serveSite, shots, signIn } from "./lib.mjs";

const INTERVAL_SECS = 3;
const started = Date.now();
const state = checker();
const browser = await launch();
const [desktop, phone] = VIEWPORTS;
const stamp = Date.now().toString(36);

const bulkRows = (rows) => `Họ tên\tTên đăng nhập\tE-mail\tMật khẩu\n${rows.map((r) => r.join("\t")).join("\n")}`;
const row = (name, key) => [name, `${key}${stamp}`, `${key}.${stamp}@truong.vn`, `matkhau-${key}`];
async function paste(page, text) {
  await openBulkEditor(page);
  await page.locator("#paste").fill(text);
  await page.getByRole("button", { name: "Đọc dữ liệu đã dán" }).click();
}

/** Records in an IndexedDB store of this origin (0 when the database or the store is absent). */
const stored = (page, db, store) => page.evaluate(([db, store]) => new Promise((resolve, reject) => {
  const req = indexedDB.open(db);
  req.onerror = () => reject(req.error);
  req.onsuccess = () => {
    if (![...req.result.objectStoreNames].includes(store)) return resolve(0);
    req.result.transaction(store).objectStore(store).count().onsuccess = (e) => resolve(e.target.result);
  };
}), [db, store]);

/** Lower case without accents, as a reader searching without them types. */
const fold = (s) => s.normalize("NFD").replace(/\p{Mn}/gu, "").replace(/đ/g, "d").replace(/Đ/g, "D").toLowerCase();

/** Runs `fn` on a new emulator serving the dashboard, in a new context of `size`, signed in. */
async function signedIn(size, fn) {
  const { name: vp, ...options } = size;
  const { emu, cleanup } = await serveSite(
    { createIntervalMs: INTERVAL_SECS * 1000, retryDelayMs: 300 },
    ["--create-interval-secs", String(INTERVAL_SECS)],
  );
  const context = await browser.newContext(options);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  state.page = page;
  const pageErrors = [];
  page.on("pageerror", (e) => pageErrors.push(e.message));
  try {
    await signIn(page, emu.url);
    await fn({ page, context, emu, vp });
    assert.deepEqual(pageErrors, []);
  } catch (e) {
    await page.screenshot({ path: path.join(shots, `FAIL-walk-${state.failed + 1}.png`), fullPage: true }).catch(() => {});
    throw e;
  } finally {
    await context.close();
    await cleanup();
  }
}

// ---------------------------------------------------------------- 4 forgotten at sign-out
await state.check("4 sign-out asks before losing an unfinished import, then forgets its rows and passwords and the accounts read, and says so", () =>
  signedIn(desktop, async ({ page, emu }) => {
    await page.getByRole("button", { name: "Đọc mọi tài khoản" }).click();
    const accounts = (await emu.control("GET", "state")).accounts;
    await page.locator("#cache-age", { hasText: `${accounts} tài khoản, đọc lúc` }).waitFor();
    // An import the platform refuses: kept in IndexedDB, passwords included, for a resume.
    await paste(page, bulkRows([row("Giữ Một", "g1"), row("Giữ Hai", "g2")]));
    await emu.control("POST", "faults", { endpoint: "create-multi-user", kind: "respcode", respCode: "06", msg: "Invalid token" });
    await page.getByRole("button", { name: "Tạo 2 tài khoản" }).click();
    await page.locator(".note", { hasText: "Lượt tạo dừng ở 0/2 dòng" }).waitFor();
    assert.equal(await stored(page, "lpm-dashboard", "imports"), 1);
    // Asked first, focus on the question; staying keeps everything.
    await page.getByRole("button", { name: "Đăng xuất" }).click();
    await page.locator("#signout-ask", { hasText: "Đăng xuất sẽ xoá lượt tạo chưa xong (0/2 dòng, kể cả mật khẩu) khỏi trình duyệt này" }).waitFor();
    await page.waitForFunction(() => document.activeElement?.id === "signout-ask");
    await axe(page, "sign-out asked");
    await page.screenshot({ path: path.join(shots, "signout-ask.png") });
    await page.getByRole("button", { name: "Ở lại" }).click();
    await page.locator("#signout-ask").waitFor({ state: "detached" });
    assert.equal(await stored(page, "lpm-dashboard", "imports"), 1);
    // Signed out anyway: every stored row, password and account copy is gone, and said so.
    await page.getByRole("button", { name: "Đăng xuất" }).click();
    await page.getByRole("button", { name: "Vẫn đăng xuất và xoá" }).click();
    await page.locator("#signin-note", {
      hasText: `Bạn đã đăng xuất; token đã bị xoá khỏi trình duyệt. Cũng đã xoá khỏi trình duyệt này: bản sao ${accounts} tài khoản đã đọc về; lượt tạo chưa xong (2 dòng, kể cả mật khẩu).`,
    }).waitFor();
    assert.deepEqual(
      [await stored(page, "lpm-dashboard", "imports"), await stored(page, "lpm-client-journals", "events"), await stored(page, "lpm-dashboard", "accounts")],
      [0, 0, 0],
    );
    assert.equal(await page.evaluate(() => document.body.innerText.includes("Giữ Một")), false);
  }));

await state.check("4 an unfinished import kept from an earlier visit is asked about and forgotten at sign-out, the bulk screen not opened", () =>
  signedIn(desktop, async ({ page, emu }) => {
    await paste(page, bulkRows([row("Cũ Một", "o1")]));
    await emu.control("POST", "faults", { endpoint: "create-multi-user", kind: "respcode", respCode: "06", msg: "Invalid token" });
    await page.getByRole("button", { name: "Tạo 1 tài khoản" }).click();
    await page.locator(".note", { hasText: "Lượt tạo dừng ở 0/1 dòng" }).waitFor();
    // A new visit: the page loaded again, signed in again, the bulk screen's code not loaded.
    await signIn(page, emu.url);
    await page.getByRole("button", { name: "Đăng xuất" }).click();
    await page.locator("#signout-ask", { hasText: "lượt tạo chưa xong (0/1 dòng, kể cả mật khẩu)" }).waitFor();
    await page.getByRole("button", { name: "Vẫn đăng xuất và xoá" }).click();
    await page.locator("#signin-note", { hasText: "lượt tạo chưa xong (1 dòng, kể cả mật khẩu)" }).waitFor();
    assert.deepEqual([await stored(page, "lpm-dashboard", "imports"), await stored(page, "lpm-client-journals", "events")], [0, 0]);
  }));

await state.check("4 sign-out forgets the rows being prepared (in memory): the next person signing in finds an empty editor", () =>
  signedIn(desktop, async ({ page }) => {
    await paste(page, bulkRows([row("Soạn Một", "s1"), row("Soạn Hai", "s2")]));
    await page.locator("table.edit tbody tr").nth(1).waitFor();
    // Nothing stored to lose: no question, and the note names the rows.
    await page.getByRole("button", { name: "Đăng xuất" }).click();
    await page.locator("#signin-note", { hasText: "Cũng đã xoá khỏi trình duyệt này: 2 dòng đang soạn để tạo tài khoản." }).waitFor();
    // Signed in again without a reload (what the page holds in memory is what is checked).
    await page.getByLabel("Dán token").check();
    await page.fill("#token", DEMO.adminToken);
    await page.click("button[type=submit]");
    await page.locator("main table tbody tr").first().waitFor();
    await page.getByRole("link", { name: "Tạo hàng loạt" }).click();
    await page.locator("#paste").waitFor();
    assert.equal(await page.locator("#paste").inputValue(), "");
    assert.equal(await page.locator("table.edit").count(), 0);
  }));

// ---------------------------------------------------------------- 5 the overview after an import
await state.check("5 the overview reads the accounts again after an import, not 'changed since then'", () =>
  signedIn(desktop, async ({ page, emu }) => {
    await page.getByRole("link", { name: "Tổng quan", exact: true }).click();
    await page.getByRole("button", { name: "Đọc mọi tài khoản" }).click();
    const accounts = (await emu.control("GET", "state")).accounts;
    await page.locator("#overview-age", { hasText: `${accounts} tài khoản, đọc lúc` }).waitFor();
    await paste(page, bulkRows([row("Mới Một", "m1")]));
    await page.getByRole("button", { name: "Tạo 1 tài khoản" }).click();
    await page.locator(".done", { hasText: "1 tạo được" }).waitFor();
    await page.getByRole("link", { name: "Tổng quan", exact: true }).click();
    await page.locator("#overview-age", { hasText: `${accounts + 1} tài khoản, đọc lúc` }).waitFor();
    assert.doesNotMatch(await page.locator("#overview-age").innerText(), /Đã có thay đổi/);
  }));

// ---------------------------------------------------------------- 6 texts
await state.check("6 a cut-short answer is told without a place '(tại .)'", () =>
  signedIn(desktop, async ({ page, emu }) => {
    await emu.control("POST", "faults", { endpoint: "get-multi-user", kind: "truncated" });
    await page.getByRole("button", { name: "Tải lại trang này" }).click();
    const box = page.locator("main .error p").first();
    await box.waitFor();
    assert.equal(await box.innerText(), "Không đọc được trả lời của máy chủ: nó bị cắt ngang hoặc không phải dữ liệu JSON.");
  }));

await state.check("6 a second tab says once that the import runs in another tab", () =>
  signedIn(desktop, async ({ page, context, emu }) => {
    // The first tab's import, its answer held back while the second tab looks.
    await paste(page, bulkRows([row("Chạy Một", "c1")]));
    await emu.control("POST", "faults", { endpoint: "create-multi-user", kind: "delay", delayMs: 30_000 });
    await page.getByRole("button", { name: "Tạo 1 tài khoản" }).click();
    await page.locator("#run-status").waitFor();
    const other = await context.newPage();
    other.setDefaultTimeout(15_000);
    await signIn(other, emu.url);
    await other.getByRole("link", { name: "Tạo hàng loạt" }).click();
    const running = "Lượt tạo đang chạy ở một thẻ khác";
    await other.locator(".note", { hasText: running }).waitFor();
    // (Marked aria-disabled while the other tab runs, yet pressable: a press is refused and told.)
    await other.getByRole("button", { name: "Tiếp tục" }).press("Enter");
    // The press is answered: focus on the line that says it, or the sentence said again.
    await other.waitForFunction((s) => document.activeElement?.id === "elsewhere" || document.querySelector("main").innerText.split(s).length > 2, running);
    const said = await other.locator("main").innerText();
    assert.equal(said.split(running).length - 1, 1, said);
    await axe(other, "the second tab, refused");
  }));

await state.check("6 a duplicate's group line names the line each row repeats", () =>
  signedIn(desktop, async ({ page }) => {
    await paste(page, bulkRows([row("Gốc", "d1"), row("Khác", "d2"), ["Lặp", `d1${stamp}`, `d1.${stamp}@truong.vn`, "matkhau3"]]));
    await page.locator(".issue-groups li", { hasText: "E-mail: Trùng với một dòng phía trên (Dòng 4 trùng dòng 2)" }).waitFor();
    await page.getByRole("button", { name: "Switch to English" }).click();
    await page.locator(".issue-groups li", { hasText: "E-mail: The same as a row above (Row 4 repeats row 2)" }).waitFor();
    await page.getByRole("button", { name: "Chuyển sang tiếng Việt" }).click();
  }));

await state.check("6 a sheet-read error of pasted rows follows a language switch", () =>
  signedIn(desktop, async ({ page }) => {
    await paste(page, "\n");
    await page.locator("main .error", { hasText: "Không đọc được dữ liệu đã dán: bảng trống" }).waitFor();
    await page.getByRole("button", { name: "Switch to English" }).click();
    await page.locator("main .error", { hasText: "Cannot read the pasted rows: the sheet is empty" }).waitFor();
    await page.getByRole("button", { name: "Chuyển sang tiếng Việt" }).click();
  }));

// ---------------------------------------------------------------- 7 layout
await state.check("7 the overview on a phone: its tables are tables, not a card a line", () =>
  signedIn(phone, async ({ page, emu, vp }) => {
    await page.getByRole("link", { name: "Tổng quan", exact: true }).click();
    await page.getByRole("button", { name: "Đọc mọi tài khoản" }).click();
    await page.locator("table.course-stats tbody tr").first().waitFor();
    const courses = (await emu.control("GET", "state")).courses;
    const { height, rowHeight } = await page.evaluate(() => ({
      height: document.documentElement.scrollHeight,
      rowHeight: Math.max(...[...document.querySelectorAll("table.course-stats tbody tr")].map((tr) => tr.getBoundingClientRect().height)),
    }));
    // A course is one row of the table (its title wrapped at most to three lines), not a card
    // of five labelled lines: the page is the charts, the table and the list of unfinished ones.
    assert.ok(rowHeight <= 80, `a course's row is ${rowHeight} px tall`);
    assert.ok(height <= 1600 + courses * 2 * 80, `${height} px tall for ${courses} courses`);
    await axe(page, `${vp}: overview`);
    await noSideScroll(page, `${vp}: overview`);
  }));

const longName = `Nguyễn${"Văn".repeat(98)}`.slice(0, 300);
await state.check("7 a 300-character name leaves the other columns of the import's results their room, at a laptop's width", () =>
  signedIn(desktop, async ({ page }) => {
    await paste(page, bulkRows([[longName, `dai${stamp}`, `dai.${stamp}@truong.vn`, "matkhau1"]]));
    await page.getByRole("button", { name: "Tạo 1 tài khoản" }).click();
    await page.locator(".done", { hasText: "1 tạo được" }).waitFor();
    const [, , username, email] = await page.locator("table.results tbody tr").first().locator("td")
      .evaluateAll((tds) => tds.map((td) => td.getBoundingClientRect().width));
    assert.ok(email >= 160 && username >= 90, `e-mail ${Math.round(email)} px, username ${Math.round(username)} px beside a long name`);
    await noSideScroll(page, "results (a long name)");
  }));

await state.check("7 the editor shows a long e-mail whole with every column shown, at a laptop's width", () =>
  signedIn(desktop, async ({ page }) => {
    const header = ["Họ tên", "Tên đăng nhập", "E-mail", "Mật khẩu", "Điện thoại", "Tỉnh/Thành", "Quận/Huyện", "Địa chỉ", "Giới tính", "Nghề nghiệp"];
    const email = `nguyen.thi.phuong.thao.${stamp}@thpt-chuyen-le-hong-phong.edu.vn`;
    await paste(page, `${header.join("\t")}\nNguyễn Thị Phương Thảo\tthao${stamp}\t${email}\tmatkhau1\t0901000001\tThành phố Hồ Chí Minh\tQuận Bình Thạnh\t12 Nguyễn Hữu Cảnh\tNữ\tGiáo viên`);
    const input = page.getByRole("textbox", { name: /^E-mail, dòng 2$/ });
    await input.waitFor();
    const { client, scroll } = await input.evaluate((e) => ({ client: e.clientWidth, scroll: e.scrollWidth }));
    assert.ok(scroll <= client, `${scroll} px of e-mail in ${client} px`);
  }));

// ---------------------------------------------------------------- 8 search
await state.check("8 'Hóa học' and 'hoa hoc' list only the courses that say it, chemistry first", () =>
  signedIn(desktop, async ({ page, emu }) => {
    const { records } = await emu.control("GET", "state?records=1");
    const says = (c) => /(^|[^\p{L}\p{N}])hoa hoc/u.test(fold(`${c.title} ${c.label} ${c.headline}`));
    const expected = records.courses.filter(says).length;
    assert.ok(expected > 0 && expected < records.courses.length, `${expected} of ${records.courses.length}`);
    await page.getByRole("link", { name: "Khoá học", exact: true }).click();
    await page.locator("main table tbody tr").first().waitFor();
    for (const q of ["Hóa học", "hoa hoc"]) {
      await page.fill("#course-search", q);
      await page.locator("main p[role=status]", { hasText: new RegExp(`^${expected} khoá học$`) }).waitFor();
      await page.locator("main table tbody tr td:nth-child(1)").first().filter({ hasText: /^Hóa học 10/ }).waitFor();
    }
  }));

await browser.close();
console.log(`${state.passed} passed, ${state.failed} failed (${((Date.now() - started) / 1000).toFixed(0)} s)`);
process.exit(state.failed ? 1 : 0);
