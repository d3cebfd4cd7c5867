// The dashboard for a day's work (issue 28): each item checked at a laptop's size and a phone's,
// every screen it visits with axe-core at 0 violations and no sideways scroll. Each size gets its
// own emulator (its own accounts and create interval) and browser context.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { DEMO, VIEWPORTS, axe, checker, launch, noSideScroll, openBulkEditor, root, serveSite, shots, signIn } from "./lib.mjs";

const INTERVAL_SECS = 5;
const started = Date.now();
const state = checker();
const browser = await launch();

/** The items, in the order they run; each gets the page, the emulator and the size's name. The
 * first ones run on the sign-in screen, the others signed in. */
const before = [];
const items = [];
const item = (name, fn) => items.push({ name, fn });
const onSignIn = (name, fn) => before.push({ name, fn });

/** axe-core and the phone's width on the screen as it is. */
async function screenOk(t, name) {
  await axe(t.page, `${t.vp}: ${name}`);
  await noSideScroll(t.page, `${t.vp}: ${name}`);
}

const rowsOf = (page) => page.locator("main table tbody tr");
/** Accounts created through the API, not by the dashboard (another staff member, a harness). */
const createByApi = (url, users) => fetch(`${url}/manage/api/users/create-multi-user?token=${DEMO.adminToken}`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ users }),
});


// ---------------------------------------------------------------- sign-in screen
onSignIn("16 no request of the page fails (config.json, favicon)", async (t) => {
  assert.deepEqual(t.failedRequests, []);
  // The build ships a config.json (the tests write their own over it) and declares its icon, so a
  // browser does not ask for /favicon.ico.
  assert.deepEqual(JSON.parse(readFileSync(path.join(process.env.LPM_WWW_DIST || path.join(root, "www/dist"), "config.json"), "utf8")), {});
  const icon = await t.page.locator("link[rel=icon]").getAttribute("href");
  assert.equal((await fetch(new URL(icon, t.page.url()))).status, 200);
});
onSignIn("18 the page is served under its Content-Security-Policy; an inline script is blocked", async (t) => {
  const { page } = t;
  assert.match(t.csp ?? "", /script-src 'self' 'wasm-unsafe-eval'/);
  // The deploy notes give the same policy.
  assert.ok(readFileSync(path.join(root, "www/README.md"), "utf8").includes(`Content-Security-Policy: ${t.csp}`));
  const ran = await page.evaluate(() => new Promise((resolve) => {
    const seen = [];
    document.addEventListener("securitypolicyviolation", (e) => seen.push(e.violatedDirective));
    const s = document.createElement("script");
    s.textContent = "window.__inlineRan = true";
    document.head.append(s);
    setTimeout(() => resolve({ ran: window.__inlineRan === true, seen }), 100);
  }));
  assert.equal(ran.ran, false, "the inline script ran");
  assert.ok(ran.seen.some((d) => d.startsWith("script-src")), JSON.stringify(ran.seen));
});
onSignIn("10 a wrong password says so, per code; 16 in the language switched to", async (t) => {
  const { page } = t;
  await page.fill("#email", "admin@demo.lpm.test");
  await page.fill("#password", "wrong-password");
  await page.click("button[type=submit]");
  await page.locator(".error p").first().filter({ hasText: /^Sai mật khẩu\.$/ }).waitFor();
  // walk 8: the button was busy (disabled) meanwhile; focus is on the refusal, not on <body>.
  await page.waitForFunction(() => document.activeElement?.closest(".error"));
  assert.doesNotMatch(await page.locator(".error").innerText(), /token/i);
  await page.getByRole("button", { name: "Switch to English" }).click();
  await page.locator(".error p").first().filter({ hasText: /^Wrong password\.$/ }).waitFor();
  await page.getByRole("button", { name: "Chuyển sang tiếng Việt" }).click();
  await page.fill("#email", "nobody@demo.lpm.test");
  await page.click("button[type=submit]");
  await page.locator(".error p").first().filter({ hasText: /^Không có tài khoản nào với e-mail này\.$/ }).waitFor();
  await screenOk(t, "sign-in (refused)");
});
onSignIn("walk 3 a garbage or short token is told in words (both languages), not as a configuration code", async (t) => {
  const { page } = t;
  await page.getByLabel("Dán token").check();
  const said = async (token, pattern) => {
    await page.fill("#token", token);
    await page.click("button[type=submit]");
    await page.locator(".error p").first().filter({ hasText: pattern }).waitFor();
    assert.doesNotMatch(await page.locator(".error").innerText(), /tooShort|character|Cấu hình|configuration/);
  };
  await said("abc", /^Token quá ngắn \(ít nhất 8 ký tự\)/);
  await page.getByRole("button", { name: "Switch to English" }).click();
  await page.locator(".error p").first().filter({ hasText: /^The token is too short \(at least 8 characters\)/ }).waitFor();
  await page.getByRole("button", { name: "Chuyển sang tiếng Việt" }).click();
  await said("không phải token!", /^Token chỉ gồm chữ cái không dấu, chữ số/);
  await page.fill("#base-url", "https://x.test/?a=1");
  await said(DEMO.adminToken, /^Địa chỉ nền tảng không dùng được: cần dạng https:\/\/tên-máy/);
  await page.fill("#base-url", "");
  await page.fill("#token", "");
  await screenOk(t, "sign-in (a short token)");
});
onSignIn("walk 10 a token without management rights is refused at sign-in, not let into empty screens", async (t) => {
  const { page } = t;
  await page.getByLabel("Dán token").check();
  await page.fill("#token", DEMO.userToken);
  await page.click("button[type=submit]");
  await page.locator(".error p").first().filter({ hasText: /^Tài khoản này không có quyền quản trị\.$/ }).waitFor();
  assert.equal(await page.locator("main h1").innerText(), "Đăng nhập quản trị", "still the sign-in screen");
  assert.equal(await page.locator("#token").count(), 1);
  await page.fill("#token", "");
  await screenOk(t, "sign-in (no management rights)");
});
onSignIn("14 after signing in, focus is on the screen's heading; the skip link says where it goes", async (t) => {
  const { page } = t;
  await page.getByLabel("Dán token").check();
  await page.fill("#token", DEMO.adminToken);
  await page.click("button[type=submit]");
  await rowsOf(page).first().waitFor();
  await page.waitForFunction(() => document.activeElement?.matches("main h1"));
  assert.equal(await page.locator("a.skip").innerText(), "↓ Bỏ qua, tới nội dung chính");
  await page.keyboard.press("Tab");
  const ring = await page.evaluate(() => getComputedStyle(document.activeElement).outlineColor);
  assert.equal(ring, "rgb(11, 87, 208)", "a blue focus ring, not the warnings' amber");
});

