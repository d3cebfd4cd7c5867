// The zod peer: the client a careful TypeScript team would write by hand with zod 4, covering what
// lpm-client covers (every endpoint, every input validator with the same rules, per-endpoint
// respCode decoding: the non-schema parts are in shared.mjs, shared with the valibot peer).
// Records written from the contract's field tables (/work/shared/spec/management-api.md) and kept
// to the checks the Rust core makes (src/model/*.rs, src/rules/):
//
// - every record is a loose object (`z.looseObject`): keys the contract does not list are kept, as
//   the Rust core keeps them in its `extra` maps;
// - timestamps and identifiers are plain strings (the core keeps them as the server's strings);
// - open value sets (course type, sourceType, docs type, statuses) are "known values or any other
//   string", the same type the package's .d.ts gives them;
// - optional fields are `.nullish()`: omitted or null, as serde's `Option` reads them.
//
// Plain JS (.mjs) so it runs and bundles without a TypeScript step; the types a TS team would get
// are `z.infer<typeof Course>` etc.
import * as z from 'zod';
import { makePeer, replySchemas, rules, requiredOrNotString, CREATE_FIELDS } from './shared.mjs';

// ---- records ------------------------------------------------------------------------------------

/** "One of the values the contract names, or any other string as received." */
const openEnum = (...known) => z.union([z.enum(known), z.string()]);

const Timestamp = z.string();

const ContentItem = z.looseObject({ content: z.string().nullish() }); // an element may be `{}`

const Trailer = z.looseObject({
  source: z.string(),
  sourceType: openEnum('UPLOAD', 'EMBED'),
  sourceName: z.string(),
});

const DiscountTime = z.looseObject({ start: Timestamp.nullish(), end: Timestamp.nullish() }); // or `{}`

const Price = z.looseObject({
  original: z.number(),
  discount_enable: z.boolean().nullish(),
  use_private_discount: z.boolean().nullish(),
  private_discount_price: z.number().nullish(),
  private_discount_time: DiscountTime,
});

const Affiliates = z.looseObject({ // every field optional; the object may be `{}`
  enable: z.boolean().nullish(),
  use_private: z.boolean().nullish(),
  use_basic_discount_percent: z.boolean().nullish(),
  basic_discount_percent: z.number().nullish(),
  use_basic_payout_percent: z.boolean().nullish(),
  basic_payout_value: z.record(z.string(), z.number()).nullish(), // level name → number; may be `{}`
  basic_payout_percent: z.record(z.string(), z.unknown()).nullish(), // shape not shown; may be `{}`
  basic_discount_price: z.number().nullish(),
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
  original: ImageOriginal.nullish(),
  thumbnail160: ImageVariant.nullish(),
  preview: ImageVariant.nullish(),
});

const Doc = z.looseObject({
  title: z.string(),
  type: openEnum('VIDEO', 'PDF'),
  source: z.string().nullish(),
  sourceType: openEnum('UPLOAD', 'EMBED'),
  sourceName: z.string().nullish(),
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
  requirement: z.string().nullish(),
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
  image_detail: ImageSet.nullish(),
  image_primary: ImageSet.nullish(),
  docs: z.array(Doc).nullish(),
});

const UserEmail = z.looseObject({ address: z.string(), verified: z.boolean() });

const Profile = z.looseObject({
  name: z.string(),
  phone: z.string().nullish(),
  avatar: z.looseObject({ imageId: z.string(), imageLink: z.string() }).nullish(),
  affUserType: z.string().nullish(),
  tUid: z.string().nullish(),
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
  }).nullish(),
  lessonStatus: z.array(z.looseObject({ lessonId: z.string(), finish: z.boolean() })).nullish(),
  finish: z.boolean().nullish(),
});

