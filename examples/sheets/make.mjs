// Writes the example sheets hoc-vien.xlsx and hoc-vien.csv: the same five students, as a school's
// staff keep them (a title merged above the header, phone numbers kept as numbers under the
// format 0000000000, a date of birth and a note that are no account fields). Both read to the
// same rows: `npx lpm validate examples/sheets/hoc-vien.xlsx` (from cli/), or the dashboard's
// bulk screen. Run again with `node examples/sheets/make.mjs` after changing them.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { workbook } from '../../tests/sheets/table.mjs';
import { toCsv } from '../../sheets/src/write.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const header = ['Họ và tên', 'Tên đăng nhập', 'Email', 'Mật khẩu', 'Số điện thoại', 'Tỉnh/Thành phố', 'Ngày sinh', 'Ghi chú'];
const students = [
  ['Nguyễn Thị Lan', 'lannguyen', 'lan.nguyen@truong.edu.vn', 'Lan@2024-hk2', 901000001, 'Hà Nội', 38718, 'Lớp trưởng'],
  ['Trần Văn Minh', 'minhtran', 'minh.tran@truong.edu.vn', 'Minh@2024-hk2', 912000002, 'Huế', 38800, ''],
  ['Lê Hoàng Anh', 'anhle', 'anh.le@truong.edu.vn', 'Anh@2024-hk2', 983000003, 'Đà Nẵng', 38901, 'Chuyển từ lớp 10B'],
  ['Phạm Thu Hà', 'hapham', 'ha.pham@truong.edu.vn', 'Ha@2024-hk2', 904000004, 'TP. Hồ Chí Minh', 39002, ''],
  ['Võ Đức Dũng', 'dungvo', 'dung.vo@truong.edu.vn', 'Dung@2024-hk2', 935000005, 'Cần Thơ', 39103, ''],
];
const title = 'DANH SÁCH HỌC VIÊN LỚP 10A – HỌC KỲ 2';
const xlsx = await workbook([{
  name: 'Lớp 10A',
  rows: [[title], header, ...students.map((s) => s.map((c, k) => (k === 4 ? { n: c, fmt: '0000000000' } : k === 6 ? { n: c, fmt: 14 } : c)))],
  merges: ['A1:H1'],
}]);
writeFileSync(path.join(here, 'hoc-vien.xlsx'), xlsx);
// The CSV as Excel saves it ("CSV UTF-8"): the BOM, the cells as shown, CRLF.
const shown = students.map((s) => s.map((c, k) => (k === 4 ? String(c).padStart(10, '0') : k === 6 ? new Date(Date.UTC(1899, 11, 30) + c * 86400000).toISOString().slice(0, 10).split('-').reverse().join('/') : c)));
writeFileSync(path.join(here, 'hoc-vien.csv'), `\uFEFF${toCsv([[title], header, ...shown]).replaceAll('\n', '\r\n')}`);
