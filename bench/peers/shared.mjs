// Everything the two hand-written peer clients (zod-client.mjs, valibot-client.mjs) share except
// their schemas: the transport (fetch, per-attempt timeout, GET retries, the 10-minute create
// guard), per-endpoint respCode decoding, derived reply fields, error classes, and the issue table
// (codes, levels, en/vi messages) their validators report with. Written from the contract and the
// platform notes to do what lpm-client does (src/codes.rs, src/endpoint/, src/rules/, src/plan.rs,
// wasm/src/client.rs), so that the size and speed ratios compare like with like. Each peer bundle
// contains this file once, as a team writing the client with either library would.
//
// A peer hands `makeClient` and `makeValidators` one adapter:
//   parse(schema, value)  -> { value } | { path }        (decode a reply; path of the first misfit)
//   issues(schema, value) -> [{ path: (string|number)[], message }]   (every finding)
// where each schema-level message is an issue key: `code`, or `code:n` (a bound), see `issue`.

// ---- issues -----------------------------------------------------------------------------------

/** Codes that only the platform's documented rules predict (the rest: the contract). */
const PLATFORM = new Set(['too_short', 'too_long', 'invalid_chars', 'invalid_email', 'unknown_field', 'duplicate_id']);

/** code → [English, Vietnamese]; `{field}`, `{field_lc}`, `{n}` as in src/rules/message.rs. */
const TEMPLATES = {
  required: ['{field} is required', 'Bắt buộc nhập {field_lc}'],
  not_string: ['{field} must be text', '{field} phải là chuỗi ký tự'],
  not_array: ['{field} must be an array', '{field} phải là một mảng (danh sách)'],
  empty: ['{field} must not be empty', '{field} không được để trống'],
  too_many: ['{field} can hold at most {n} items per request', '{field} chỉ được có tối đa {n} mục mỗi lần gửi'],
  params_not_object: ['The parameters must be an object', 'Tham số phải là một đối tượng'],
  not_object: ["Each row must be an object with the account's fields", 'Mỗi dòng phải là một đối tượng chứa các trường của tài khoản'],
  duplicate_email: ['Email already used in row {n}', 'Email đã xuất hiện ở dòng {n}'],
  duplicate_username: ['Username already used in row {n}', 'Tên đăng nhập đã xuất hiện ở dòng {n}'],
  not_integer: ['{field} must be a whole number', '{field} phải là số nguyên'],
  too_small: ['{field} must be at least {n}', '{field} phải lớn hơn hoặc bằng {n}'],
  too_large: ['{field} must be at most {n}', '{field} phải nhỏ hơn hoặc bằng {n}'],
  email_or_username_required: ['Enter an email or a username', 'Cần nhập email hoặc tên đăng nhập'],
  dot_segment: ['{field} must not be "." or ".."', '{field} không được là "." hoặc ".."'],
  too_short: ['{field} must be at least {n} characters', '{field} phải có ít nhất {n} ký tự'],
  too_long: ['{field} must be at most {n} characters', '{field} chỉ được có tối đa {n} ký tự'],
  invalid_chars: [
    '{field} may contain only letters a-z, A-Z and digits 0-9 (no spaces, accents or symbols)',
    '{field} chỉ được chứa chữ cái a-z, A-Z và chữ số 0-9 (không dấu, không khoảng trắng, không ký tự đặc biệt)',
  ],
  invalid_email: ['Email address does not look valid', 'Địa chỉ email không hợp lệ'],
  unknown_field: [
    'Unknown field (the account fields are name, username, email, password, phone, city, district, street, gender, job)',
    'Trường không xác định (các trường của tài khoản là name, username, email, password, phone, city, district, street, gender, job)',
  ],
  duplicate_id: ['{field} already listed in row {n}', '{field} đã có ở dòng {n}'],
};

