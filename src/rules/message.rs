//! Field labels (en/vi) and the rendering of a code's message for a field.

use std::borrow::Cow;

use super::*;

/// What a message talks about; gives the `{field}` label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Field {
    Name,
    Username,
    Email,
    Password,
    Phone,
    City,
    District,
    Street,
    Gender,
    Job,
    /// A creation item (a row), or a key of it that is not a field.
    Item,
    /// The `users` array of create-multi-user.
    AccountList,
    /// The `users` array of add-courses.
    AccountIds,
    AccountId,
    /// The `courses` array of add-courses.
    CourseIds,
    CourseId,
    /// A path id (get-single-user, get-single-course).
    Id,
    Start,
    Limit,
    Title,
}

impl Field {
    /// Every field, for [`super::every_message`]: the creation fields first, in the order of
    /// `FIELDS` (which [`Field::of_key`] reads).
    pub(super) const ALL: [Field; 20] = [
        Field::Name,
        Field::Username,
        Field::Email,
        Field::Password,
        Field::Phone,
        Field::City,
        Field::District,
        Field::Street,
        Field::Gender,
        Field::Job,
        Field::Item,
        Field::AccountList,
        Field::AccountIds,
        Field::AccountId,
        Field::CourseIds,
        Field::CourseId,
        Field::Id,
        Field::Start,
        Field::Limit,
        Field::Title,
    ];

    pub(super) fn of_key(key: &str) -> Field {
        // The creation fields lead ALL, in the order of FIELDS.
        match crate::text::position(&FIELDS, key) {
            Some(i) => Self::ALL.get(i).copied().unwrap_or(Field::Item),
            None => Field::Item,
        }
    }

    /// (English, Vietnamese) label, capitalised for the start of a sentence.
    pub(super) fn label(self) -> (&'static str, &'static str) {
        match self {
            Field::Name => ("Name", "Tên"),
            Field::Username => ("Username", "Tên đăng nhập"),
            Field::Email => ("Email", "Email"),
            Field::Password => ("Password", "Mật khẩu"),
            Field::Phone => ("Phone", "Số điện thoại"),
            Field::City => ("City", "Tỉnh/Thành phố"),
            Field::District => ("District", "Quận/Huyện"),
            Field::Street => ("Street", "Đường phố"),
            Field::Gender => ("Gender", "Giới tính"),
            Field::Job => ("Job", "Nghề nghiệp"),
            Field::Item => ("Row", "Dòng"),
            Field::AccountList => ("Account list", "Danh sách tài khoản"),
            Field::AccountIds => ("Account ID list", "Danh sách mã tài khoản"),
            Field::AccountId => ("Account ID", "Mã tài khoản"),
            Field::CourseIds => ("Course ID list", "Danh sách mã khoá học"),
            Field::CourseId => ("Course ID", "Mã khoá học"),
            Field::Id => ("ID", "Mã"),
            Field::Start => ("Start", "Vị trí bắt đầu"),
            Field::Limit => ("Limit", "Số lượng"),
            Field::Title => ("Title", "Tiêu đề"),
        }
    }
}

/// Renders the message of `code` for `field` with number `n` in `lang`.
pub(super) fn render(code: IssueCode, field: Field, n: usize, lang: Lang) -> String {
    let (en, vi) = code.messages();
    let (label_en, label_vi) = field.label();
    let (text, label) = match lang {
        Lang::En => (en, label_en),
        Lang::Vi => (vi, label_vi),
    };
    // The placeholders, expanded in one pass (no string searching: it costs the wasm kilobytes).
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(open) = crate::text::find_byte(rest, |b| b == b'{') {
        out.push_str(rest.get(..open).unwrap_or_default());
        let after = rest.get(open..).unwrap_or_default();
        let (value, len) = if after.starts_with("{field_lc}") {
            (crate::text::fold(label), "{field_lc}".len())
        } else if after.starts_with("{field}") {
            (Cow::Borrowed(label), "{field}".len())
        } else if after.starts_with("{n}") {
            let mut s = String::new();
            crate::json::push_uint(&mut s, n as u64);
            (Cow::Owned(s), "{n}".len())
        } else {
            (Cow::Borrowed("{"), 1)
        };
        out.push_str(&value);
        rest = after.get(len..).unwrap_or_default();
    }
    out.push_str(rest);
    out
}
