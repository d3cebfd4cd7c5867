// Reading sheets (CSV variants, Vietnamese headers, bad rows) and `lpm validate`: its output
// and exit codes. Nothing here needs a server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { mapColumns, validateCreateUsers } from '../src/lpm.js';
import { problemIssue, readSheet } from '../src/sheet.js';
import { rowIssues } from '../src/rows.js';
import { csvRecords, detectDelimiter } from 'lpm-sheets';
import { neutralise, toCsv } from 'lpm-sheets/write';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { lpm, sheet, tempDir, goodRows } from './helpers.mjs';

const dir = tempDir();
const file = (name, text) => {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
};
const VI = ['Họ và tên', 'Tên đăng nhập', 'E-mail', 'Mật khẩu', 'Số điện thoại', 'Tỉnh/Thành phố', 'Ghi chú'];
const ROW = ['Nguyễn Thị Lan', 'lannguyen', 'lan@school.test', 'mat-khau-1', '0901234567', 'Hà Nội', 'lớp 10A'];

test('mapColumns: Vietnamese and English headers, any case, with or without diacritics', () => {
  assert.deepEqual(mapColumns(VI), ['name', 'username', 'email', 'password', 'phone', 'city', null]);
  assert.deepEqual(mapColumns(['HO TEN', 'username', 'EMAIL', 'mat khau', 'SĐT', 'Quận/Huyện', 'Giới tính', 'Nghề nghiệp', 'Địa chỉ']),
    ['name', 'username', 'email', 'password', 'phone', 'district', 'gender', 'job', 'street']);
  assert.throws(() => mapColumns(null), TypeError);
});

test('the same rows read alike: comma, semicolon, tab; with and without BOM; CRLF or LF; UTF-16', async () => {
  const want = { name: ROW[0], username: ROW[1], email: ROW[2], password: ROW[3], phone: ROW[4], city: ROW[5] };
  const variants = {
    'comma.csv': sheet(VI, [ROW]),
    'semicolon-bom.csv': sheet(VI, [ROW], { sep: ';', bom: true }),
    'tab.tsv': sheet(VI, [ROW], { sep: '\t' }),
    'lf.csv': sheet(VI, [ROW]).replaceAll('\r\n', '\n'),
    'quoted.csv': `${VI.map((h) => `"${h}"`).join(';')}\n${ROW.map((c) => `"${c}"`).join(';')}\n`,
  };
  for (const [name, text] of Object.entries(variants)) {
    const s = await readSheet(file(name, text));
    assert.equal(s.rows.length, 1, name);
    assert.deepEqual(s.rows[0].user, want, name);
    assert.deepEqual(s.ignored, ['Ghi chú'], name);
  }
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(sheet(VI, [ROW], { sep: '\t' }), 'utf16le')]);
  assert.deepEqual((await readSheet(file('unicode.txt', utf16))).rows[0].user, want);
});

test('delimiter detection ignores delimiters inside quotes', () => {
  assert.equal(detectDelimiter('"a,b,c";"d";"e"\n1,2,3,4,5,6'), ';');
  assert.equal(detectDelimiter('a\tb\tc\n'), '\t');
  assert.equal(detectDelimiter('single\n'), ',');
});

test('cells are trimmed, empty optional cells left out, a quoted delimiter kept in its cell', async () => {
  const s = await readSheet(file('trim.csv', 'name,username,email,password,city\n" Lan Anh ", lananh ,lan@x.io,secret1,\n"Trần, Văn B",tranb,b@x.io,secret2,"Huế, TT"\n'));
  assert.deepEqual(s.rows[0].user, { name: 'Lan Anh', username: 'lananh', email: 'lan@x.io', password: 'secret1' });
  assert.deepEqual(s.rows[1].user, { name: 'Trần, Văn B', username: 'tranb', email: 'b@x.io', password: 'secret2', city: 'Huế, TT' });
});

