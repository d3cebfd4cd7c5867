// The valibot peer: the same client as zod-client.mjs, written with valibot 1 (the small,
// tree-shakable schema library): the same records, the same input rules, the same non-schema parts
// (shared.mjs). Field by field it mirrors zod-client.mjs; see there for the choices (loose
// records, open value sets, optional = omitted or null).
import * as v from 'valibot';
import { makePeer, replySchemas, rules, requiredOrNotString, CREATE_FIELDS } from './shared.mjs';

// ---- records ------------------------------------------------------------------------------------

const obj = v.looseObject;
const opt = v.nullish;
const str = v.string();
const num = v.number();
const bool = v.boolean();

/** "One of the values the contract names, or any other string as received." */
const openEnum = (...known) => v.union([v.picklist(known), str]);

const Timestamp = str;
const ContentItem = obj({ content: opt(str) });
const Trailer = obj({ source: str, sourceType: openEnum('UPLOAD', 'EMBED'), sourceName: str });
const DiscountTime = obj({ start: opt(Timestamp), end: opt(Timestamp) });
const Price = obj({
  original: num,
  discount_enable: opt(bool),
  use_private_discount: opt(bool),
  private_discount_price: opt(num),
  private_discount_time: DiscountTime,
});
const Affiliates = obj({
  enable: opt(bool),
  use_private: opt(bool),
  use_basic_discount_percent: opt(bool),
  basic_discount_percent: opt(num),
  use_basic_payout_percent: opt(bool),
  basic_payout_value: opt(v.record(str, num)),
  basic_payout_percent: opt(v.record(str, v.unknown())),
  basic_discount_price: opt(num),
});
const CreditShared = obj({ enable: bool, use_private_value: bool, value: num });
const ImageMeta = obj({ pipePath: str });
const ImageOriginal = obj({
  path: str,
  size: v.pipe(num, v.integer(), v.minValue(0)),
  type: str,
  extension: str,
  meta: ImageMeta,
  url: str,
});
const ImageVariant = obj({ meta: ImageMeta, url: str });
const ImageSet = obj({ original: opt(ImageOriginal), thumbnail160: opt(ImageVariant), preview: opt(ImageVariant) });
const Doc = obj({
  title: str,
  type: openEnum('VIDEO', 'PDF'),
  source: opt(str),
  sourceType: openEnum('UPLOAD', 'EMBED'),
  sourceName: opt(str),
});

export const Course = obj({
  _id: str,
  refId: str,
  title: str,
  slug: str,
  approval: bool,
  type: openEnum('SALE', 'UPCOMMING'),
  label: str,
  headline: str,
  description: str,
  requirement: opt(str),
  inCombo: v.array(v.unknown()),
  purpose: v.array(ContentItem),
  target_audience: v.array(ContentItem),
  tag: v.array(v.unknown()),
  category: v.array(str),
  instructor: v.array(str),
  topic: str,
  chapters: v.array(str),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  trailer: Trailer,
  price: Price,
  affiliates: Affiliates,
  credit_shared: CreditShared,
  image_detail: opt(ImageSet),
  image_primary: opt(ImageSet),
  docs: opt(v.array(Doc)),
});

const UserEmail = obj({ address: str, verified: bool });
const Profile = obj({
  name: str,
  phone: opt(str),
  avatar: opt(obj({ imageId: str, imageLink: str })),
  affUserType: opt(str),
  tUid: opt(str),
});
const Enrolment = obj({
  courseId: str,
  activatedDate: Timestamp,
  expiredAt: Timestamp,
  currentLesson: opt(obj({ chapterId: str, lessonId: str, lessonSlug: str, currentTime: num })),
  lessonStatus: opt(v.array(obj({ lessonId: str, finish: bool }))),
  finish: opt(bool),
});

export const User = obj({
  _id: str,
  createdAt: Timestamp,
  username: str,
  emails: v.array(UserEmail),
  profile: Profile,
  forSeller: opt(obj({ callDistrCoeff: num, getCall: bool })),
  myCourses: opt(v.array(Enrolment)),
  myCart: opt(v.array(obj({ courseId: str, status: openEnum('DELETED') }))),
  balance: opt(v.record(str, v.unknown())),
  myTransactions: opt(v.array(str)),
});

