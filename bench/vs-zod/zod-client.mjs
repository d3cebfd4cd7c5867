// The competitor: what a careful TypeScript team would write by hand for the same two list
// endpoints and the same account-creation rules, with zod 4. Written from the contract's field
// tables (/work/shared/spec/management-api.md) and kept to the checks the Rust core makes
// (src/model/*.rs, src/validate.rs), so both sides do the same work:
//
// - every record is a loose object (`z.looseObject`): keys the contract does not list are kept, as
//   the Rust core keeps them in its `extra` maps;
// - timestamps and identifiers are plain strings (the core keeps them as the server's strings and
//   does not parse dates);
// - open value sets (course type, sourceType, docs type, cart status) are "known values or any other
//   string", the same type the package's .d.ts gives them;
// - optional fields are `.optional()` (the contract: "omitted when they have no value"). The Rust
//   core also lets them be `null` (serde's Option); no fixture has such a null.
//
// Plain JS (.mjs) so it runs and bundles without a TypeScript step; the types a TS team would get
// are `z.infer<typeof Course>` etc.
import * as z from 'zod';

// ---- records ------------------------------------------------------------------------------------

/** "One of the values the contract names, or any other string as received." */
const openEnum = (...known) => z.union([z.enum(known), z.string()]);

const Timestamp = z.string();

const ContentItem = z.looseObject({ content: z.string().optional() }); // an element may be `{}`

const Trailer = z.looseObject({
  source: z.string(),
  sourceType: openEnum('UPLOAD', 'EMBED'),
  sourceName: z.string(),
});

const DiscountTime = z.looseObject({ start: Timestamp.optional(), end: Timestamp.optional() }); // or `{}`

const Price = z.looseObject({
  original: z.number(),
  discount_enable: z.boolean().nullable().optional(),
  use_private_discount: z.boolean().nullable().optional(),
  private_discount_price: z.number().optional(),
  private_discount_time: DiscountTime,
});

const Affiliates = z.looseObject({ // every field optional; the object may be `{}`
  enable: z.boolean().optional(),
  use_private: z.boolean().optional(),
  use_basic_discount_percent: z.boolean().optional(),
  basic_discount_percent: z.number().optional(),
  use_basic_payout_percent: z.boolean().optional(),
  basic_payout_value: z.record(z.string(), z.number()).optional(), // level name → number; may be `{}`
  basic_payout_percent: z.record(z.string(), z.unknown()).optional(), // shape not shown; may be `{}`
  basic_discount_price: z.number().optional(),
});

const CreditShared = z.looseObject({
  enable: z.boolean(),
  use_private_value: z.boolean(),
  value: z.number(),
});

const ImageMeta = z.looseObject({ pipePath: z.string() });

const ImageOriginal = z.looseObject({
  path: z.string(),
  size: z.number().int().nonnegative(), // bytes
  type: z.string(), // MIME type
  extension: z.string(),
  meta: ImageMeta,
  url: z.string(),
});

const ImageVariant = z.looseObject({ meta: ImageMeta, url: z.string() });

// Members optional, as in the Rust core (a set may be partial while thumbnails are being made).
const ImageSet = z.looseObject({
  original: ImageOriginal.optional(),
  thumbnail160: ImageVariant.optional(),
  preview: ImageVariant.optional(),
});

const Doc = z.looseObject({
  title: z.string(),
  type: openEnum('VIDEO', 'PDF'),
  source: z.string().optional(),
  sourceType: openEnum('UPLOAD', 'EMBED'),
  sourceName: z.string().optional(),
});