test('rowIssues validates in slices exactly as one call over the whole sheet, repeats across slices included', async () => {
  const rows = Array.from({ length: 23 }, (_, i) => [`Học viên số ${i}`, `hv${i}`, `hv${i}@school.test`, `mat-khau-${i}`, '', '', '']);
  rows[5][2] = 'HV4@school.test'; // the row before's e-mail: across the boundary of slices of 5
  rows[10][1] = 'HV3'; // a username differing only in case (platform), two slices later
  rows[11][1] = 'hv9'; // an exact repeat within the same slice of 5, across one of 4 and 3
  rows[14][2] = '';
  rows[17].push('a cell past the header'); // a row that cannot be read
  const read = await readSheet(file('slices.csv', sheet(VI, rows)));
  // One call over the whole input, as `lpm validate` read it before it validated in slices.
  const whole = read.rows.map(() => []);
  for (const issue of validateCreateUsers(read.rows.map((r) => (r.problem ? null : r.user)), { lang: 'vi' })) {
    if (issue.path.length) whole[issue.path[0]].push({ ...issue, path: issue.path.slice(1) });
  }
  whole[17] = [problemIssue(read.rows[17].problem, 'vi')];
  const codes = (issues) => issues.map((list) => list.map((i) => i.code));
  assert.deepEqual(codes(whole).slice(5, 12), [['duplicate_email'], [], [], [], [], ['duplicate_username'], ['duplicate_username']]);
  assert.equal(whole[17][0].code, 'cells');
  for (const size of [1, 3, 4, 5, 22, 23, 2000]) assert.deepEqual(rowIssues(read, 'vi', size), whole, `slices of ${size}`);
});

test('a row\'s user is made once and kept; account() gives it, or a new one that is not kept', async () => {
  const read = await readSheet(file('kept.csv', sheet(VI, [ROW, ROW.map((c) => `${c}x`)])));
  const [a, b] = read.rows;
  const fresh = a.account();
  assert.deepEqual(fresh, a.user);
  assert.notEqual(fresh, a.user, 'account() before user: a new object');
  a.user.password = 'doi-mat-khau';
  assert.equal(a.user.password, 'doi-mat-khau', 'a change to user is kept');
  assert.equal(a.account(), a.user, 'account() once user was made: that user');
  assert.notEqual(b.account(), b.account());
  assert.deepEqual(a.cells, ROW);
});

test('validate: a good sheet exits 0 and says so', async () => {
  const r = await lpm(['validate', file('good.csv', sheet(['Name', 'Username', 'Email', 'Password'], goodRows(5), { bom: true }))]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /5 rows, comma-separated; columns: Name -> name, Username -> username, Email -> email, Password -> password/);
  assert.match(r.stdout, /5 rows ready, 0 set aside\n$/);
});

test('validate: bad rows are listed by row and line, set aside, exit 1; --lang vi; --strict', async () => {
  const rows = [
    ...goodRows(2),
    ['Thiếu Mật Khẩu', 'nopass', 'nopass@x.io', ''], // row 3: required password missing
    ['Lặp Lại', 'again', 'student0@school.test', 'secret-9'], // row 4: the e-mail of row 1
    ['AB', 'ok2', 'ok2@x.io', 'secret-7'], // row 5: name too short (platform rule)
    ['Dư Ô', 'extra', 'extra@x.io', 'secret-8', 'surplus'], // row 6: more cells than columns
  ];
  const p = file('bad.csv', sheet(['Họ tên', 'Tài khoản', 'Email', 'Mật khẩu'], rows, { sep: ';' }));
  const r = await lpm(['validate', p]);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stdout, /^row 3 \(line 4\): password: /m);
  assert.match(r.stdout, /^row 4 \(line 5\): email: .*row 1/m);
  assert.match(r.stdout, /^row 5 \(line 6\): name: .*\(platform rule: sent anyway; --strict sets it aside\)$/m);
  assert.match(r.stdout, /^row 6 \(line 7\): this line has 5 cells but the header has 4 columns/m);
  assert.match(r.stdout, /3 rows ready, 3 set aside, 1 ready with warnings\n$/);
  const vi = await lpm(['validate', p, '--lang', 'vi']);
  assert.match(vi.stdout, /^row 6 \(line 7\): dòng này có 5 ô/m);
  assert.doesNotMatch(vi.stdout, /^row 3 .*password: [A-Z][a-z]+ is required/m);
  const strict = await lpm(['validate', p, '--strict']);
  assert.match(strict.stdout, /2 rows ready, 4 set aside\n$/);
});