/** Field labels by key; `row` is an item (or a key that is not a field). */
const LABELS = {
  name: ['Name', 'Tên'], username: ['Username', 'Tên đăng nhập'], email: ['Email', 'Email'],
  password: ['Password', 'Mật khẩu'], phone: ['Phone', 'Số điện thoại'], city: ['City', 'Tỉnh/Thành phố'],
  district: ['District', 'Quận/Huyện'], street: ['Street', 'Đường phố'], gender: ['Gender', 'Giới tính'],
  job: ['Job', 'Nghề nghiệp'], row: ['Row', 'Dòng'], accounts: ['Account list', 'Danh sách tài khoản'],
  accountIds: ['Account ID list', 'Danh sách mã tài khoản'], accountId: ['Account ID', 'Mã tài khoản'],
  courseIds: ['Course ID list', 'Danh sách mã khoá học'], courseId: ['Course ID', 'Mã khoá học'],
  id: ['ID', 'Mã'], start: ['Start', 'Vị trí bắt đầu'], limit: ['Limit', 'Số lượng'], title: ['Title', 'Tiêu đề'],
};

export const CREATE_FIELDS = ['name', 'username', 'email', 'password', 'phone', 'city', 'district', 'street', 'gender', 'job'];

/** A finding as the package reports it. `key` is `code[:n]`; `_ci` marks a case-only duplicate (platform). */
function issue(path, key, labelOf, lang) {
  const [raw, n = '0'] = String(key).split(':');
  const code = raw === 'duplicate_username_ci' ? 'duplicate_username' : raw;
  const level = PLATFORM.has(code) || raw === 'duplicate_username_ci' ? 'platform' : 'contract';
  const [en, vi] = TEMPLATES[code] || ['Invalid value', 'Giá trị không hợp lệ'];
  const label = (LABELS[labelOf(path)] || LABELS.row)[lang === 'vi' ? 1 : 0];
  const message = (lang === 'vi' ? vi : en)
    .replace('{field_lc}', label.toLowerCase()).replace('{field}', label).replace('{n}', n);
  return { path, code, level, message };
}

// ---- rules the schemas call -----------------------------------------------------------------

const blank = (s) => s.trim() === '';
/** Length in Unicode characters, as the core counts (`chars().count()`). */
const chars = (s) => { let n = 0; for (const _ of s) n++; return n; };

/** Platform rule "a plausible e-mail": no whitespace/control, one `@`, a local part, a dotted domain of non-empty labels. */
export function plausibleEmail(s) {
  if (/[\s\p{Cc}]/u.test(s)) return false;
  const parts = s.split('@');
  return parts.length === 2 && parts[0] !== '' && parts[1].includes('.') && parts[1].split('.').every((l) => l !== '');
}

/** String checks as predicates (a blank string is `required`'s, so these pass it). */
export const rules = {
  notBlank: (s) => !blank(s),
  nameLong: (s) => blank(s) || chars(s.trim()) >= 3,
  usernameShort: (s) => blank(s) || chars(s) >= 3,
  usernameLong: (s) => blank(s) || chars(s) <= 20,
  usernameChars: (s) => blank(s) || /^[A-Za-z0-9]*$/.test(s),
  passwordShort: (s) => blank(s) || chars(s) >= 6,
  passwordLong: (s) => blank(s) || chars(s) <= 35,
  email: (s) => blank(s) || plausibleEmail(s),
  notDots: (s) => !['.', '..'].includes(s.trim()),
  /** An integer (any float without fraction within ±2^53, so 1.0 counts). */
  integer: (n) => Number.isInteger(n) && Math.abs(n) <= 2 ** 53,
};

/** The type-error message of a required string: absent or null is `required`, another type `not_string`. */
export const requiredOrNotString = (input) => (input === undefined || input === null ? 'required' : 'not_string');

/** A usable (non-blank, non-dot) string, else undefined: what the list-level checks consider. */
const usable = (v) => (typeof v === 'string' && !blank(v) ? v : undefined);

/**
 * What the item schema cannot see: `empty` / `too_many` on the list, and duplicates among items
 * (e-mail trimmed and case-folded; username trimmed, case-only differences at platform level),
 * each on the later item with the earlier row. Runs also when some items failed.
 */