// ---------------------------------------------------------------- 1 stale after a write
item("1 a grant shows at once in the list and the detail", async (t) => {
  const { page } = t;
  await page.getByRole("link", { name: "Tài khoản", exact: true }).click();
  await rowsOf(page).nth(1).waitFor();
  const counts = (await page.locator("main table tbody tr td:nth-child(6)").allInnerTexts()).map(Number);
  const i = counts.indexOf(0);
  assert.ok(i >= 0, "an account without enrolments");
  const row = rowsOf(page).nth(i);
  const name = await row.locator("td:nth-child(2)").innerText();
  // The detail read before the grant says no enrolment.
  await row.locator("a").click();
  await page.getByText("Chưa ghi danh khoá học nào.").waitFor();
  await page.getByRole("link", { name: /Quay lại danh sách/ }).click();
  await rowsOf(page).nth(i).locator("input[type=checkbox]").check();
  await page.getByRole("link", { name: "Cấp khoá học cho các tài khoản đã chọn" }).click();
  await page.fill("#grant-filter", "yoga");
  await page.locator(".course-picks input").first().check();
  await page.getByRole("button", { name: "Cấp 1 khoá học cho 1 tài khoản" }).click();
  await page.locator(".done", { hasText: "1 tài khoản được cấp, 0 lỗi" }).waitFor();
  // walk 8: focus on the line that says what happened.
  await page.waitForFunction(() => document.activeElement?.matches("main .done"));
  // walk 9: the same grant is not offered again at once; a change of selection offers it.
  const again = page.getByRole("button", { name: "Cấp 1 khoá học cho 1 tài khoản" });
  assert.equal(await again.isDisabled(), true, "the grant can be sent again at once");
  await page.getByText("Đã cấp xong lựa chọn này; đổi tài khoản hoặc khoá học để cấp tiếp.").waitFor();
  assert.equal(await again.getAttribute("aria-describedby"), "granted-hint", "a screen reader is told why it is disabled");
  await page.fill("#grant-filter", "");
  const other = page.locator(".course-picks li", { hasText: await page.locator(".course-picks li").filter({ has: page.locator("input:not(:checked)") }).first().innerText() }).first().locator("input");
  await other.check();
  assert.equal(await page.getByRole("button", { name: "Cấp 2 khoá học cho 1 tài khoản" }).isDisabled(), false);
  await other.uncheck();
  assert.equal(await again.isDisabled(), true);
  await screenOk(t, "grant (after a grant)");
  await page.locator(".picked-list button").click();
  await page.getByRole("link", { name: "Tài khoản", exact: true }).click();
  const after = page.locator("main table tbody tr", { hasText: name }).first();
  await after.locator("td:nth-child(6)", { hasText: /^1$/ }).waitFor();
  await after.locator("a").click();
  await page.locator("section[aria-labelledby=h-enrol] tbody tr", { hasText: /yoga/i }).waitFor();
  assert.equal(await page.getByText("Chưa ghi danh khoá học nào.").count(), 0);
  await screenOk(t, "account detail (after a grant)");
  await page.getByRole("link", { name: /Quay lại danh sách/ }).click();
  await rowsOf(page).first().waitFor();
});


// ---------------------------------------------------------------- 4 ranked course search
item("4 'Hóa học' ranks chemistry first, not every 'Khoá học' headline", async (t) => {
  const { page } = t;
  await page.getByRole("link", { name: "Khoá học", exact: true }).click();
  await rowsOf(page).first().waitFor();
  for (const q of ["Hóa học", "hoa hoc"]) {
    await page.fill("#course-search", q);
    await page.locator("main table tbody tr td:nth-child(1)").first().filter({ hasText: /^Hóa học 10/ }).waitFor();
  }
  await screenOk(t, "courses (searched)");
  await page.fill("#course-search", "");
});