export const User = z.looseObject({
  _id: z.string(),
  createdAt: Timestamp,
  username: z.string(),
  emails: z.array(UserEmail),
  profile: Profile,
  forSeller: z.looseObject({ callDistrCoeff: z.number(), getCall: z.boolean() }).nullish(),
  myCourses: z.array(Enrolment).nullish(),
  myCart: z.array(z.looseObject({ courseId: z.string(), status: openEnum('DELETED') })).nullish(),
  balance: z.record(z.string(), z.unknown()).nullish(), // inner fields not shown
  myTransactions: z.array(z.string()).nullish(),
});

const CreatedUser = z.looseObject({
  name: z.string().nullish(),
  username: z.string().nullish(),
  email: z.string().nullish(),
  password: z.string().nullish(),
  userId: z.string().nullish(),
  success: z.boolean(),
  status: openEnum('Success created', 'Email already in use', 'Username already in use',
    'Not enough required infomation to create new user', 'Server error in create new use'),
});
const ValidCourse = z.looseObject({ _id: z.string(), title: z.string() });
const AddCourseOutcome = z.looseObject({ userId: z.string(), success: z.boolean(), status: openEnum('Success') });

const replies = replySchemas((shape) => z.looseObject({ msg: z.string().optional(), ...shape }), z.array, z.string(),
  { User, Course, CreatedUser, ValidCourse, AddCourseOutcome });

// ---- inputs (messages are issue keys, rendered by shared.mjs) ------------------------------------

const str = z.string({ error: (iss) => requiredOrNotString(iss.input) });
const required = str.refine(rules.notBlank, 'required');
const optional = z.string({ error: 'not_string' }).nullish();
const email = required.refine(rules.email, 'invalid_email');

export const NewUser = z.object({
  name: required.refine(rules.nameLong, 'too_short:3'),
  username: required.refine(rules.usernameShort, 'too_short:3').refine(rules.usernameLong, 'too_long:20')
    .refine(rules.usernameChars, 'invalid_chars'),
  email,
  password: required.refine(rules.passwordShort, 'too_short:6').refine(rules.passwordLong, 'too_long:35'),
  ...Object.fromEntries(CREATE_FIELDS.slice(4).map((k) => [k, optional])),
}, { error: 'not_object' }).strict(); // unknown keys: one `unrecognized_keys` issue, spread per key below

const int = (min, max) => z.number({ error: 'not_integer' }).refine(rules.integer, 'not_integer')
  .refine((n) => !rules.integer(n) || n >= min, `too_small:${min}`)
  .refine((n) => max === undefined || !rules.integer(n) || n <= max, `too_large:${max}`).nullish();
const id = required.refine(rules.notDots, 'dot_segment');
const ids = z.array(id, { error: 'not_array' });

export const inputs = {
  NewUsers: z.array(NewUser, { error: 'not_array' }), // length and duplicates: shared batchIssues
  NewUser,
  UsersPage: z.looseObject({ start: int(0), limit: int(1, 100) }),
  CoursesPage: z.looseObject({ start: int(0), limit: int(0, 100) }),
  SearchUser: z.looseObject({ email: optional.refine((s) => s == null || rules.email(s), 'invalid_email'), username: optional }),
  Title: required,
  Id: id,
  AddCourses: z.looseObject({ users: ids, courses: ids }),
  Login: z.looseObject({ email, password: required }),
};

// ---- adapter and client --------------------------------------------------------------------------

const adapter = {
  parse(schema, value) {
    const r = schema.safeParse(value);
    return r.success ? { value: r.data } : { path: `.${r.error.issues[0].path.join('.')}` };
  },
  issues(schema, value) {
    const r = schema.safeParse(value);
    if (r.success) return [];
    return r.error.issues.flatMap((i) => (i.code === 'unrecognized_keys'
      ? i.keys.map((k) => ({ path: [...i.path, k], message: 'unknown_field' }))
      : [{ path: i.path, message: i.message }]));
  },
};

export const { Client, validators, errors, validateCreateUsers, validateCreateUser, validateGetUsers, validateGetCourses,
  validateSearchUser, validateSearchCourses, validateId, validateAddCourses, validateLogin } = makePeer(adapter, replies, inputs);