export function batchIssues(items) {
  if (!Array.isArray(items)) return [];
  const out = [];
  if (items.length === 0) out.push({ path: [], message: 'empty' });
  else if (items.length > 100) out.push({ path: [], message: 'too_many:100' });
  const emails = new Map(), names = new Map(), folded = new Map();
  items.forEach((item, i) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return;
    const email = usable(item.email);
    if (email !== undefined) {
      const norm = email.trim().toLowerCase();
      if (emails.has(norm)) out.push({ path: [i, 'email'], message: `duplicate_email:${emails.get(norm) + 1}` });
      else emails.set(norm, i);
    }
    const username = usable(item.username);
    if (username !== undefined) {
      const t = username.trim(), f = t.toLowerCase();
      if (names.has(t)) out.push({ path: [i, 'username'], message: `duplicate_username:${names.get(t) + 1}` });
      else if (folded.has(f)) out.push({ path: [i, 'username'], message: `duplicate_username_ci:${folded.get(f) + 1}` });
      if (!names.has(t)) names.set(t, i);
      if (!folded.has(f)) folded.set(f, i);
    }
  });
  return out;
}

/** add-courses lists: `empty`, `too_many` (users only) and the same id twice (platform). */
function idListIssues(list, name, max) {
  if (!Array.isArray(list)) return [];
  const out = [];
  if (list.length === 0) out.push({ path: [name], message: 'empty' });
  if (max && list.length > max) out.push({ path: [name], message: `too_many:${max}` });
  const seen = new Map();
  list.forEach((id, i) => {
    if (usable(id) === undefined || !rules.notDots(id)) return;
    if (seen.has(id)) out.push({ path: [name, i], message: `duplicate_id:${seen.get(id) + 1}` });
    else seen.set(id, i);
  });
  return out;
}

/** search-user: at least one of e-mail and username as a non-blank string. */
export const hasEmailOrUsername = (p) =>
  p !== null && typeof p === 'object' && (usable(p.email) !== undefined || usable(p.username) !== undefined);

const isParams = (v) => v === undefined || v === null || (typeof v === 'object' && !Array.isArray(v));

// ---- validators -------------------------------------------------------------------------------

/** Label of the field a path ends at, per validator. */
const labelers = {
  createUsers: (p) => (p.length === 0 ? 'accounts' : p.length === 1 ? 'row' : p[1]),
  createUser: (p) => (p.length === 0 ? 'row' : p[0]),
  page: (p) => p[0] || 'row',
  searchUser: (p) => p[0] || 'email',
  title: () => 'title',
  id: () => 'id',
  addCourses: (p) => (p[0] === 'users' ? (p.length > 1 ? 'accountId' : 'accountIds') : p[0] === 'courses' ? (p.length > 1 ? 'courseId' : 'courseIds') : 'row'),
  login: (p) => p[0] || 'row',
};

/** A validator that is also a Standard Schema, with `withOptions`, as the package's are. */
function standard(run, options) {
  const validate = (value, opts) => run(value, opts === undefined ? options : opts);
  validate['~standard'] = {
    version: 1,
    vendor: 'peer',
    validate(value) {
      const issues = run(value, options);
      return issues.length === 0 ? { value } : { issues };
    },
  };
  validate.withOptions = (opts) => standard(run, { ...(options || {}), ...opts });
  return validate;
}

/**
 * The package's nine validators from a peer's schemas:
 * { NewUsers, NewUser, UsersPage, CoursesPage, SearchUser, Title, Id, AddCourses, Login }.
 */