// ---------------------------------------------------------------- 15 long names
item("15 a 300-character name without spaces does not widen any screen", async (t) => {
  const { page } = t;
  await page.getByRole("link", { name: "Tài khoản", exact: true }).click();
  const row = rowsOf(page).filter({ hasText: t.longName.slice(0, 40) }).first();
  await row.waitFor();
  const width = await page.locator("main table").first().evaluate((e) => e.getBoundingClientRect().width);
  assert.ok(width <= page.viewportSize().width, `table ${width} px`);
  if (page.viewportSize().width > 640) {
    // On a laptop the long name wraps in its own column: the other columns keep room for their
    // text (an e-mail on one or two lines, a username and a date on one), not a letter a line.
    const cells = await row.locator("td").evaluateAll((tds) => tds.map((td) => ({ w: td.getBoundingClientRect().width, text: td.innerText })));
    const [, , username, email, created] = cells;
    assert.ok(email.w >= 160, `the e-mail column ${Math.round(email.w)} px beside a long name (${email.text})`);
    assert.ok(username.w >= 90 && created.w >= 80, `username ${Math.round(username.w)} px, created ${Math.round(created.w)} px`);
  }
  await screenOk(t, "accounts (a long name)");
  await row.locator("a").click();
  await page.getByRole("heading", { name: "Hồ sơ" }).waitFor();
  await screenOk(t, "account detail (a long name)");
  await page.getByRole("link", { name: /Quay lại danh sách/ }).click();
  await rowsOf(page).first().waitFor();
});

// ---------------------------------------------------------------- 11 accounts: sorting, total, pager
item("11 the list says sorting is per page, has a pager above and below, 'next' shows the new page from its top", async (t) => {
  const { page } = t;
  await page.getByText("Sắp xếp theo cột chỉ áp dụng cho 100 tài khoản của trang này.").waitFor();
  assert.equal(await page.locator("nav.pager").count(), 2);
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.locator("nav.pager").last().getByRole("button", { name: "Trang sau" }).click();
  await page.locator("#page-range", { hasText: "101–200" }).waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.id), "page-range");
  const top = await page.locator("#page-range").evaluate((e) => e.getBoundingClientRect().top);
  assert.ok(top >= 0 && top < page.viewportSize().height, `the new page's first line at ${top} px`);
  await page.locator("nav.pager").first().getByRole("button", { name: "Trang trước" }).click();
  await page.locator("#page-range", { hasText: "1–100" }).waitFor();
});

// ---------------------------------------------------------------- 12 search by name over the accounts read
item("12 the platform's search is explained; every account is read into IndexedDB with its age; a part of a name finds it", async (t) => {
  const { page } = t;
  await page.fill("#acc-search", "khong-co-ai-ten-nay");
  await page.getByRole("button", { name: "Tìm", exact: true }).click();
  await page.getByText(/Nền tảng chỉ tìm theo e-mail hoặc tên đăng nhập đầy đủ/).waitFor();
  await page.getByRole("button", { name: "Xoá tìm kiếm" }).click();
  const total = (await t.emu.control("GET", "state")).accounts;
  await page.getByRole("button", { name: "Đọc mọi tài khoản" }).click();
  await page.locator("#cache-age", { hasText: `${total} tài khoản, đọc lúc` }).waitFor();
  await page.locator("#page-range", { hasText: `trên tổng số ${total}` }).waitFor();
  // A seeded name, searched by its last two words without accents.
  const name = (await page.locator("main table tbody tr td:nth-child(2)").nth(3).innerText()).trim();
  const part = name.split(" ").slice(-2).join(" ").normalize("NFD").replace(/\p{Mn}/gu, "").replace(/đ/g, "d").replace(/Đ/g, "D").toLowerCase();
  await page.fill("#name-search", part);
  await page.locator(".name-results a", { hasText: name }).first().waitFor();
  await screenOk(t, "accounts (name search)");
  const stored = await page.evaluate(() => new Promise((r) => {
    const req = indexedDB.open("lpm-dashboard");
    req.onsuccess = () => { req.result.transaction("accounts").objectStore("accounts").count().onsuccess = (e) => r(e.target.result); };
  }));
  assert.equal(stored, 1);
  await page.fill("#name-search", "");
});

// ---------------------------------------------------------------- 5 log in as: the learners' site
item("5 'log in as' opens the learners' site of config.json, which signs in once with the token", async (t) => {
  const { page, context } = t;
  // walk 8: opened with Enter on the name's link, the detail takes the focus on its heading.
  const link = rowsOf(page).nth(2).locator("a");
  await link.focus();
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.activeElement?.matches("main h1"));
  const name = (await page.locator("main h1").innerText()).trim();
  assert.equal(name, (await page.evaluate(() => document.activeElement.textContent)).trim());
  const [tab] = await Promise.all([context.waitForEvent("page"), page.getByRole("button", { name: /Đăng nhập vào trang bằng tài khoản này/ }).click()]);
  await tab.waitForURL((u) => u.pathname === "/learner" && u.searchParams.has("login_token"));
  assert.equal(new URL(tab.url()).origin, new URL(t.emu.url).origin);
  await tab.locator("#signed-in", { hasText: name }).waitFor();
  // walk 11: the demo learner page declares its icon (inline), so no /favicon.ico 404.
  assert.match(await tab.locator("link[rel=icon]").getAttribute("href"), /^data:image\/svg\+xml,/);
  await tab.reload();
  await tab.locator("#refused").waitFor();
  await tab.close();
  await screenOk(t, "account detail");
  await page.getByRole("link", { name: /Quay lại danh sách/ }).click();
  await rowsOf(page).first().waitFor();
});

