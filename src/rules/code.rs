//! The issue codes: one enum, each with its English and Vietnamese message, matched
//! exhaustively (a new code cannot go without its messages). TypeScript sees the union of the
//! codes' strings.

use serde::{Serialize, Serializer};

/// A stable machine code of a finding, as a snake_case string (`"too_short"`).
// Serialized by `IssueCode::as_str`; the `serde` attribute names it for TypeScript, and a test
// holds the two together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[cfg_attr(feature = "wasm", serde(rename_all = "snake_case"))]
pub enum IssueCode {
    /// A required string is absent, `null`, or blank.
    Required,
    /// A field that must be a string holds another JSON type.
    NotString,
    /// `users` / `courses` is not an array.
    NotArray,
    /// `users` / `courses` is empty.
    Empty,
    /// More items than one call takes.
    TooMany,
    /// The parameters are not an object.
    ParamsNotObject,
    /// A creation item is not an object.
    NotObject,
    /// The same e-mail as an earlier item of the batch.
    DuplicateEmail,
    /// The same username as an earlier item of the batch.
    DuplicateUsername,
    /// `start` / `limit` is not an integer.
    NotInteger,
    /// Below the minimum.
    TooSmall,
    /// Above the maximum.
    TooLarge,
    /// search-user without an e-mail or a username.
    EmailOrUsernameRequired,
    /// An id that is `.` or `..`.
    DotSegment,
    /// Fewer characters than the platform takes.
    TooShort,
    /// More characters than the platform takes.
    TooLong,
    /// A username outside a-z A-Z 0-9.
    InvalidChars,
    /// An implausible e-mail address.
    InvalidEmail,
    /// A phone that is not a phone number.
    InvalidPhone,
    /// A key of a creation item the contract does not list.
    UnknownField,
    /// The same id twice in one add-courses list.
    DuplicateId,
    /// The value cannot be written as JSON (a cycle, a BigInt, NaN or Infinity).
    NotJson,
}

/// Its string: one table for serde, the crate's writer and the messages (a derive would be a
/// second one).
impl Serialize for IssueCode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}
impl crate::json::ser::Put for IssueCode {
    fn write(&self, o: &mut crate::json::ser::Object) {
        self.as_str().write(o);
    }
}

impl IssueCode {
    /// Every code.
    pub const ALL: [IssueCode; 22] = [
        IssueCode::Required,
        IssueCode::NotString,
        IssueCode::NotArray,
        IssueCode::Empty,
        IssueCode::TooMany,
        IssueCode::ParamsNotObject,
        IssueCode::NotObject,
        IssueCode::DuplicateEmail,
        IssueCode::DuplicateUsername,
        IssueCode::NotInteger,
        IssueCode::TooSmall,
        IssueCode::TooLarge,
        IssueCode::EmailOrUsernameRequired,
        IssueCode::DotSegment,
        IssueCode::TooShort,
        IssueCode::TooLong,
        IssueCode::InvalidChars,
        IssueCode::InvalidEmail,
        IssueCode::InvalidPhone,
        IssueCode::UnknownField,
        IssueCode::DuplicateId,
        IssueCode::NotJson,
    ];