export function makeValidators(adapter, s) {
  const v = (labeler, check) => standard((value, opts = {}) => {
    const lang = opts.lang === 'vi' ? 'vi' : 'en';
    const out = check(value).map((i) => issue(i.path, i.message, labeler, lang));
    return opts.platformRules === false ? out.filter((i) => i.level === 'contract') : out;
  });
  const params = (schema, extra = () => []) => (value) =>
    (isParams(value) ? [...adapter.issues(schema, value ?? {}), ...extra(value ?? {})] : [{ path: [], message: 'params_not_object' }]);
  return {
    validateCreateUsers: v(labelers.createUsers, (value) => [...adapter.issues(s.NewUsers, value), ...batchIssues(value)]),
    validateCreateUser: v(labelers.createUser, (value) => adapter.issues(s.NewUser, value)),
    validateGetUsers: v(labelers.page, params(s.UsersPage)),
    validateGetCourses: v(labelers.page, params(s.CoursesPage)),
    validateSearchUser: v(labelers.searchUser, params(s.SearchUser, (p) => (hasEmailOrUsername(p) ? [] : [{ path: [], message: 'email_or_username_required' }]))),
    validateSearchCourses: v(labelers.title, (value) => adapter.issues(s.Title, value).map((i) => ({ ...i, path: ['title'] }))),
    validateId: v(labelers.id, (value) => adapter.issues(s.Id, value)),
    validateAddCourses: v(labelers.addCourses, params(s.AddCourses, (p) => [...idListIssues(p.users, 'users', 100), ...idListIssues(p.courses, 'courses', 0)])),
    validateLogin: v(labelers.login, params(s.Login)),
  };
}

/** The success envelopes of every endpoint from a peer's records, its `envelope(shape)` (a loose
 * object with an optional `msg`; `respCode` is checked before), `array(item)` and string schema. */
export function replySchemas(envelope, array, str, { User, Course, CreatedUser, ValidCourse, AddCourseOutcome }) {
  return {
    UserList: envelope({ users: array(User) }),
    UserReply: envelope({ user: User }),
    CourseList: envelope({ courses: array(Course) }),
    CourseReply: envelope({ course: Course }),
    CreateUsersReply: envelope({ users: array(CreatedUser) }),
    AddCoursesReply: envelope({ validCourses: array(ValidCourse), result: array(AddCourseOutcome) }),
    LoginReply: envelope({ token: str, tokenExpires: str }),
    RawReply: envelope({ respCode: str }),
  };
}

/** A peer's public API: the client class, the nine validators (also as `validators`), the errors. */
export function makePeer(adapter, replies, inputs) {
  const validators = makeValidators(adapter, inputs);
  return { ...validators, validators, Client: makeClient(adapter, replies, validators), errors };
}

// ---- respCode decoding (per endpoint) ---------------------------------------------------------

// reason → [category, retryable, explanation]
const REASONS = {
  wrongMethod: ['method', false, 'The request used the wrong HTTP method for this endpoint.'],
  noBody: ['badRequest', false, 'The request had no JSON body.'],
  noUsersArray: ['badRequest', false, 'The request body has no `users` array.'],
  usersNotArray: ['badRequest', false, '`users` in the request body is not an array.'],
  usersEmpty: ['badRequest', false, '`users` in the request body is an empty array.'],
  noToken: ['authentication', false, 'No API token was sent.'],
  cannotAuthenticate: ['authentication', true, 'The server could not authenticate the account; this may pass on a retry.'],
  invalidToken: ['authentication', false, 'The API token is invalid or has expired; log in again for a new one.'],
  noPermission: ['permission', false, "The token's account is not allowed to do this."],
  cannotCheckResources: ['server', true, "The server could not check the caller's website resources; this may pass on a retry."],
  capacityExhausted: ['capacity', false, 'The platform has reached its maximum number of accounts.'],
  notEnoughSlots: ['capacity', false, 'There are fewer free account slots than accounts in the batch; send fewer.'],
  allItemsFailed: ['badRequest', false, "No account of the batch could be created; see each item's status."],
  noId: ['badRequest', false, 'No id was given in the path.'],
  userNotFound: ['notFound', false, 'No account has that id.'],
  noStartParameter: ['badRequest', false, 'The `start` parameter is missing.'],
  invalidStartParameter: ['badRequest', false, 'The `start` parameter is invalid; it must be an integer >= 0.'],
  noEmail: ['badRequest', false, 'No e-mail address was given.'],
  noPassword: ['badRequest', false, 'No password was given.'],
  wrongEmail: ['authentication', false, 'No account has that e-mail address.'],
  wrongPassword: ['authentication', false, 'The password is wrong.'],
  cannotCheckPassword: ['server', true, 'The server could not check the password; this may pass on a retry.'],
  cannotGenerateToken: ['server', true, 'The server could not make a token; this may pass on a retry.'],
  emailInUse: ['badRequest', false, 'An account with this e-mail address exists already; use another, or sign that account in.'],
  usernameInUse: ['badRequest', false, 'An account with this username exists already; choose another.'],
  missingFields: ['badRequest', false, 'The server found a required field (name, username, password) missing or unusable.'],
  createFailed: ['server', true, 'The server failed to create the account (it was not created); this may pass on a retry.'],
  courseNotFound: ['notFound', false, 'No course has that id.'],
  unknown: ['unknown', false, "A code this client does not know; see the server's msg."],
};