// ---------------------------------------------------------------- 16 plurals
item("16 English counts agree with their number (1 account, 2 accounts)", async (t) => {
  const { page } = t;
  await page.getByRole("button", { name: "Switch to English" }).click();
  await rowsOf(page).first().locator("input[type=checkbox]").check();
  await page.locator(".picked", { hasText: /^1 account selected/ }).waitFor();
  await rowsOf(page).nth(1).locator("input[type=checkbox]").check();
  await page.locator(".picked", { hasText: /^2 accounts selected/ }).waitFor();
  await rowsOf(page).first().locator("input[type=checkbox]").uncheck();
  await rowsOf(page).nth(1).locator("input[type=checkbox]").uncheck();
  await page.getByRole("button", { name: "Chuyển sang tiếng Việt" }).click();
});

const bulkRows = (rows) => `Họ tên\tTên đăng nhập\tE-mail\tMật khẩu\n${rows.map((r) => r.join("\t")).join("\n")}`;
async function paste(page, text) {
  await openBulkEditor(page);
  await page.fill("#paste", text);
  await page.getByRole("button", { name: "Đọc dữ liệu đã dán" }).click();
}

// ---------------------------------------------------------------- walk 2: duplicates counted per row
item("walk 2 a row repeating an earlier row's e-mail and username counts as one duplicate", async (t) => {
  const { page } = t;
  const st = t.stamp;
  await paste(page, bulkRows([
    ["Trùng Một", `tr1${st}`, `tr1.${st}@truong.vn`, "matkhau1"],
    ["Trùng Hai", `tr2${st}`, `tr2.${st}@truong.vn`, "matkhau2"],
    ["Trùng Ba", `tr1${st}`, `tr1.${st}@truong.vn`, "matkhau3"],
  ]));
  await page.locator("#rows-summary", { hasText: "3 dòng · 1 dòng có lỗi · 0 dòng bỏ ra · 1 dòng trùng lặp" }).waitFor();
  await page.getByRole("button", { name: "Switch to English" }).click();
  await page.locator("#rows-summary", { hasText: "3 rows · 1 with errors · 0 left out · 1 duplicate row" }).waitFor();
  await page.getByRole("button", { name: "Chuyển sang tiếng Việt" }).click();
  // Each repeated cell names the line it repeats (the pasted line: the header is line 1).
  assert.match(await page.locator("table.edit tbody tr").nth(2).innerText(), /Trùng với dòng 2/);
  await screenOk(t, "bulk create (a duplicate row)");
});

item("walk 5 every column of the editor shows its cell's text: a long e-mail and name fit, at a laptop's width", async (t) => {
  const { page } = t;
  const st = t.stamp;
  const header = ["Họ tên", "Tên đăng nhập", "E-mail", "Mật khẩu", "Điện thoại", "Tỉnh/Thành", "Quận/Huyện", "Địa chỉ", "Giới tính", "Nghề nghiệp"];
  await paste(page, `${header.join("\t")}\nNguyễn Thị Phương Thảo\tthao${st}\tthao.ng.${st}@truong.edu.vn\tmatkhau1\t0901000001\tThành phố Hồ Chí Minh\tQuận Bình Thạnh\t12 Nguyễn Hữu Cảnh\tNữ\tGiáo viên`);
  const row = page.locator("table.edit tbody tr").first();
  await row.waitFor();
  for (const label of ["Họ tên", "E-mail"]) {
    const input = row.getByRole("textbox", { name: new RegExp(`^${label}, dòng`) });
    const { client, scroll } = await input.evaluate((e) => ({ client: e.clientWidth, scroll: e.scrollWidth }));
    assert.ok(scroll <= client, `${label}: ${scroll} px of text in ${client} px`);
  }
  if (page.viewportSize().width <= 640) {
    // The narrowest phones too: each card fits its frame, which does not scroll sideways.
    const size = page.viewportSize();
    await page.setViewportSize({ width: 320, height: size.height });
    try {
      const frame = await page.locator("table.edit").evaluate((e) => ({ scroll: e.parentElement.scrollWidth, client: e.parentElement.clientWidth }));
      assert.ok(frame.scroll <= frame.client, `the editor at 320 px: ${frame.scroll} px in a ${frame.client} px frame`);
    } finally {
      await page.setViewportSize(size);
    }
  }
  await screenOk(t, "bulk create (every column)");
});

