// Inputs shared by the benchmarks: pages built from the repository's fixtures, so every
// benchmark measures the same bodies.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * A 100-course page from the fixture's three records, ids/titles/slugs varied; a third of the
 * courses carry keys the contract does not list and a filled `basic_payout_value` map.
 */
export function coursePage() {
  const fixture = JSON.parse(readFileSync(path.join(root, 'tests/fixtures/get-multi-course/success.json'), 'utf8'));
  const courses = [];
  for (let i = 0; i < 100; i++) {
    const c = structuredClone(fixture.courses[i % fixture.courses.length]);
    c._id = `${c._id.slice(0, 10)}${String(i).padStart(7, '0')}`;
    c.refId = `${c.refId}-${i}`;
    c.title = `${c.title} (lớp ${i + 1})`;
    c.slug = `${c.slug}-${i + 1}`;
    if (i % 3 === 0) {
      c.__v = i;
      c.seo = { keywords: ['vật lý', 'thpt', `k${i}`], index: true };
      c.affiliates = { ...c.affiliates, enable: true, basic_payout_value: { L1: 10 + i, L2: 5 } };
    }
    courses.push(c);
  }
  return { respCode: '00', courses, msg: 'Success' };
}

/** 100 valid account-creation items (every optional field on half of them). */
export function newUsers() {
  return Array.from({ length: 100 }, (_, i) => {
    const n = String(i + 1).padStart(3, '0');
    const item = {
      name: `Nguyễn Văn An ${n}`,
      username: `hocvien${n}`,
      email: `hocvien${n}@school.example.com`,
      password: `Mk-${n}-secret`,
    };
    if (i % 2 === 0) {
      Object.assign(item, { phone: `0912345${n}`, city: 'Hà Nội', district: 'Cầu Giấy', street: `${i + 1} Xuân Thủy`, gender: i % 4 ? 'Nữ' : 'Nam', job: 'Học sinh' });
    }
    return item;
  });
}

/**
 * A 100-user page from the fixture's three accounts (one with enrolments, lesson status, cart and
 * transactions; one bare; one with avatar), ids / usernames / e-mails varied; a fifth carry an
 * unlisted key.
 */
export function userPage() {
  const fixture = JSON.parse(readFileSync(path.join(root, 'tests/fixtures/get-multi-user/success.json'), 'utf8'));
  const users = [];
  for (let i = 0; i < 100; i++) {
    const u = structuredClone(fixture.users[i % fixture.users.length]);
    const n = String(i + 1).padStart(3, '0');
    u._id = `${u._id.slice(0, 10)}${String(i).padStart(7, '0')}`;
    u.username = `${u.username}${n}`;
    u.emails = u.emails.map((e) => ({ ...e, address: e.address.replace('@', `+${n}@`) }));
    u.profile = { ...u.profile, name: `${u.profile.name} ${n}` };
    if (i % 5 === 0) u.services = { resume: { loginTokens: [] } };
    users.push(u);
  }
  return { respCode: '00', users, msg: 'Success' };
}