// endpoint → [basis, rows]; a row is `code reason` or `code reason msg-prefix` (lower case).
const r = (basis, text) => [basis, text.split(';').map((row) => { const [c, reason, ...p] = row.trim().split(' '); return [c, reason, p.join(' ') || null]; })];
const TABLES = {
  'create-multi-user': r('contract', '01 wrongMethod;02 noBody;03 noUsersArray;04 usersNotArray;05 usersEmpty;06 noToken;07 cannotAuthenticate;08 invalidToken;10 noPermission your account does not have permission;10 cannotCheckResources server is not able to check;11 capacityExhausted;12 notEnoughSlots;13 allItemsFailed'),
  'get-me': r('contract', '01 wrongMethod;02 noToken;03 cannotAuthenticate;04 invalidToken'),
  'get-single-user': r('notes', '01 wrongMethod;02 noId;03 noToken no token;03 userNotFound user not found;04 cannotAuthenticate;05 invalidToken;06 noPermission'),
  'get-multi-user': r('notes', '02 noToken;03 noStartParameter;04 invalidStartParameter'),
  'search-user': r('notes', '02 noToken'),
  'add-multi-course-to-multi-user': r('notes', '02 noBody;03 noUsersArray'),
  'login-user': r('notes', '01 wrongMethod;02 noBody;03 noEmail;04 noPassword;05 wrongEmail;06 cannotCheckPassword;07 wrongPassword;08 cannotGenerateToken'),
};
/** Msgs the platform uses verbatim on several endpoints: recognise undocumented codes by them. */
const KNOWN_MSGS = [
  ['request method should be', 'wrongMethod'], ['no request body', 'noBody'], ['không có body request', 'noBody'],
  ['no users array', 'noUsersArray'], ['no token', 'noToken'], ['server not able to authenticate', 'cannotAuthenticate'],
  ['invalid token', 'invalidToken'], ['your account does not have permission', 'noPermission'], ['no id', 'noId'],
  ['user not found', 'userNotFound'], ['no start parameter', 'noStartParameter'], ['invalid start parameter', 'invalidStartParameter'],
  ['course not found', 'courseNotFound'], ['email already in use', 'emailInUse'], ['username already in use', 'usernameInUse'],
  ['not enough required', 'missingFields'], ['server error in create new use', 'createFailed'], ['the number of accounts has run out', 'capacityExhausted'],
];
const startsWith = (msg, prefix) => msg.trimStart().slice(0, prefix.length).toLowerCase() === prefix;

/** { reason, basis } of `code` with `msg` on `endpoint`. */
export function decodeCode(endpoint, code, msg) {
  const [basis, rows] = TABLES[endpoint] || ['unknown', []];
  const listed = rows.filter(([c]) => c === code);
  const hit = listed.find(([, , prefix]) => prefix === null || startsWith(msg, prefix));
  if (hit) return { reason: hit[1], basis };
  if (listed.length === 0) {
    const known = KNOWN_MSGS.find(([prefix]) => startsWith(msg, prefix));
    if (known) return { reason: known[1], basis: 'msg' };
  }
  return { reason: 'unknown', basis: 'unknown' };
}

const numbers = (msg) => (msg.match(/\d+/g) || []).map(Number).filter((n) => n <= 0xffffffff);
/** `<n> success, <m> error` and the Vietnamese add-courses sentence, when the ok word comes first. */
function counts(msg, ok, err) {
  const lower = msg.toLowerCase();
  const i = lower.indexOf(ok), j = lower.lastIndexOf(err);
  const [succeeded, failed] = numbers(msg);
  return i < 0 || j < 0 || i > j || failed === undefined ? null : { succeeded, failed };
}