item("walk 4 a renamed file that is no workbook is refused in the screen's language only, and follows a switch", async (t) => {
  const { page } = t;
  await page.setInputFiles("#csv-file", { name: "fake.xlsx", mimeType: "application/octet-stream", buffer: Buffer.from("Họ tên,E-mail\nAn,an@x.vn\n") });
  const box = page.locator("main .error", { hasText: "Không đọc được fake.xlsx: không phải sổ làm việc .xlsx (không phải tệp zip: có thể là một tệp loại khác bị đổi tên)" });
  await box.waitFor();
  assert.doesNotMatch(await box.innerText(), /not a zip|renamed|another kind/);
  // The refusal on screen is worded again in the language chosen, not read again.
  await page.getByRole("button", { name: "Switch to English" }).click();
  await page.locator("main .error", { hasText: "Cannot read fake.xlsx: not an .xlsx workbook (not a zip file: a file of another kind renamed?)" }).waitFor();
  await page.getByRole("button", { name: "Chuyển sang tiếng Việt" }).click();
  await box.waitFor();
  await page.locator("#csv-file").setInputFiles([]);
  await screenOk(t, "bulk create (a renamed file refused)");
});

item("7 a bulk create from elsewhere inside the interval stops Create once and is told; a lone account and this browser's own are not", async (t) => {
  // A page of this browser with the contract's 10-minute interval (this walk's sites use seconds,
  // which a note would outlive by less than a page takes to read a sheet).
  const page = await t.context.newPage();
  page.setDefaultTimeout(10_000);
  await page.route("**/config.json", (r) => r.fulfill({ contentType: "application/json", body: JSON.stringify({ createIntervalMs: 600_000 }) }));
  const st = t.stamp;
  const elsewhere = async (users) => assert.equal((await createByApi(t.emu.url, users)).status, 200);
  const user = (k) => ({ name: `Người Khác ${k}`, username: `khac${k}${st}`, email: `khac${k}.${st}@truong.vn`, password: "matkhau0" });
  try {
    await signIn(page, t.emu.url);
    // A learner signing up: one account, no note (more than 10 s after the long name's, made
    // when the day began: two accounts within 10 s read as a bulk create).
    const sinceDay = Date.now() - parseInt(st, 36);
    if (sinceDay < 11_000) await page.waitForTimeout(11_000 - sinceDay);
    await elsewhere([user("a")]);
    await paste(page, bulkRows([["Chờ Một", `cho1${st}`, `cho1.${st}@truong.vn`, "matkhau1"]]));
    await page.locator("#rows-summary").waitFor();
    await page.waitForTimeout(500);
    const note = page.locator("#recent-elsewhere");
    assert.equal(await note.count(), 0, "no note for a lone account");
    // A colleague's bulk create after the sheet was read: Create reads the platform again, tells
    // it, and sends nothing; the next press goes ahead.
    await elsewhere([user("b"), user("c")]);
    const calls = async () => (await t.emu.control("GET", "create-calls")).calls.length;
    const before = await calls();
    await page.getByRole("button", { name: "Tạo 1 tài khoản" }).click();
    await note.waitFor();
    assert.match(await note.innerText(), /^Nền tảng vừa có nhiều tài khoản được tạo cùng lúc, lúc [\d:]+, không phải từ trình duyệt này.*hãy chờ đến \d\d:\d\d/);
    await page.waitForFunction(() => document.activeElement?.id === "recent-elsewhere");
    assert.equal(await calls(), before, "nothing sent on the first press");
    await page.getByRole("button", { name: "Switch to English" }).click();
    await page.locator("#recent-elsewhere", { hasText: /^Several accounts were created together on the platform at .*not from this browser/ }).waitFor();
    await page.getByRole("button", { name: "Chuyển sang tiếng Việt" }).click();
    await screenOk({ ...t, page }, "bulk create (a create from elsewhere)");
    await page.getByRole("button", { name: "Tạo 1 tài khoản" }).click();
    await page.locator(".done", { hasText: "1 tạo được" }).waitFor({ timeout: 15_000 });
    // This browser's own create is the newest now: no note for it.
    await paste(page, bulkRows([["Chờ Hai", `cho2${st}`, `cho2.${st}@truong.vn`, "matkhau2"]]));
    await page.locator(".countdown", { hasText: "Lần tạo hàng loạt tiếp theo được phép sau" }).waitFor();
    await page.waitForTimeout(500);
    assert.equal(await note.count(), 0);
  } finally {
    await page.close();
  }
});