export const Course = z.looseObject({
  _id: z.string(),
  refId: z.string(),
  title: z.string(),
  slug: z.string(),
  approval: z.boolean(),
  type: openEnum('SALE', 'UPCOMMING'),
  label: z.string(),
  headline: z.string(),
  description: z.string(),
  requirement: z.string().optional(),
  inCombo: z.array(z.unknown()),
  purpose: z.array(ContentItem),
  target_audience: z.array(ContentItem),
  tag: z.array(z.unknown()),
  category: z.array(z.string()),
  instructor: z.array(z.string()),
  topic: z.string(),
  chapters: z.array(z.string()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  trailer: Trailer,
  price: Price,
  affiliates: Affiliates,
  credit_shared: CreditShared,
  image_detail: ImageSet.optional(),
  image_primary: ImageSet.optional(),
  docs: z.array(Doc).optional(),
});

const UserEmail = z.looseObject({ address: z.string(), verified: z.boolean() });

const Profile = z.looseObject({
  name: z.string(),
  phone: z.string().optional(),
  avatar: z.looseObject({ imageId: z.string(), imageLink: z.string() }).optional(),
  affUserType: z.string().optional(),
  tUid: z.string().optional(),
});

const Enrolment = z.looseObject({
  courseId: z.string(),
  activatedDate: Timestamp,
  expiredAt: Timestamp,
  currentLesson: z.looseObject({
    chapterId: z.string(),
    lessonId: z.string(),
    lessonSlug: z.string(),
    currentTime: z.number(),
  }).optional(),
  lessonStatus: z.array(z.looseObject({ lessonId: z.string(), finish: z.boolean() })).optional(),
  finish: z.boolean().optional(),
});

export const User = z.looseObject({
  _id: z.string(),
  createdAt: Timestamp,
  username: z.string(),
  emails: z.array(UserEmail),
  profile: Profile,
  forSeller: z.looseObject({ callDistrCoeff: z.number(), getCall: z.boolean() }).optional(),
  myCourses: z.array(Enrolment).optional(),
  myCart: z.array(z.looseObject({ courseId: z.string(), status: openEnum('DELETED') })).optional(),
  balance: z.record(z.string(), z.unknown()).optional(), // inner fields not shown
  myTransactions: z.array(z.string()).optional(),
});

// Success envelopes (`respCode` is checked before these are applied).
const envelope = (key, item) => z.looseObject({
  respCode: z.literal('00'),
  msg: z.string().optional(),
  [key]: z.array(item),
});
export const CourseList = envelope('courses', Course);
export const UserList = envelope('users', User);

// ---- account creation ---------------------------------------------------------------------------

const notBlank = (s) => s.trim().length > 0;

export const NewUser = z.strictObject({ // unknown keys are reported (likely typos), as the core does
  name: z.string().refine(notBlank, 'required').refine((s) => s.trim().length >= 3, 'too_short'),
  username: z.string().regex(/^[A-Za-z0-9]{3,20}$/, '3 to 20 letters or digits'),
  email: z.email(),
  password: z.string().refine(notBlank, 'required').min(6).max(35),
  phone: z.string().optional(),
  city: z.string().optional(),
  district: z.string().optional(),
  street: z.string().optional(),
  gender: z.string().optional(),
  job: z.string().optional(),
});

/**
 * A create-multi-user batch: 1 to 100 items, no e-mail (trimmed, any case) or username (trimmed, any
 * case) twice, reported on the later item. Like the core, it reports every finding at once: the
 * duplicate check runs also when some items failed (`when`), so it reads the items defensively.
 */
export const NewUsers = z.array(NewUser).min(1).max(100).superRefine((items, ctx) => {
  if (!Array.isArray(items)) return;
  const emails = new Map();
  const usernames = new Map();
  items.forEach((item, i) => {
    if (item === null || typeof item !== 'object') return;
    if (typeof item.email === 'string' && item.email.trim()) {
      const email = item.email.trim().toLowerCase();
      if (emails.has(email)) {
        ctx.addIssue({ code: 'custom', path: [i, 'email'], message: `Email already listed in row ${emails.get(email) + 1}` });
      } else emails.set(email, i);
    }
    if (typeof item.username === 'string' && item.username.trim()) {
      const username = item.username.trim().toLowerCase();
      if (usernames.has(username)) {
        ctx.addIssue({ code: 'custom', path: [i, 'username'], message: `Username already listed in row ${usernames.get(username) + 1}` });
      } else usernames.set(username, i);
    }
  });
}, { when: () => true });

// ---- client -------------------------------------------------------------------------------------

/** A non-`00` respCode (`respCode`, `msg` kept), or a body that is not JSON. */
export class ApiError extends Error {
  constructor(endpoint, status, respCode, msg) {
    super(`${endpoint}: respCode ${respCode}${msg ? `: ${msg}` : ''} (HTTP ${status})`);
    this.name = 'ApiError';
    Object.assign(this, { endpoint, status, respCode, msg });
  }
}

export class ZodClient {
  constructor({ baseUrl, token, fetch = globalThis.fetch }) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.token = token;
    this.fetch = fetch;
  }

  async #get(endpoint, path, params, schema) {
    const url = new URL(`${this.baseUrl}/manage/api/${path}`);
    url.searchParams.set('token', this.token);
    for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, String(v));
    const res = await this.fetch(url.href, { method: 'GET', headers: { accept: 'application/json' } });
    const text = await res.text();
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      throw new ApiError(endpoint, res.status, undefined, 'the body is not JSON');
    }
    if (body === null || typeof body !== 'object' || body.respCode !== '00') {
      throw new ApiError(endpoint, res.status, body?.respCode, body?.msg);
    }
    return schema.parse(body); // throws a ZodError when the body does not fit
  }

  /** A page of courses; limit 0..100. */
  getCourses({ start = 0, limit = 100 } = {}) {
    return this.#get('get-multi-course', 'courses/get-multi-course', { start, limit }, CourseList);
  }

  /** A page of accounts; limit 1..100. */
  getUsers({ start = 0, limit = 100 } = {}) {
    return this.#get('get-multi-user', 'users/get-multi-user', { start, limit }, UserList);
  }
}