// ---- errors -----------------------------------------------------------------------------------

export class PeerError extends Error {
  constructor(message, data, cause) {
    super(message, cause === undefined ? undefined : { cause });
    Object.assign(this, data);
  }
}
const kinds = ['Validation', 'Api', 'Http', 'Decode', 'Network', 'Timeout', 'Abort', 'Interval', 'Config'];
export const errors = Object.fromEntries(kinds.map((k) => {
  const C = class extends PeerError {};
  Object.defineProperty(C.prototype, 'name', { value: `${k}Error` });
  return [`${k}Error`, C];
}));

// ---- client -----------------------------------------------------------------------------------

const enc = (s) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const sleep = (ms, signal) => new Promise((resolve, reject) => {
  const t = setTimeout(resolve, ms);
  signal?.addEventListener('abort', () => { clearTimeout(t); reject(signal.reason); }, { once: true });
});
/** Last create per base URL + token, in this realm. */
const lastCreate = new Map();
const DEFAULTS = { timeoutMs: 30000, maxRetries: 2, retryDelayMs: 300, userPath: 'users', strictPlatformRules: false };

/**
 * The client class of a peer: the package's methods, each validated first (contract findings
 * refuse the call), sent, and decoded per endpoint; replies checked by the peer's schemas:
 * { UserList, UserReply, CourseList, CourseReply, CreateUsersReply, AddCoursesReply, LoginReply, RawReply }.
 */