// ---------------------------------------------------------------- 8, 9, 13, 14 in one import
item("8 the platform's rules block by default, warnings are grouped with a count, 'send anyway' is explicit", async (t) => {
  const { page } = t;
  // A second tab for 27.1 below, signed in now (the waits there are short).
  t.other = await t.context.newPage();
  t.other.setDefaultTimeout(10_000);
  await signIn(t.other, t.emu.url);
  const st = t.stamp;
  t.sheet = [
    ["Nguyễn Văn An", `an${st}`, `an.${st}@truong.vn`, "matkhau1"],
    ["Trần Bình", `binh${st}`, `binh.${st}@truong.vn`, "123"],
    ["Lê Thị Cúc", `cuc${st}`, "admin@demo.lpm.test", "matkhau3"],
    ["Phạm Dũng", `dung${st}`, `dung.${st}@truong.vn`, "123"],
    ["Hồ Yến", `yen${st}`, `yen.${st}@truong.vn`, "123"],
    ["Võ Mai", `mai${st}`, `mai.${st}@truong.vn`, "matkhau6"],
  ];
  await paste(page, bulkRows(t.sheet));
  await page.locator("table.edit tbody tr").nth(5).waitFor();
  const groups = page.locator(".issue-groups li");
  assert.equal(await groups.count(), 1, await page.locator(".issue-groups").innerText());
  // Rows are named by their pasted line (the header is line 1), as in the table's only number column.
  assert.match(await groups.first().innerText(), /^3 dòng: .*\(Dòng 3, 5, 6\)/s);
  assert.deepEqual(await page.locator("table.edit thead th").first().innerText(), "Dòng trong bảng");
  assert.deepEqual((await page.locator("table.edit tbody tr td:first-child").allInnerTexts()).map((x) => x.trim()), ["2", "3", "4", "5", "6", "7"]);
  await page.getByLabel("Mật khẩu, dòng 3").waitFor();
  const create = page.getByRole("button", { name: /^Tạo \d+ tài khoản$/ });
  assert.equal(await create.isDisabled(), true, "blocked by default");
  await page.getByLabel(/Vẫn gửi các dòng chỉ vi phạm quy định/).check();
  assert.equal(await create.isDisabled(), false, "sent anyway once asked");
  await page.getByLabel(/Vẫn gửi các dòng chỉ vi phạm quy định/).uncheck();
  await screenOk(t, "bulk create (editing, grouped warnings)");
});
item("14 focus stays on the page after 'leave out' and after create", async (t) => {
  const { page } = t;
  await page.getByRole("button", { name: "Bỏ ra các dòng có lỗi" }).click();
  await page.locator("#rows-summary", { hasText: "3 dòng bỏ ra" }).waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.id), "rows-summary");
  await page.getByRole("button", { name: "Tạo 3 tài khoản" }).click();
  await page.waitForFunction(() => ["run-status"].includes(document.activeElement?.id) || document.activeElement?.classList.contains("done"));
  await page.locator(".done").waitFor({ timeout: 15_000 });
  assert.equal(await page.evaluate(() => document.activeElement?.className), "done");
  // walk 7: the done line counts the rows left out too.
  assert.equal(await page.locator(".done").innerText(), "Hoàn tất: 2 tạo được, 1 lỗi, 3 dòng bỏ ra (không gửi).");
});
item("9 results and the failed rows' download keep the sheet's row numbers (the pasted lines), a username column and the rows left out", async (t) => {
  const { page } = t;
  const rows = page.locator("table.results tbody tr");
  assert.equal(await rows.count(), 6);
  const cells = async (i) => (await rows.nth(i).locator("td").allInnerTexts()).map((x) => x.trim());
  assert.deepEqual((await cells(0)).slice(0, 3), ["2", "Nguyễn Văn An", `an${t.stamp}`]);
  assert.match((await cells(0))[4], /Đã tạo/);
  assert.deepEqual((await cells(1)).slice(0, 1), ["3"]);
  const [csv] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Tải CSV các dòng lỗi" }).click()]);
  const [header, ...lines] = readFileSync(await csv.path(), "utf8").replace(/^\uFEFF/, "").trim().split(/\r?\n/);
  // walk 5: the sheet's own headers, the dashboard's columns in the screen's language.
  assert.equal(header, "Dòng trong bảng,Họ tên,Tên đăng nhập,E-mail,Mật khẩu,Kết quả");
  assert.deepEqual(lines.map((l) => l.split(",")[0]), ["3", "4", "5", "6"], lines.join(" | "));
  assert.match((await cells(1))[4], /Đã bỏ ra, không gửi/);
  assert.match((await cells(5))[4], /Đã tạo/);
  await screenOk(t, "bulk create (results)");
});
item("13 the platform's statuses are told in the screen's language", async (t) => {
  const { page } = t;
  assert.match(await page.locator("table.results tbody tr").nth(2).innerText(), /Lỗi: E-mail đã được dùng cho tài khoản khác/);
  await page.getByRole("button", { name: "Switch to English" }).click();
  assert.match(await page.locator("table.results tbody tr").nth(2).innerText(), /Failed: The e-mail is already in use/);
  await page.getByRole("button", { name: "Chuyển sang tiếng Việt" }).click();
});

