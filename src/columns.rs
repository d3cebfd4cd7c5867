//! Spreadsheet headers to account fields: the one table of the header aliases every tool of the
//! package reads (the `lpm` command line, the dashboard), in Vietnamese and English.
//!
//! A header matches an alias when both are equal once letters are folded to lower case
//! ([`crate::text::fold_char`]), Vietnamese and other Latin diacritics are taken off (`Họ và tên`
//! is `ho va ten`, also when written decomposed), and everything but letters and digits is
//! dropped (`Tỉnh/Thành phố`, `tinh thanh pho` and `TINH-THANH PHO` are one key). Decision: a
//! header that matches no alias maps to nothing (the caller reports it), never to a guess.
//!
//! Only character comparisons here: no `&str` pattern searches, which cost the wasm kilobytes.

use crate::text::fold_char;

/// The account fields a column can fill: [`crate::NewUser`]'s fields, as serialized.
pub const FIELDS: [&str; 10] = [
    "name", "username", "email", "password", "phone", "city", "district", "street", "gender", "job",
];

/// Each field's name and aliases as keys (see [`key`]): one group per field of [`FIELDS`], in
/// its order, groups separated by `|`, words by a space. Bytes rather than a table of `&str`s:
/// the wasm carries the letters and no pointers. As people write them: Full name, Họ và tên, Họ
/// tên, Tên, Tên học viên, Display name | User, Login, Tên đăng nhập, Tài khoản, Tên tài khoản |
/// Mail, Email address, Địa chỉ email, Thư điện tử | Mật khẩu, Pass | Phone number, Mobile, Tel, Telephone, Số điện
/// thoại, Điện thoại, SĐT, Di động | Province, Tỉnh/Thành phố, Tỉnh/Thành, Tỉnh, Thành phố |
/// Quận/Huyện, Quận, Huyện | Address, Street address, Địa chỉ, Đường | Sex, Giới tính |
/// Occupation, Job title, Nghề nghiệp, Công việc.
const TABLE: &[u8] = b"name fullname hovaten hoten ten tenhocvien displayname\
|username user login tendangnhap taikhoan tentaikhoan\
|email mail emailaddress diachiemail thudientu\
|password matkhau pass\
|phone phonenumber mobile tel telephone sodienthoai dienthoai sdt didong\
|city province tinhthanhpho tinhthanh tinh thanhpho\
|district quanhuyen quan huyen\
|street address streetaddress diachi duong\
|gender sex gioitinh\
|job occupation jobtitle nghenghiep congviec";

/// The groups of [`TABLE`], each as its words (the tests' reading of it).
#[cfg(test)]
fn groups() -> impl Iterator<Item = impl Iterator<Item = &'static [u8]>> {
    TABLE
        .split(|&b| b == b'|')
        .map(|group| group.split(|&b| b == b' '))
}

/// `c` (already folded) without its diacritics, `None` for a combining mark; Latin-1, the
/// Vietnamese letters of Latin Extended-A/B and Latin Extended Additional (U+1EA0..U+1EF9).
fn base(c: char) -> Option<char> {
    let b = match c as u32 {
        0x300..=0x36F => return None,
        0xE0..=0xE5 | 0x103 | 0x1EA0..=0x1EB7 => 'a',
        0xE7 => 'c',
        0xF0 | 0x111 => 'd',
        0xE8..=0xEB | 0x1EB8..=0x1EC7 => 'e',
        0xEC..=0xEF | 0x129 | 0x1EC8..=0x1ECB => 'i',
        0xF1 => 'n',
        0xF2..=0xF6 | 0xF8 | 0x1A1 | 0x1ECC..=0x1EE3 => 'o',
        0xF9..=0xFC | 0x169 | 0x1B0 | 0x1EE4..=0x1EF1 => 'u',
        0xFD | 0xFF | 0x1EF2..=0x1EF9 => 'y',
        _ => c,
    };
    Some(b)
}

/// The characters a header is compared by: folded, without diacritics, letters and digits only
/// (every ASCII character but a-z and 0-9 is dropped, and the no-break space and BOM).
fn key(s: &str) -> impl Iterator<Item = char> + '_ {
    s.chars().filter_map(|c| base(fold_char(c))).filter(|&c| {
        c.is_ascii_alphanumeric() || !(c.is_ascii() || c == '\u{A0}' || c == '\u{FEFF}')
    })
}