export function makeClient(adapter, schemas, validators) {
  const { ValidationError, ApiError, HttpError, DecodeError, NetworkError, TimeoutError, AbortError, IntervalError, ConfigError } = errors;
  return class Client {
    #o;
    constructor(options) {
      const o = { ...DEFAULTS, ...options, createInterval: { guard: 'reject', intervalMs: 600000, ...options?.createInterval } };
      const m = /^(https?):\/\/([^/?#@\s]+)(\/[^?#\s]*)?$/i.exec(String(o.baseUrl).trim());
      if (!m) throw new ConfigError('baseUrl: expected http(s)://host[/prefix]', { option: 'baseUrl' });
      o.baseUrl = `${m[1].toLowerCase()}://${m[2].toLowerCase()}${(m[3] || '').replace(/\/+$/, '')}`;
      if (o.token != null && !/^[A-Za-z0-9._~-]{8,}$/.test(o.token)) throw new ConfigError('token: expected 8+ unreserved characters', { option: 'token' });
      o.fetch = o.fetch || globalThis.fetch;
      this.#o = o;
    }

    withToken(token) { return new Client({ ...this.#o, token }); }
    get baseUrl() { return this.#o.baseUrl; }

    #clean(text) { return this.#o.token ? String(text).split(this.#o.token).join('<redacted>') : String(text); }

    /** Validates with `check`; contract findings (and platform ones when strict) refuse the call. */
    #check(endpoint, check, value) {
      const issues = check(value, { platformRules: this.#o.strictPlatformRules });
      if (issues.length) throw new ValidationError(`${endpoint}: the input is not valid`, { endpoint, issues });
    }

    async #send(endpoint, method, path, query, body, reply, signal) {
      const o = this.#o;
      let url = `${o.baseUrl}/manage/api/${path}`;
      const q = [...(endpoint === 'login-user' ? [] : [['token', o.token ?? '']]), ...query].map(([k, v]) => `${k}=${enc(String(v))}`);
      if (endpoint !== 'login-user' && o.token == null) throw new ConfigError(`${endpoint}: no token`, { endpoint });
      if (q.length) url += `?${q.join('&')}`;
      let res;
      for (let attempt = 0; ; attempt++) {
        if (signal?.aborted) throw new AbortError(`${endpoint}: the call was aborted`, { endpoint }, signal.reason);
        const ctl = new AbortController();
        const onAbort = () => ctl.abort(signal.reason);
        signal?.addEventListener('abort', onAbort, { once: true });
        const timer = o.timeoutMs > 0 ? setTimeout(() => ctl.abort(new DOMException('timeout', 'TimeoutError')), o.timeoutMs) : undefined;
        let failure, text;
        try {
          res = await o.fetch(url, { method, headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' }, body, signal: ctl.signal });
          text = await res.text();
        } catch (e) {
          if (signal?.aborted) throw new AbortError(`${endpoint}: the call was aborted`, { endpoint }, signal.reason);
          failure = ctl.signal.aborted
            ? new TimeoutError(`${endpoint}: no answer within ${o.timeoutMs} ms`, { endpoint, timeoutMs: o.timeoutMs })
            : new NetworkError(`${endpoint}: ${this.#clean(e?.message)}`, { endpoint });
        } finally {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        }
        const transient = failure || res.status === 429 || res.status >= 500;
        if (!(transient && method === 'GET' && attempt < o.maxRetries)) {
          if (failure) throw failure;
          return this.#decode(endpoint, res.status, text, reply);
        }
        const after = Number(res?.headers?.get?.('retry-after'));
        await sleep(after >= 0 && after <= 60 ? after * 1000 : o.retryDelayMs * 2 ** attempt, signal)
          .catch((e) => { throw new AbortError(`${endpoint}: the call was aborted`, { endpoint }, e); });
      }
    }

    #decode(endpoint, status, text, [schema, accepts = ['00'], derive]) {
      let body;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      // Not an envelope: a decode error on 2xx, else the HTTP status with an excerpt.
      if (body === null || typeof body !== 'object' || Array.isArray(body) || typeof body.respCode !== 'string' || !(body.msg == null || typeof body.msg === 'string')) {
        if (status >= 200 && status < 300) throw new DecodeError(`${endpoint}: not an API envelope`, { endpoint, status, path: '.' });
        throw new HttpError(`${endpoint}: HTTP ${status}`, { endpoint, status, excerpt: this.#clean(text.trim().slice(0, 200)) });
      }
      const code = body.respCode, msg = body.msg ?? '';
      if (!accepts.includes(code)) {
        const { reason, basis } = decodeCode(endpoint, code, msg);
        const [category, retryable, explanation] = REASONS[reason];
        const availableSlots = reason === 'notEnoughSlots' && msg.toLowerCase().includes('available') ? numbers(msg)[0] : undefined;
        throw new ApiError(`${endpoint}: respCode ${this.#clean(code)}: ${this.#clean(msg)}`, {
          endpoint, code: this.#clean(code), msg: this.#clean(msg), status, reason, category, basis, retryable, explanation, availableSlots,
        });
      }
      const r = adapter.parse(schema, body);
      if (r.path !== undefined) throw new DecodeError(`${endpoint}: the reply does not fit at ${this.#clean(r.path)}`, { endpoint, status, path: this.#clean(r.path) });
      return derive ? Object.assign(r.value, derive(r.value, code)) : r.value;
    }

    async #create(users, options = {}) {
      this.#check('create-multi-user', validators.validateCreateUsers, users);
      const o = this.#o, key = `${o.baseUrl}\n${o.token}`, { guard, intervalMs } = o.createInterval;
      for (;;) {
        const at = (lastCreate.get(key) ?? -Infinity) + intervalMs;
        if (guard === 'off' || at <= Date.now()) break;
        if (!(options.waitForInterval || guard === 'wait')) {
          throw new IntervalError('create-multi-user: inside the 10-minute interval', { endpoint: 'create-multi-user', nextAllowedAt: new Date(at), waitMs: at - Date.now() });
        }
        await sleep(at - Date.now(), options.signal);
      }
      lastCreate.set(key, Date.now());
      const reply = await this.#send('create-multi-user', 'POST', 'users/create-multi-user', [], JSON.stringify({ users }), [schemas.CreateUsersReply, ['00', '13'], (v, code) => {
        const created = v.users.filter((u) => u.success).length;
        return { respCode: code, created, failed: v.users.length - created, msgCounts: counts(v.msg ?? '', 'success', 'error') };
      }], options.signal);
      // As lpm-client: the echoed passwords left out unless asked for.
      if (!options.keepPasswords) for (const u of reply.users) delete u.password;
      return reply;
    }

    nextCreateAllowedAt() {
      const o = this.#o, at = (lastCreate.get(`${o.baseUrl}\n${o.token}`) ?? -Infinity) + o.createInterval.intervalMs;
      return o.createInterval.guard !== 'off' && at > Date.now() ? new Date(at) : null;
    }

    createUsers(users, options) { return this.#create(users, options); }
    createUser(user, options) { return this.#create([user], options); }

    async createSingleUserRaw(user, options = {}) {
      this.#check('create-single-user', validators.validateCreateUser, user);
      return this.#send('create-single-user', 'POST', 'users/create-single-user', [], JSON.stringify(user), [schemas.RawReply, ['00']], options.signal);
    }

    async #page(endpoint, check, path, schema, params = {}, options = {}) {
      this.#check(endpoint, check, params);
      return this.#send(endpoint, 'GET', path, [['start', params?.start ?? 0], ['limit', params?.limit ?? 100]], undefined, [schema], options.signal);
    }

    async getUsers(params, options) { return this.#page('get-multi-user', validators.validateGetUsers, 'users/get-multi-user', schemas.UserList, params, options); }
    async getCourses(params, options) { return this.#page('get-multi-course', validators.validateGetCourses, 'courses/get-multi-course', schemas.CourseList, params, options); }

    async getUser(id, options = {}) {
      this.#check('get-single-user', validators.validateId, id);
      return this.#send('get-single-user', 'GET', `${this.#o.userPath}/get-single-user/${enc(id)}`, [], undefined, [schemas.UserReply], options.signal);
    }

    async getMe(options = {}) {
      return this.#send('get-me', 'GET', 'users/get-me', [], undefined, [schemas.UserReply], options.signal);
    }

    async searchUser(params, options = {}) {
      this.#check('search-user', validators.validateSearchUser, params);
      const q = ['email', 'username'].filter((k) => typeof params[k] === 'string' && params[k].trim()).map((k) => [k, params[k]]);
      return this.#send('search-user', 'GET', 'users/search-user', q, undefined, [schemas.UserReply], options.signal);
    }

    async getCourse(id, options = {}) {
      this.#check('get-single-course', validators.validateId, id);
      return this.#send('get-single-course', 'GET', `courses/get-single-course/${enc(id)}`, [], undefined, [schemas.CourseReply], options.signal);
    }

    async searchCourses(title, options = {}) {
      this.#check('search-course', validators.validateSearchCourses, title);
      return this.#send('search-course', 'GET', 'courses/search-course', [['title', title]], undefined, [schemas.CourseList], options.signal);
    }

    async addCoursesToUsers(input, options = {}) {
      this.#check('add-multi-course-to-multi-user', validators.validateAddCourses, input);
      const body = JSON.stringify({ users: input.users, courses: input.courses });
      return this.#send('add-multi-course-to-multi-user', 'POST', 'courses/add-multi-course-to-multi-user', [], body, [schemas.AddCoursesReply, ['00'], (v) => {
        const ok = v.result.filter((x) => x.success).length;
        return { succeeded: ok, failed: v.result.length - ok, msgCounts: counts(v.msg ?? '', 'thành công', 'lỗi') };
      }], options.signal);
    }

    async login(email, password, options = {}) {
      this.#check('login-user', validators.validateLogin, { email, password });
      return this.#send('login-user', 'POST', 'users/login-user', [], JSON.stringify({ email, password }), [schemas.LoginReply], options.signal);
    }

    async *allUsers(options) { yield* this.#all((p) => this.getUsers(p, options), 'users'); }
    async *allCourses(options) { yield* this.#all((p) => this.getCourses(p, options), 'courses'); }
    async *#all(get, key) {
      for (let start = 0; ;) {
        const items = (await get({ start, limit: 100 }))[key];
        yield* items;
        if (items.length < 100) return;
        start += items.length;
      }
    }
  };
}
