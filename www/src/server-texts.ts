// The platform's own words in the dashboard's languages: what each `respCode` means (by the
// package's `reason`, decoded per endpoint in Rust) and the per-row statuses the platform answers.
// One table, beside the validation messages (which the package itself gives in vi/en): keyed by
// the package's generated types, so a reason the package adds fails the build until it is told.
import type { Reason } from "lpm-client";
import { getLang } from "./i18n";

const REASONS: Record<Reason, readonly [vi: string, en: string]> = {
  wrongMethod: ["Máy chủ từ chối cách gọi này.", "The server refused this kind of call."],
  noBody: ["Yêu cầu không có nội dung.", "The request had no body."],
  noUsersArray: ["Yêu cầu thiếu danh sách tài khoản.", "The request has no account list."],
  usersNotArray: ["Danh sách tài khoản không đúng dạng.", "The account list is not a list."],
  usersEmpty: ["Danh sách tài khoản trống.", "The account list is empty."],
  noToken: ["Chưa gửi token.", "No token was sent."],
  cannotAuthenticate: ["Máy chủ chưa xác thực được tài khoản của bạn; thử lại sau ít phút.", "The server could not authenticate your account; try again in a moment."],
  invalidToken: ["Token sai hoặc đã hết hạn.", "The token is wrong or has expired."],
  noPermission: ["Tài khoản này không có quyền quản trị.", "This account has no admin permission."],
  cannotCheckResources: ["Máy chủ chưa kiểm tra được tài nguyên trang của bạn; thử lại sau.", "The server could not check your site's resources; try again later."],
  capacityExhausted: ["Nền tảng đã hết chỗ cho tài khoản mới.", "The platform has no room for more accounts."],
  notEnoughSlots: ["Nền tảng không còn đủ chỗ cho ngần ấy tài khoản.", "The platform has not enough room for that many accounts."],
  allItemsFailed: ["Không tạo được tài khoản nào.", "No account could be created."],
  noId: ["Thiếu mã.", "No id was given."],
  userNotFound: ["Không tìm thấy tài khoản.", "No such account."],
  noStartParameter: ["Thiếu vị trí bắt đầu.", "No start position was given."],
  invalidStartParameter: ["Vị trí bắt đầu không hợp lệ.", "The start position is not valid."],
  noEmail: ["Chưa nhập e-mail.", "No e-mail was given."],
  noPassword: ["Chưa nhập mật khẩu.", "No password was given."],
  wrongEmail: ["Không có tài khoản nào với e-mail này.", "No account has this e-mail."],
  wrongPassword: ["Sai mật khẩu.", "Wrong password."],
  cannotCheckPassword: ["Máy chủ chưa kiểm tra được mật khẩu; thử lại sau ít phút.", "The server could not check the password; try again in a moment."],
  cannotGenerateToken: ["Máy chủ chưa tạo được token; thử lại sau ít phút.", "The server could not make a token; try again in a moment."],
  emailInUse: ["E-mail này đã thuộc về một tài khoản khác.", "This e-mail belongs to an existing account."],
  usernameInUse: ["Tên đăng nhập này đã thuộc về một tài khoản khác.", "This username belongs to an existing account."],
  missingFields: ["Thiếu thông tin bắt buộc (họ tên, tên đăng nhập, mật khẩu).", "A required field (name, username, password) is missing."],
  createFailed: ["Máy chủ chưa tạo được tài khoản; thử lại sau.", "The server could not create the account; try again later."],
  courseNotFound: ["Không tìm thấy khoá học.", "No such course."],
  unknown: ["Máy chủ trả lời một mã lỗi chưa biết.", "The server answered with an unknown error code."],
};

/** The statuses the platform writes per row (spelled as it spells them), and what they mean. */
const STATUSES: Record<string, readonly [vi: string, en: string]> = {
  "Success created": ["Đã tạo", "Created"],
  "Email already in use": ["E-mail đã được dùng cho tài khoản khác", "The e-mail is already in use"],
  "Username already in use": ["Tên đăng nhập đã được dùng cho tài khoản khác", "The username is already in use"],
  "Not enough required infomation to create new user": ["Thiếu thông tin bắt buộc để tạo tài khoản", "Required information is missing"],
  "Server error in create new use": ["Máy chủ gặp lỗi khi tạo tài khoản này", "The server failed to create this account"],
  Success: ["Thành công", "Success"],
  "User not found": ["Không tìm thấy tài khoản", "No such account"],
};

const pick = (pair: readonly [string, string]) => pair[getLang() === "vi" ? 0 : 1];

/** What `reason` means, in the current language. */
export function reasonText(reason: Reason): string {
  return pick(REASONS[reason] ?? REASONS.unknown);
}

/** A per-row status in the current language; one the table does not know is shown as it came. */
export function statusText(status: string): string {
  const known = STATUSES[status];
  return known ? pick(known) : status;
}