/// The [`FIELDS`] entry a spreadsheet header stands for, if any.
pub fn column(header: &str) -> Option<&'static str> {
    // The key once, compared by its bytes with each word where it ends (the words are ASCII, so
    // a key with any other character matches none, as a comparison by characters would find).
    // One loop over the table's bytes: iterator adapters bring the wasm their generic folds.
    let mut k = String::new();
    for c in key(header) {
        k.push(c);
    }
    let (mut field, mut start) = (0, 0);
    for (i, &b) in TABLE.iter().enumerate() {
        let last = i + 1 == TABLE.len();
        if b == b' ' || b == b'|' || last {
            let end = if last { TABLE.len() } else { i };
            if TABLE.get(start..end) == Some(k.as_bytes()) {
                return FIELDS.get(field).copied();
            }
            start = i + 1;
            field += usize::from(b == b'|');
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vietnamese_and_english_headers() {
        let cases = [
            ("Họ và tên", "name"),
            ("HỌ TÊN", "name"),
            ("Name", "name"),
            ("Full name", "name"),
            (" full_name ", "name"),
            ("Tên đăng nhập", "username"),
            ("Username", "username"),
            ("Mật khẩu", "password"),
            ("Password", "password"),
            ("Số điện thoại", "phone"),
            ("SĐT", "phone"),
            ("sdt", "phone"),
            ("Phone", "phone"),
            ("Tỉnh/Thành phố", "city"),
            ("tinh / thanh pho", "city"),
            ("City", "city"),
            ("Quận/Huyện", "district"),
            ("Địa chỉ", "street"),
            ("Địa chỉ email", "email"),
            ("E-mail", "email"),
            ("EMAIL", "email"),
            ("Giới tính", "gender"),
            ("Nghề nghiệp", "job"),
            ("\u{FEFF}Email", "email"),
            // Decomposed (NFD, as some Mac tools write): base letters and combining marks.
            ("Ho\u{323} va\u{300} te\u{302}n", "name"),
            ("Gio\u{31B}\u{301}i ti\u{301}nh", "gender"),
        ];
        for (header, field) in cases {
            assert_eq!(column(header), Some(field), "{header:?}");
        }
        for header in ["", "Ghi chú", "Note", "id", "Họ", "Tên lớp", "emails"] {
            assert_eq!(column(header), None, "{header:?}");
        }
    }

    /// Each alias as the table's comment writes it finds its field.
    #[test]
    fn every_written_alias() {
        let written = [
            (
                "name",
                "Full name, Họ và tên, Họ tên, Tên, Tên học viên, Display name",
            ),
            (
                "username",
                "User, Login, Tên đăng nhập, Tài khoản, Tên tài khoản",
            ),
            ("email", "Mail, Email address, Địa chỉ email, Thư điện tử"),
            ("password", "Mật khẩu, Pass"),
            (
                "phone",
                "Phone number, Mobile, Tel, Telephone, Số điện thoại, Điện thoại, SĐT, Di động",
            ),
            (
                "city",
                "Province, Tỉnh/Thành phố, Tỉnh/Thành, Tỉnh, Thành phố",
            ),
            ("district", "Quận/Huyện, Quận, Huyện"),
            ("street", "Address, Street address, Địa chỉ, Đường"),
            ("gender", "Sex, Giới tính"),
            ("job", "Occupation, Job title, Nghề nghiệp, Công việc"),
        ];
        let mut count = 0;
        for (field, aliases) in written {
            for alias in aliases.split(", ") {
                assert_eq!(column(alias), Some(field), "{alias:?}");
                count += 1;
            }
        }
        assert_eq!(count, groups().flatten().count() - FIELDS.len());
    }

    #[test]
    fn every_vietnamese_letter_loses_its_marks() {
        let groups = [
            ("aàáảãạăằắẳẵặâầấẩẫậAÀÁẢÃẠĂẰẮẲẴẶÂẦẤẨẪẬ", 'a'),
            ("eèéẻẽẹêềếểễệEÈÉẺẼẸÊỀẾỂỄỆ", 'e'),
            ("iìíỉĩịIÌÍỈĨỊ", 'i'),
            ("oòóỏõọôồốổỗộơờớởỡợOÒÓỎÕỌÔỒỐỔỖỘƠỜỚỞỠỢ", 'o'),
            ("uùúủũụưừứửữựUÙÚỦŨỤƯỪỨỬỮỰ", 'u'),
            ("yỳýỷỹỵYỲÝỶỸỴ", 'y'),
            ("dđDĐ", 'd'),
        ];
        for (letters, want) in groups {
            for c in letters.chars() {
                assert_eq!(
                    key(&c.to_string()).collect::<String>(),
                    want.to_string(),
                    "{c}"
                );
            }
        }
        assert_eq!(key("Tỉnh/Thành phố").collect::<String>(), "tinhthanhpho");
    }

    #[test]
    fn no_alias_stands_for_two_fields() {
        assert_eq!(groups().count(), FIELDS.len());
        for (mut words, field) in groups().zip(FIELDS) {
            assert_eq!(
                words.next(),
                Some(field.as_bytes()),
                "each group starts with its field"
            );
        }
        let all = groups().zip(FIELDS).flat_map(|(words, field)| {
            words.map(move |w| (field, std::str::from_utf8(w).unwrap()))
        });
        let mut seen: Vec<(String, &str)> = Vec::new();
        for (field, alias) in all {
            let k: String = key(alias).collect();
            assert_eq!(k, alias, "an alias is stored as its key");
            if let Some((_, other)) = seen.iter().find(|(s, _)| *s == k) {
                panic!("{alias:?} repeats an alias of {other} (as one of {field})");
            }
            seen.push((k, field));
        }
    }

    /// The fields are NewUser's, as serialized: a column fills exactly one of them.
    #[test]
    fn fields_are_new_users() {
        let some = || Some(String::new());
        let user = crate::NewUser {
            name: String::new(),
            username: String::new(),
            email: String::new(),
            password: String::new(),
            phone: some(),
            city: some(),
            district: some(),
            street: some(),
            gender: some(),
            job: some(),
        };
        let value = serde_json::to_value(&user).unwrap();
        let keys: Vec<&str> = value
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut fields = FIELDS.to_vec();
        fields.sort_unstable();
        let mut keys = keys;
        keys.sort_unstable();
        assert_eq!(keys, fields);
    }
}
