// The dashboard's bulk screen reads the shared table of sheets (tests/sheets/table.mjs, which the
// command line's tests read too) through its file picker: each case gives the same rows with
// the same sheet lines and fields, the same rows set aside, or the same refusal. Then the failed
// rows download as CSV with formula-like cells neutralised and as .xlsx with every text a text.
// Run by check.sh after run.mjs, on the dashboard it built; prints one line per check.
import assert from "node:assert/strict";
import { closeSync, cpSync, ftruncateSync, mkdtempSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startEmulator, DEMO } from "../js/emulator.mjs";
import { checker, launch } from "./lib.mjs";
import { sheetCases } from "../sheets/table.mjs";
import { readTable } from "../../sheets/src/index.js";
import { message } from "../../sheets/src/messages.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const site = mkdtempSync(path.join(tmpdir(), "lpm-www-sheets-"));
cpSync(path.join(root, "www/dist"), site, { recursive: true });
writeFileSync(path.join(site, "config.json"), JSON.stringify({ createIntervalMs: 1000, retryDelayMs: 300 }));

/** The labels of the bulk screen's cells (i18n.ts, Vietnamese), by field. */
const LABEL = { name: "Họ tên", username: "Tên đăng nhập", email: "E-mail", password: "Mật khẩu", phone: "Điện thoại", city: "Tỉnh/Thành", job: "Nghề nghiệp" };
/** What the Vietnamese message of each refusal says, whatever its parameters. */
const SAYS = {
  notXlsx: "không phải sổ làm việc .xlsx",
  encrypted: message("encrypted", {}, "vi"),
  legacyXls: message("legacyXls", {}, "vi"),
  notUtf8: message("notUtf8", {}, "vi"),
  empty: message("empty", {}, "vi"),
  badQuote: message("badQuote", { line: 2 }, "vi"),
};

const state = checker();
const { check } = state;
let page;