const CreatedUser = obj({
  name: opt(str),
  username: opt(str),
  email: opt(str),
  password: opt(str),
  userId: opt(str),
  success: bool,
  status: openEnum('Success created', 'Email already in use', 'Username already in use',
    'Not enough required infomation to create new user', 'Server error in create new use'),
});
const ValidCourse = obj({ _id: str, title: str });
const AddCourseOutcome = obj({ userId: str, success: bool, status: openEnum('Success') });

const replies = replySchemas((entries) => obj({ msg: v.optional(str), ...entries }), v.array, str,
  { User, Course, CreatedUser, ValidCourse, AddCourseOutcome });

// ---- inputs (messages are issue keys, rendered by shared.mjs) ------------------------------------

const text = (...checks) => v.pipe(v.string((iss) => requiredOrNotString(iss.input)), v.check(rules.notBlank, 'required'), ...checks);
const optional = v.nullish(v.string('not_string'));
const email = text(v.check(rules.email, 'invalid_email'));

/** An object schema's message: a missing key reports what its entry would report for `undefined`. */
const objectMessage = (missing, other) => (iss) => (iss.expected?.startsWith('"') ? missing : other);
// valibot's object schemas take arrays too: refuse them first, as the core does.
const notArray = v.custom((x) => !Array.isArray(x), 'not_object');
export const NewUser = v.pipe(notArray, v.objectWithRest({
  name: text(v.check(rules.nameLong, 'too_short:3')),
  username: text(v.check(rules.usernameShort, 'too_short:3'), v.check(rules.usernameLong, 'too_long:20'),
    v.check(rules.usernameChars, 'invalid_chars')),
  email,
  password: text(v.check(rules.passwordShort, 'too_short:6'), v.check(rules.passwordLong, 'too_long:35')),
  ...Object.fromEntries(CREATE_FIELDS.slice(4).map((k) => [k, optional])),
}, v.never('unknown_field'), objectMessage('required', 'not_object')));

const int = (min, max) => v.nullish(v.pipe(v.number('not_integer'), v.check(rules.integer, 'not_integer'),
  v.check((n) => !rules.integer(n) || n >= min, `too_small:${min}`),
  v.check((n) => max === undefined || !rules.integer(n) || n <= max, `too_large:${max}`)));
const id = text(v.check(rules.notDots, 'dot_segment'));
const ids = v.array(id, 'not_array');

export const inputs = {
  NewUsers: v.array(NewUser, 'not_array'), // length and duplicates: shared batchIssues
  NewUser,
  UsersPage: obj({ start: int(0), limit: int(1, 100) }),
  CoursesPage: obj({ start: int(0), limit: int(0, 100) }),
  SearchUser: obj({ email: v.nullish(v.pipe(v.string('not_string'), v.check(rules.email, 'invalid_email'))), username: optional }),
  Title: text(),
  Id: id,
  AddCourses: obj({ users: ids, courses: ids }, objectMessage('not_array')),
  Login: obj({ email, password: text() }, objectMessage('required')),
};

// ---- adapter and client --------------------------------------------------------------------------

const keys = (issue) => (issue.path || []).map((p) => p.key);
const adapter = {
  parse(schema, value) {
    const r = v.safeParse(schema, value, { abortEarly: true });
    return r.success ? { value: r.output } : { path: `.${keys(r.issues[0]).join('.')}` };
  },
  issues(schema, value) {
    const r = v.safeParse(schema, value);
    return r.success ? [] : r.issues.map((i) => ({ path: keys(i), message: i.message }));
  },
};

export const { Client, validators, errors, validateCreateUsers, validateCreateUser, validateGetUsers, validateGetCourses,
  validateSearchUser, validateSearchCourses, validateId, validateAddCourses, validateLogin } = makePeer(adapter, replies, inputs);