    /// The code's string (`"too_short"`).
    #[inline(never)]
    pub fn as_str(self) -> &'static str {
        match self {
            IssueCode::Required => "required",
            IssueCode::NotString => "not_string",
            IssueCode::NotArray => "not_array",
            IssueCode::Empty => "empty",
            IssueCode::TooMany => "too_many",
            IssueCode::ParamsNotObject => "params_not_object",
            IssueCode::NotObject => "not_object",
            IssueCode::DuplicateEmail => "duplicate_email",
            IssueCode::DuplicateUsername => "duplicate_username",
            IssueCode::NotInteger => "not_integer",
            IssueCode::TooSmall => "too_small",
            IssueCode::TooLarge => "too_large",
            IssueCode::EmailOrUsernameRequired => "email_or_username_required",
            IssueCode::DotSegment => "dot_segment",
            IssueCode::TooShort => "too_short",
            IssueCode::TooLong => "too_long",
            IssueCode::InvalidChars => "invalid_chars",
            IssueCode::InvalidEmail => "invalid_email",
            IssueCode::InvalidPhone => "invalid_phone",
            IssueCode::UnknownField => "unknown_field",
            IssueCode::DuplicateId => "duplicate_id",
            IssueCode::NotJson => "not_json",
        }
    }

    /// The (English, Vietnamese) message template. Placeholders: `{field}` the field's label,
    /// `{field_lc}` the same in lower case, `{n}` a bound or a 1-based row. No template includes
    /// the submitted value.
    pub fn messages(self) -> (&'static str, &'static str) {
        match self {
            IssueCode::Required => (
                "{field} is required",
                "Bắt buộc nhập {field_lc}",
            ),
            IssueCode::NotString => (
                "{field} must be text",
                "{field} phải là chuỗi ký tự",
            ),
            IssueCode::NotArray => (
                "{field} must be an array",
                "{field} phải là một mảng (danh sách)",
            ),
            IssueCode::Empty => (
                "{field} must not be empty",
                "{field} không được để trống",
            ),
            IssueCode::TooMany => (
                "{field} can hold at most {n} items per request",
                "{field} chỉ được có tối đa {n} mục mỗi lần gửi",
            ),
            IssueCode::ParamsNotObject => (
                "The parameters must be an object",
                "Tham số phải là một đối tượng",
            ),
            IssueCode::NotObject => (
                "Each row must be an object with the account's fields",
                "Mỗi dòng phải là một đối tượng chứa các trường của tài khoản",
            ),
            IssueCode::DuplicateEmail => (
                "Email already used in row {n}",
                "Email đã xuất hiện ở dòng {n}",
            ),
            IssueCode::DuplicateUsername => (
                "Username already used in row {n}",
                "Tên đăng nhập đã xuất hiện ở dòng {n}",
            ),
            IssueCode::NotInteger => (
                "{field} must be a whole number",
                "{field} phải là số nguyên",
            ),
            IssueCode::TooSmall => (
                "{field} must be at least {n}",
                "{field} phải lớn hơn hoặc bằng {n}",
            ),
            IssueCode::TooLarge => (
                "{field} must be at most {n}",
                "{field} phải nhỏ hơn hoặc bằng {n}",
            ),
            IssueCode::EmailOrUsernameRequired => (
                "Enter an email or a username",
                "Cần nhập email hoặc tên đăng nhập",
            ),
            IssueCode::DotSegment => (
                "{field} must not be \".\" or \"..\"",
                "{field} không được là \".\" hoặc \"..\"",
            ),
            IssueCode::TooShort => (
                "{field} must be at least {n} characters",
                "{field} phải có ít nhất {n} ký tự",
            ),
            IssueCode::TooLong => (
                "{field} must be at most {n} characters",
                "{field} chỉ được có tối đa {n} ký tự",
            ),
            IssueCode::InvalidChars => (
                "{field} may contain only letters a-z, A-Z and digits 0-9 (no spaces, accents or symbols)",
                "{field} chỉ được chứa chữ cái a-z, A-Z và chữ số 0-9 (không dấu, không khoảng trắng, không ký tự đặc biệt)",
            ),
            IssueCode::InvalidEmail => (
                "Email address does not look valid",
                "Địa chỉ email không hợp lệ",
            ),
            IssueCode::InvalidPhone => (
                "{field} is not a valid phone number",
                "{field} không hợp lệ",
            ),
            IssueCode::UnknownField => (
                "Unknown field (the account fields are name, username, email, password, phone, city, district, street, gender, job)",
                "Trường không xác định (các trường của tài khoản là name, username, email, password, phone, city, district, street, gender, job)",
            ),
            IssueCode::DuplicateId => (
                "{field} already listed in row {n}",
                "{field} đã có ở dòng {n}",
            ),
            IssueCode::NotJson => (
                "The value cannot be written as JSON (a cycle, a BigInt, NaN or Infinity).",
                "Giá trị không thể viết thành JSON (vòng lặp, BigInt, NaN hoặc Infinity).",
            ),
        }
    }
}

impl PartialEq<&str> for IssueCode {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl core::fmt::Display for IssueCode {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}