const started = Date.now();
const emu = await startEmulator(["--static", site, "--create-interval-secs", "1"]);
const browser = await launch();
try {
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 860 } });
  page = state.page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const pageErrors = [];
  page.on("pageerror", (e) => pageErrors.push(e.message));
  await page.goto(`${emu.url}/`);
  await page.getByLabel("Dán token").check();
  await page.fill("#token", DEMO.adminToken);
  await page.click("button[type=submit]");
  await page.getByRole("heading", { name: "Tài khoản" }).waitFor();
  await page.evaluate(() => (location.hash = "#/bulk"));
  await page.locator("#csv-file").waitFor();

  for (const c of await sheetCases()) {
    await check(`sheets table, dashboard: ${c.name}`, async () => {
      // Each case from a clean screen: a refusal clears the table, a table clears the refusal.
      await page.setInputFiles("#csv-file", { name: c.file, mimeType: "application/octet-stream", buffer: Buffer.from(c.bytes) });
      if (c.error && SAYS[c.error]) {
        // The refusal of this file, not the last case's still on screen (they may say the same).
        const box = page.locator("main .error", { hasText: `Không đọc được ${c.file}:` });
        await box.waitFor();
        assert.match(await box.innerText(), new RegExp(SAYS[c.error].replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
        assert.equal(await page.locator("table.edit").count(), 0);
        return;
      }
      if (c.error) {
        // A header without a required column, or two columns for one field: the screen reads
        // the rows and asks for the mapping (its own way of saying it), creation blocked.
        // (the last case's screen was cleared when this file was chosen).
        await page.locator(".mapping .warning").waitFor();
        return;
      }
      await page.locator("p.hint", { hasText: `Đã đọc ${c.file}:` }).waitFor();
      await page.locator(`table.edit tbody tr:nth-child(${c.rows.length})`).waitFor();
      const rows = await page.locator("table.edit tbody tr").evaluateAll((trs) => trs.map((tr) => ({
        line: Number(tr.getAttribute("data-line")),
        problem: tr.querySelector(".sheet-problem")?.textContent ?? null,
        cells: Object.fromEntries([...tr.querySelectorAll("input[type=text]")].map((i) => [i.getAttribute("aria-label").split(", dòng")[0], i.value])),
      })));
      assert.equal(rows.length, c.rows.length, JSON.stringify(rows));
      c.rows.forEach((want, i) => {
        assert.equal(rows[i].line, want.line, `row ${i + 1}'s line`);
        if (want.problem) {
          assert.ok(rows[i].problem, `row ${i + 1} set aside`);
          return;
        }
        assert.equal(rows[i].problem, null, `row ${i + 1}: ${rows[i].problem}`);
        for (const [field, value] of Object.entries(want.user)) assert.equal(rows[i].cells[LABEL[field]], value, `row ${i + 1}'s ${field}`);
      });
    });
    // The file picker fires again for the next case only when the file differs: clear it.
    await page.locator("#csv-file").setInputFiles([]);
  }

  await check("a set-aside row's problem, two columns for one field and the sheet's delimiter follow a language switch", async () => {
    const cases = await sheetCases();
    const errors = cases.find((c) => c.file === "errors.xlsx");
    await page.setInputFiles("#csv-file", { name: errors.file, mimeType: "application/octet-stream", buffer: Buffer.from(errors.bytes) });
    const problem = page.locator("table.edit .sheet-problem").first();
    await problem.waitFor();
    const vi = await problem.innerText();
    assert.match(vi, /^ô \S+ hiển thị lỗi #REF!/);
    await page.getByRole("button", { name: "Switch to English" }).click();
    await page.locator("table.edit .sheet-problem", { hasText: /^cell \S+ shows the error #REF!/ }).first().waitFor();
    await page.locator("#csv-file").setInputFiles([]);
    // Two columns for one field, tab-separated: the warning and the delimiter in English, then Vietnamese.
    await page.setInputFiles("#csv-file", { name: "twice.tsv.csv", mimeType: "text/csv", buffer: Buffer.from("Name\tHọ tên\tUsername\tEmail\tPassword\nAn Bình\tAn\tanbinh\tan@x.vn\tsecret-1\n") });
    await page.locator(".mapping .warning", { hasText: 'columns "Name" and "Họ tên" both stand for Name' }).waitFor();
    await page.locator("p.hint", { hasText: "Read twice.tsv.csv: CSV (tab)" }).waitFor();
    await page.getByRole("button", { name: "Chuyển sang tiếng Việt" }).click();
    await page.locator(".mapping .warning", { hasText: 'hai cột "Name" và "Họ tên" cùng chỉ Họ tên' }).waitFor();
    await page.locator("p.hint", { hasText: "Đã đọc twice.tsv.csv: CSV (dấu tab)" }).waitFor();
    await page.locator("#csv-file").setInputFiles([]);
  });

  await check("a file over 32 MiB is refused before it is read", async () => {
    // A sparse file on disk: the browser is handed its path, not its bytes.
    const big = path.join(site, "big.xlsx");
    const fd = openSync(big, "w");
    ftruncateSync(fd, 33 * 2 ** 20);
    closeSync(fd);
    await page.setInputFiles("#csv-file", big);
    await page.locator("main .error", { hasText: "tệp quá lớn: 33 MiB (tối đa 32 MiB)" }).waitFor();
  });
  await page.locator("#csv-file").setInputFiles([]);

  await check("bulk: the failed rows download as CSV with =, +, -, @ cells neutralised, and as .xlsx, text as text", async () => {
    const stamp = Date.now().toString(36);
    await page.fill("#paste", `Họ tên\tTên đăng nhập\tEmail\tMật khẩu\tSố điện thoại\n=HYPERLINK("http://x.test";"go")\tf${stamp}\t${DEMO.adminEmail}\tmatkhau1\t0901000001\nAn Bình\tb${stamp}\tb.${stamp}@truong.vn\tmatkhau2\t`);
    await page.getByRole("button", { name: "Đọc dữ liệu đã dán" }).click();
    await page.getByRole("button", { name: "Tạo 2 tài khoản" }).click();
    await page.locator(".done").waitFor({ timeout: 20_000 });
    const [csv] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Tải CSV các dòng lỗi" }).click()]);
    const body = readFileSync(await csv.path(), "utf8");
    assert.match(body, /^\d+,"'=HYPERLINK\(""http:\/\/x\.test"";""go""\)",/m);
    assert.match(body, /,0901000001,/);
    const [xlsx] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Tải Excel các dòng lỗi" }).click()]);
    assert.equal(xlsx.suggestedFilename(), "failed-rows.xlsx");
    const table = await readTable(new Uint8Array(readFileSync(await xlsx.path())), { name: "failed-rows.xlsx" });
    assert.equal(table.records.length, 2);
    assert.equal(table.records[1].cells[1], '=HYPERLINK("http://x.test";"go")');
    assert.equal(table.records[1].cells[5], "0901000001");
    // The platform's status in the screen's language (www/src/server-texts.ts).
    assert.match(table.records[1].cells.at(-1), /E-mail đã được dùng cho tài khoản khác/);
  });
  await check("bulk: passwords generated for rows without one, downloaded as .xlsx with a warning", async () => {
    await page.getByRole("button", { name: "Lượt tạo mới" }).click();
    const stamp = Date.now().toString(36);
    await page.fill("#paste", `Họ tên\tTên đăng nhập\tEmail\tMật khẩu\nHọc Viên Một\tg${stamp}a\tg.${stamp}a@truong.vn\t\nHọc Viên Hai\tg${stamp}b\tg.${stamp}b@truong.vn\tco-san-roi`);
    await page.getByRole("button", { name: "Đọc dữ liệu đã dán" }).click();
    await page.getByRole("button", { name: "Tạo mật khẩu cho các dòng chưa có" }).click();
    await page.getByText(/^1 mật khẩu đã được tạo\. Ai đọc được/).waitFor();
    const generated = await page.getByLabel("Mật khẩu, dòng 2").inputValue();
    assert.match(generated, /^[a-zA-Z2-9]{12}$/);
    assert.equal(await page.getByLabel("Mật khẩu, dòng 3").inputValue(), "co-san-roi");
    assert.equal(await page.getByRole("button", { name: "Tạo 2 tài khoản" }).isDisabled(), false);
    const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Tải danh sách mật khẩu (Excel)" }).click()]);
    const table = await readTable(new Uint8Array(readFileSync(await file.path())), { name: "credentials.xlsx" });
    assert.deepEqual(table.records.map((r) => r.cells), [["Dòng trong bảng", "Họ tên", "Tên đăng nhập", "E-mail", "Mật khẩu"], ["2", "Học Viên Một", `g${stamp}a`, `g.${stamp}a@truong.vn`, generated]]);
  });
  await check("no page error while reading every sheet", async () => assert.deepEqual(pageErrors, []));
} finally {
  await browser.close();
  await emu.stop();
}
console.log(`${state.passed} passed, ${state.failed} failed (${((Date.now() - started) / 1000).toFixed(0)} s)`);
process.exit(state.failed ? 1 : 0);