test('validate: usage errors exit 2 with a clear message', async () => {
  const cases = [
    [['validate'], /takes one FILE/],
    [['validate', path.join(dir, 'missing.csv')], /cannot read .*missing\.csv: no such file/],
    [['validate', file('nopass.csv', 'Name,Username,Email\nA,b,c\n')], /no column for password \(the header line is: Name \| Username \| Email\)/],
    [['validate', file('twice.csv', 'Name,Họ tên,Username,Email,Password\n')], /columns "Name" and "Họ tên" both stand for name/],
    [['validate', file('latin1.csv', Buffer.from('Name,Username,Email,Password\nNguy\xe9n,a,b,c\n', 'latin1'))], /not UTF-8 text: in Excel, save it as "CSV UTF-8/],
    [['validate', file('empty.csv', '')], /is empty/],
    [['validate', file('quote.csv', 'Name,Username,Email,Password\n"unclosed,a,b,c\n')], /not readable as CSV/],
    [['validate', 'x.csv', '--lang', 'fr'], /--lang must be vi or en/],
    [['validate', 'x.csv', '--bogus'], /^lpm validate: unknown option --bogus$/m],
  ];
  for (const [args, message] of cases) {
    const r = await lpm(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message, args.join(' '));
  }
});

test('--help for every command, exit 0; an unknown command exits 2', async () => {
  const top = await lpm(['--help']);
  assert.equal(top.code, 0);
  for (const command of ['validate', 'import', 'grant', 'export', 'whoami', 'login']) {
    assert.match(top.stdout, new RegExp(`^  ${command} `, 'm'));
    const r = await lpm([command, '--help']);
    assert.equal(r.code, 0, command);
    assert.match(r.stdout, new RegExp(`^lpm ${command}\\b.*\\n\\nOptions:\\n`), command);
    assert.match(r.stdout, /-h, --help/, command);
  }
  const bad = await lpm(['frobnicate']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /unknown command "frobnicate"/);
});

test('import --dry-run checks the rows and prints the chunk plan, sending nothing (no server, no token)', async () => {
  const p = file('plan.csv', sheet(['Name', 'Username', 'Email', 'Password'], [...goodRows(250), ['', 'x', 'x@x.io', 'secret-1']]));
  const r = await lpm(['import', p, '--dry-run', '--chunk', '100']);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stdout, /^plan: 250 rows in 3 calls of up to 100, one every 600 s$/m);
  assert.match(r.stdout, /^  chunk 1: rows 1\.\.100 \(100\), at \+0 min 0 s$/m);
  assert.match(r.stdout, /^  chunk 3: rows 201\.\.250 \(50\), at \+20 min 0 s$/m);
  assert.match(r.stdout, /^row 251 \(line 252\): name: /m);
});

test('readSheet: each row\'s line is the line it starts on, whatever the line breaks; blank lines skipped', async () => {
  const cases = [
    ['plain, CRLF, empty and blank lines', 'name,username,email,password\r\n1,a,b,c\r\n\r\n2,a,b,c\r\n  \r\n3,a,b,c', [2, 4, 6]],
    ['plain, LF, trailing break', 'name,username,email,password\n1,a,b,c\n\n\n2,a,b,c\n3,a,b,c\n', [2, 5, 6]],
    ['a quoted cell over two lines', 'name;username;email;password\r\n"A\r\nB";a;b;c\r\n2;a;b;c\r\n', [2, 4]],
    // Issue 27, item 6: csv-parse took the first break as the only one and joined these lines.
    ['mixed breaks: LF among CRLF', 'name,username,email,password\r\n1,a,b,c\n2,a,b,c\r\n', [2, 3]],
    ['a CRLF header with LF data lines', 'name,username,email,password\r\n1,a,b,c\n2,a,b,c\n3,a,b,c\n', [2, 3, 4]],
    ['CR alone (old Mac), with a quote', 'name,username,email,password\r"1",a,b,c\r2,a,b,c\r', [2, 3]],
    ['blank records (,,,) as Excel writes formatted empty rows', 'name,username,email,password\r\n1,a,b,c\r\n,,,\r\n;;\r\n', [2, 4]],
  ];
  for (const [what, text, lines] of cases) {
    const sheet = await readSheet(file('lines.csv', text));
    assert.deepEqual(sheet.rows.map((r) => r.line), lines, what);
    for (const r of sheet.rows) assert.equal(r.problem, null, what);
  }
});