// ---------------------------------------------------------------- 2, 7, 27.1 waits while running; one runner
item("2 a wait before the first chunk shows the countdown, the expected end, and each row's result while it runs; 7 the interval is per browser; 27.1 a second tab is refused", async (t) => {
  const { page, other } = t;
  const st = t.stamp;
  const rows = Array.from({ length: 101 }, (_, i) => [`Học viên ${i}`, `hv${st}${i}`, `hv${i}.${st}@truong.vn`, `matkhau${i}`]);
  await paste(page, bulkRows(rows));
  await page.locator("table.edit tbody tr").nth(100).waitFor();
  // A create in the other tab: the interval (shared by the browser's tabs) is counted down here,
  // and this tab's import waits before its first chunk.
  await paste(other, bulkRows([["Khách Một", `mot${st}`, `mot.${st}@truong.vn`, "matkhau1"]]));
  await other.getByRole("button", { name: "Tạo 1 tài khoản" }).click();
  await other.locator(".done", { hasText: "1 tạo được" }).waitFor({ timeout: 15_000 });
  await page.locator(".countdown", { hasText: "Lần tạo hàng loạt tiếp theo được phép sau" }).waitFor();
  await page.locator(".countdown", { hasText: "chỉ tính các lượt tạo từ trình duyệt này" }).waitFor();
  await page.locator(".expected-end", { hasText: /Dự kiến xong lúc/ }).waitFor();
  const calls0 = (await t.emu.control("GET", "create-calls")).calls.length;
  // The page itself notes the moment the wait before the first chunk shows: a countdown and an
  // expected end with every row listed and still waiting. Read once the run is under way, it
  // cannot be mistaken for the wait before the second chunk, as a look at one instant could.
  await page.evaluate(() => {
    const seen = () => {
      const rows = [...document.querySelectorAll("table.results tbody tr")];
      const waiting = document.querySelector(".countdown")?.textContent.includes("Đợt tiếp theo được gửi sau")
        && /Dự kiến xong lúc/.test(document.querySelector(".expected-end")?.textContent ?? "")
        && rows.length === 101 && rows.every((r) => r.textContent.includes("Chờ gửi"));
      if (waiting) window.firstWaitSeen = true;
    };
    new MutationObserver(seen).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await page.getByRole("button", { name: "Tạo 101 tài khoản" }).click();
  await page.locator("#run-status").waitFor();
  await page.waitForFunction(() => window.firstWaitSeen === true || document.querySelector("#run-status")?.textContent.includes("100/101"));
  assert.equal(await page.evaluate(() => window.firstWaitSeen), true, "a countdown and an expected end before the first chunk, every row listed and waiting");
  // The first chunk's results while the second waits; paused there, the resume note counts down too.
  await page.locator("#run-status", { hasText: "100/101" }).waitFor({ timeout: 15_000 });
  await page.getByRole("button", { name: "Tạm dừng" }).click();
  await page.locator(".note", { hasText: "100/101" }).waitFor();
  // walk 8: focus on the note that says it is paused.
  await page.waitForFunction(() => document.activeElement?.id === "resume-note");
  // walk 6: a pause on this page is told as a pause, with how to go on (not as a job found unfinished).
  assert.match(await page.locator(".note p[role=status]").innerText(), /^Đã tạm dừng \(100\/101 dòng\)\. Bấm Tiếp tục/);
  await page.locator(".note .expected-end", { hasText: /Dự kiến xong lúc/ }).waitFor();
  assert.match(await page.locator("table.results tbody tr").first().innerText(), /Đã tạo/);
  // Not sent because of the pause, said in the screen's language (walk 4: not the engine's English).
  assert.match(await page.locator("table.results tbody tr").last().innerText(), /Chưa gửi \(lượt tạo đã dừng\)/);
  await screenOk(t, "bulk create (paused)");
  // Resumed, with the last chunk's answer held back 4 s (the running screen holds still for axe):
  // meanwhile the other tab tries to start an import, and is refused and told why.
  await paste(other, bulkRows([["Khách Hai", `hai${st}`, `hai.${st}@truong.vn`, "matkhau2"]]));
  await t.emu.control("POST", "faults", { endpoint: "create-multi-user", kind: "delay", delayMs: 4000 });
  await page.getByRole("button", { name: "Tiếp tục" }).click();
  await page.locator("#run-status").waitFor();
  await other.getByRole("button", { name: "Tạo 1 tài khoản" }).click();
  await other.locator(".error", { hasText: "Lượt tạo đang chạy ở một thẻ khác của trình duyệt này" }).waitFor();
  await axe(other, `${t.vp}: the second tab, refused`);
  await screenOk(t, "bulk create (running)");
  await page.locator(".done", { hasText: "101 tạo được, 0 lỗi" }).waitFor({ timeout: 15_000 });
  assert.equal(await page.locator(".done").innerText(), "Hoàn tất: 101 tạo được, 0 lỗi.", "no rows left out: not said");
  // Once the first tab let go, the second one is told.
  await other.locator(".error", { hasText: "Lượt tạo đang chạy" }).waitFor({ state: "detached" });
  await other.close();
  const log = await t.emu.control("GET", "create-calls");
  assert.deepEqual(log.calls.slice(calls0).map((c) => c.items), [100, 1]);
});

// ---------------------------------------------------------------- 17 overview
item("17 the overview charts accounts per week and enrolments per course from the accounts read, with their age", async (t) => {
  const { page } = t;
  await page.getByRole("link", { name: "Tổng quan", exact: true }).click();
  // Read before the creates above: read again as the overview opens (walk.mjs, issue 38 item 5).
  await page.locator("#overview-age", { hasText: /tài khoản, đọc lúc/ }).filter({ hasNotText: "Đã có thay đổi" }).waitFor();
  await page.locator("#chart-weeks canvas").waitFor();
  await page.locator("#chart-courses canvas").waitFor();
  // This week's bar counts the accounts the checks above created.
  const weekRows = await page.locator("#h-weeks ~ details tbody tr td:nth-child(2)").evaluateAll((tds) => tds.map((td) => td.textContent.trim()));
  assert.equal(weekRows.length, 12);
  assert.ok(Number(weekRows.at(-1)) >= 100, weekRows.join());
  // The figures agree with the emulator's records.
  const { records } = await t.emu.control("GET", "state?records=1");
  const enrolled = new Map();
  const finished = new Map();
  for (const u of records.users) for (const c of u.myCourses ?? []) {
    enrolled.set(c.courseId, (enrolled.get(c.courseId) ?? 0) + 1);
    if (c.finish) finished.set(c.courseId, (finished.get(c.courseId) ?? 0) + 1);
  }
  const rows = await page.locator("table.course-stats tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((td) => td.innerText.trim())));
  assert.equal(rows.length, records.courses.length);
  const sum = (i) => rows.reduce((n, r) => n + Number(r[i]), 0);
  assert.equal(sum(2), [...enrolled.values()].reduce((a, b) => a + b, 0));
  assert.equal(sum(3), [...finished.values()].reduce((a, b) => a + b, 0));
  const nobody = records.courses.filter((c) => !finished.get(c._id)).length;
  await page.getByRole("heading", { name: `Khoá học chưa ai hoàn thành (${nobody})` }).waitFor();
  await screenOk(t, "overview");
});

// ---------------------------------------------------------------- 6 phones
item("6 no screen scrolls sideways", async (t) => {
  const { page } = t;
  for (const [link, ready] of [["Tài khoản", "main table tbody tr"], ["Khoá học", "main table tbody tr"], ["Cấp khoá học", ".course-picks li"], ["Tạo hàng loạt", "main h1"]]) {
    await page.getByRole("link", { name: link, exact: true }).click();
    await page.locator(ready).first().waitFor();
    await screenOk(t, link);
  }
});

// ---------------------------------------------------------------- 12 forgotten at sign-out
item("12 signing out forgets the accounts read (IndexedDB)", async (t) => {
  const { page } = t;
  await page.getByRole("button", { name: "Đăng xuất" }).click();
  await page.locator(".note", { hasText: "Bạn đã đăng xuất" }).waitFor();
  // walk 8: focus on the line that says why the sign-in screen is back.
  await page.waitForFunction(() => document.activeElement?.id === "signin-note");
  const count = () => page.evaluate(() => new Promise((r) => {
    const req = indexedDB.open("lpm-dashboard");
    req.onsuccess = () => { req.result.transaction("accounts").objectStore("accounts").count().onsuccess = (e) => r(e.target.result); };
  }));
  for (let i = 0; i < 20 && (await count()) > 0; i++) await page.waitForTimeout(100);
  assert.equal(await count(), 0);
});

try {
  for (const { name: vp, ...size } of VIEWPORTS) {
    const { emu, cleanup } = await serveSite(
      { createIntervalMs: INTERVAL_SECS * 1000, retryDelayMs: 300, siteUrl: "/learner" },
      ["--create-interval-secs", String(INTERVAL_SECS)],
    );
    const context = await browser.newContext({ ...size, acceptDownloads: true });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const pageErrors = [];
    page.on("pageerror", (e) => pageErrors.push(e.message));
    // What the CSP refused, but for the inline script item 18 injects on purpose.
    const cspViolations = [];
    page.on("console", (m) => /Content Security Policy/.test(m.text()) && !/inline script/.test(m.text()) && cspViolations.push(m.text().slice(0, 160)));
    const failedRequests = [];
    page.on("response", (r) => r.status() >= 400 && !r.url().includes("/manage/api/") && failedRequests.push(`${r.status()} ${r.url()}`));
    state.page = page;
    const stamp = Date.now().toString(36);
    // A hostile name: 300 characters without a space (created before the dashboard creates anything).
    const longName = `Nguyễn${"Văn".repeat(98)}`.slice(0, 300);
    await createByApi(emu.url, [{ name: longName, username: `long${stamp}`, email: `long.${stamp}@truong.vn`, password: "matkhau0" }]);
    const t = { page, context, emu, vp, browser, stamp, longName, failedRequests };
    try {
      const res = await page.goto(`${emu.url}/`);
      t.csp = res.headers()["content-security-policy"];
      await page.waitForSelector("#email");
      for (const { name, fn } of before) await state.check(`[${vp}] ${name}`, () => fn(t));
      if (!(await page.locator("main table tbody tr").count())) await signIn(page, emu.url);
      for (const { name, fn } of items) await state.check(`[${vp}] ${name}`, () => fn(t));
      await state.check(`[${vp}] no uncaught error in the page`, () => assert.deepEqual(pageErrors, []));
      await state.check(`[${vp}] 18 nothing of the app was refused by the CSP (scripts, styles, wasm)`, () => assert.deepEqual(cspViolations, []));
    } finally {
      await context.close();
      await cleanup();
    }
  }
} finally {
  await browser.close();
}
console.log(`screenshots: ${path.relative(process.cwd(), shots)}/`);
console.log(`${state.passed} passed, ${state.failed} failed (${((Date.now() - started) / 1000).toFixed(0)} s)`);
process.exit(state.failed ? 1 : 0);
