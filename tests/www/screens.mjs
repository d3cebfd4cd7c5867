// Screenshots of every screen of the dashboard at a laptop's size and a phone's, into
// docs/screens/<screen>-<size>.png (the whole page, but for the long lists of accounts, courses and
// the overview's courses: their first screenful): `node tests/www/screens.mjs` after the dashboard
// is built (bash tests/www/check.sh builds it). Not part of the test command: they are for the docs.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { DEMO, VIEWPORTS, launch, root, serveSite, signIn } from "./lib.mjs";

const out = path.join(root, "docs/screens");
mkdirSync(out, { recursive: true });
const browser = await launch();
const shots = [];
try {
  for (const { name: size, ...opts } of VIEWPORTS) {
    const { emu, cleanup } = await serveSite({ createIntervalMs: 1000, retryDelayMs: 300, siteUrl: "/learner" }, ["--create-interval-secs", "1"]);
    const context = await browser.newContext(opts);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const shot = async (name, fullPage = !["accounts", "courses", "overview"].includes(name)) => {
      await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
      const file = path.join(out, `${name}-${size}.png`);
      await page.screenshot({ path: file, fullPage });
      shots.push(path.relative(root, file));
    };
    try {
      await page.goto(`${emu.url}/`);
      await page.waitForSelector("#email");
      await shot("sign-in");
      await signIn(page, emu.url);
      await page.getByRole("button", { name: "Đọc mọi tài khoản" }).click();
      await page.locator("#cache-age").waitFor();
      await shot("accounts");
      await page.locator("main table tbody tr").nth(1).locator("a").click();
      await page.getByRole("heading", { name: "Khoá học đã ghi danh" }).waitFor();
      await shot("account-detail");
      await page.getByRole("link", { name: "Khoá học", exact: true }).click();
      await page.locator("main table tbody tr").first().waitFor();
      await shot("courses");
      await page.getByRole("link", { name: "Tạo hàng loạt" }).click();
      const st = Date.now().toString(36);
      const rows = [
        ["Nguyễn Văn An", `an${st}`, `an.${st}@truong.vn`, "matkhau1"],
        ["Trần Bình", `binh${st}`, `binh.${st}@truong.vn`, "123"],
        ["Lê Thị Cúc", `cuc${st}`, DEMO.adminEmail, "matkhau3"],
      ];
      await page.fill("#paste", `Họ tên\tTên đăng nhập\tE-mail\tMật khẩu\n${rows.map((r) => r.join("\t")).join("\n")}`);
      await page.getByRole("button", { name: "Đọc dữ liệu đã dán" }).click();
      await page.locator("table.edit tbody tr").nth(2).waitFor();
      await shot("bulk-edit");
      await page.getByRole("button", { name: "Bỏ ra các dòng có lỗi" }).click();
      await page.getByRole("button", { name: /^Tạo \d+ tài khoản$/ }).click();
      await page.locator(".done").waitFor();
      await shot("bulk-results");
      await page.getByRole("link", { name: "Cấp khoá học", exact: true }).click();
      await page.locator(".course-picks li").first().waitFor();
      await shot("grant");
      if (await page.getByRole("link", { name: "Tổng quan", exact: true }).count()) {
        await page.getByRole("link", { name: "Tổng quan", exact: true }).click();
        await page.locator(".overview-chart canvas").first().waitFor();
        await shot("overview");
      }
    } finally {
      await context.close();
      await cleanup();
    }
  }
} finally {
  await browser.close();
}
console.log(shots.join("\n"));