test('csvRecords reads quote-free text as csv-parse does with CRLF, LF and CR all as line breaks', () => {
  // Random texts over what a sheet holds (delimiters, spaces, empty cells and lines, breaks of
  // every kind mixed, characters beyond ASCII), held to csv-parse given the three breaks.
  let seed = 7;
  const rand = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const parts = ['a', 'Bé', ' ', '', 'x y', ',', ';', '\t', 'ệ', '1', '\n', '\r\n', '\r', '\n\n', '  ', '\u00a0'];
  let compared = 0;
  for (let i = 0; i < 3000; i++) {
    let text = Array.from({ length: rand(40) }, () => parts[rand(parts.length)]).join('');
    if (rand(4) === 0) text = `\uFEFF${text}`;
    for (const delimiter of [',', ';', '\t']) {
      const ours = csvRecords(text, delimiter);
      const theirs = parse(text, { bom: true, delimiter, record_delimiter: ['\r\n', '\n', '\r'], relax_column_count: true, skip_empty_lines: true, info: true })
        .map(({ record }) => record);
      assert.deepEqual(ours.map((r) => r.cells), theirs, `${JSON.stringify(text)} split at ${JSON.stringify(delimiter)}`);
      compared += 1;
    }
  }
  assert.equal(compared, 9000);
});

test('csvRecords reads quoted cells as csv-parse does: doubled quotes, delimiters and breaks inside', () => {
  let seed = 11;
  const rand = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const pieces = ['a', 'Bé', ' ', ',', ';', '""', '\n', '\r\n', 'ệ'];
  for (let i = 0; i < 2000; i++) {
    const records = Array.from({ length: 1 + rand(4) }, () => Array.from({ length: 1 + rand(4) }, () => {
      const body = Array.from({ length: rand(5) }, () => pieces[rand(pieces.length)]).join('');
      return rand(2) ? `"${body}"` : body.replace(/[",;\r\n]/g, 'x');
    }));
    const breaks = ['\r\n', '\n', '\r'];
    const text = records.map((r) => r.join(',')).map((l) => l + breaks[rand(3)]).join('');
    const ours = csvRecords(text, ',').map((r) => r.cells);
    const theirs = parse(text, { delimiter: ',', record_delimiter: breaks, relax_column_count: true, skip_empty_lines: true });
    assert.deepEqual(ours, theirs, JSON.stringify(text));
  }
});

test('CSV output: cells that would start a formula are neutralised (OWASP CSV Injection), else as csv-stringify writes', () => {
  const hostile = ['=HYPERLINK("http://x.test","go")', '+cmd|\' /C calc\'!A0', '-2+3+cmd|\' /C calc\'!A0', '@SUM(1+1)*cmd|\' /C calc\'!A0', '\t=1+2', '\r=1+2', '=1+2'];
  for (const cell of hostile) {
    assert.equal(neutralise(cell), `'${cell}`, JSON.stringify(cell));
    assert.ok(toCsv([[cell]]).startsWith(/[\r"]/.test(cell) || cell.includes(',') ? '"\'' : "'"), JSON.stringify(toCsv([[cell]])));
  }
  // A plain number is read as a number by a spreadsheet, never run: kept as it is.
  for (const cell of ['-5', '+84901000001', '-1.5e3', '0901000001', 'a=b', ' =x']) assert.equal(neutralise(cell), cell);
  const cells = ['', 'a', 'a,b', 'a"b', 'x\ny', 'x\r', ' sp ', '=1+2', 'Học Viên', 3, 0, undefined, '-1', "'q", 'a;b', '@x', '+x', '-x'];
  const records = Array.from({ length: 2000 }, (_, i) => Array.from({ length: 1 + (i % 7) }, (_, k) => cells[(i * 7 + k * 3 + (i >> 3)) % cells.length]));
  const safe = records.map((r) => r.map((c) => (typeof c === 'string' ? neutralise(c) : c)));
  assert.equal(toCsv(records), stringify(safe));
  assert.equal(toCsv([]), stringify([]));
  assert.equal(toCsv([[], ['a']]), stringify([[], ['a']]));
});

test('grant --users reads ids from an .xlsx too (an id column, lines as the sheet shows them)', async () => {
  const { usersOf } = await import('../src/commands/grant.js');
  const { workbook } = await import('../../tests/sheets/table.mjs');
  const p = path.join(dir, 'ids.xlsx');
  writeFileSync(p, await workbook([{ rows: [['Họ tên', 'ID'], ['Lan', 'u1'], ['Minh', 'u2'], { r: 6, cells: ['An', 'u3'] }] }]));
  assert.deepEqual(await usersOf(p), { ids: ['u1', 'u2', 'u3'], lines: [2, 3, 6], source: p });
});
