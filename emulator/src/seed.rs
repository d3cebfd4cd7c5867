//! Deterministic demo data: the same accounts and courses on every run.

use serde_json::{json, Map, Value};

use crate::config::{Seed, ADMIN_EMAIL, ADMIN_PASSWORD, SEED_PASSWORD, USER_EMAIL, USER_PASSWORD};
use crate::state::{Account, Course, ENROLMENT_DAYS};
use crate::util::{fold, iso, ms_at, Rng, DAY_MS};

/// Number of generated accounts besides the admin and the no-permission account.
pub const DEMO_ACCOUNTS: usize = 218;

pub struct SeedData {
    pub accounts: Vec<Account>,
    pub courses: Vec<Course>,
    pub admin_id: String,
    pub user_id: String,
}

const FAMILY: &[&str] = &[
    "Nguyễn", "Trần", "Lê", "Phạm", "Hoàng", "Huỳnh", "Phan", "Vũ", "Võ", "Đặng", "Bùi", "Đỗ",
    "Hồ", "Ngô", "Dương", "Lý",
];
const MIDDLE: &[&str] = &[
    "Văn", "Thị", "Minh", "Ngọc", "Thanh", "Hữu", "Đức", "Quang", "Thu", "Hoài", "Gia", "Bảo",
];
const GIVEN: &[&str] = &[
    "An", "Bình", "Châu", "Dũng", "Giang", "Hà", "Hải", "Hạnh", "Hiếu", "Hoa", "Hùng", "Hương",
    "Khánh", "Lan", "Linh", "Long", "Mai", "Nam", "Nga", "Phúc", "Quân", "Sơn", "Tâm", "Thảo",
    "Trang", "Tuấn", "Việt", "Yến", "Đạt", "Ánh",
];
const AFF_TYPES: &[&str] = &["AFFILIATE", "SELLER", "STUDENT"];

pub const TITLES: &[&str] = &[
    "Trắc nghiệm Toán 12 - Luyện thi THPT Quốc gia",
    "Lập trình Python cơ bản",
    "Tiếng Anh giao tiếp cho người đi làm",
    "Thiết kế đồ họa với Photoshop",
    "Marketing trực tuyến từ A đến Z",
    "Kế toán doanh nghiệp thực hành",
    "Luyện đề trắc nghiệm Vật lý 11",
    "Nhiếp ảnh cho người mới bắt đầu",
    "Quản lý thời gian hiệu quả",
    "Đàn guitar đệm hát",
    "Nấu ăn gia đình: món Việt truyền thống",
    "Excel nâng cao cho dân văn phòng",
    "Kỹ năng thuyết trình chuyên nghiệp",
    "Tiếng Nhật N5 cho người mới",
    "Yoga tại nhà",
    "Lập trình web với JavaScript",
    "Phân tích dữ liệu với SQL",
    "Đầu tư chứng khoán căn bản",
    "Viết nội dung quảng cáo thu hút",
    "Hóa học 10 - Nền tảng vững chắc",
    "Tiếng Trung giao tiếp hằng ngày",
    "Bán hàng online trên mạng xã hội",
    "Thiết kế nội thất căn hộ nhỏ",
    "Vẽ tranh màu nước",
    "Kỹ năng lãnh đạo cho quản lý trẻ",
    "Luyện thi IELTS 6.5+",
    "Chăm sóc da khoa học",
    "Ngữ văn 9 - Ôn thi vào lớp 10",
    "Dựng video với Premiere Pro",
    "Tâm lý học hành vi ứng dụng",
    "Sinh học 12 - Trắc nghiệm theo chuyên đề",
    "Lập kế hoạch tài chính cá nhân",
];

const LABELS: &[&str] = &["Bán chạy", "Mới", "Hot", "Khuyến mãi"];

pub fn slug(title: &str) -> String {
    let mut out = String::new();
    for c in fold(title).chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

fn ascii_name(s: &str) -> String {
    fold(s)
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect()
}

fn image_set(rng: &mut Rng, course_id: &str, kind: &str) -> Value {
    let base = format!("courses/{course_id}/{kind}");
    let (mime, ext) = if rng.chance(70) {
        ("image/jpeg", "jpg")
    } else {
        ("image/png", "png")
    };
    json!({
        "original": {
            "path": format!("/uploads/{base}.{ext}"),
            "size": 40_000 + rng.below(900_000),
            "type": mime,
            "extension": ext,
            "meta": {"pipePath": format!("{base}/original.{ext}")},
            "url": format!("https://cdn.demo.lpm.test/{base}/original.{ext}"),
        },
        "thumbnail160": {
            "meta": {"pipePath": format!("{base}/thumbnail160.{ext}")},
            "url": format!("https://cdn.demo.lpm.test/{base}/thumbnail160.{ext}"),
        },
        "preview": {
            "meta": {"pipePath": format!("{base}/preview.{ext}")},
            "url": format!("https://cdn.demo.lpm.test/{base}/preview.{ext}"),
        },
    })
}

fn build_course(
    rng: &mut Rng,
    i: usize,
    title: &str,
    created_ms: i64,
    all_ids: &[String],
) -> Course {
    let id = all_ids[i].clone();
    let mut r = Map::new();
    r.insert("_id".into(), json!(id));
    r.insert("refId".into(), json!(format!("KH{:04}", 1001 + i)));
    r.insert("title".into(), json!(title));
    r.insert("slug".into(), json!(slug(title)));
    r.insert("approval".into(), json!(i % 9 != 4));
    let course_type = if i % 7 == 5 { "UPCOMMING" } else { "SALE" };
    r.insert("type".into(), json!(course_type));
    r.insert("label".into(), json!(LABELS[i % LABELS.len()]));
    r.insert(
        "headline".into(),
        json!(format!("Khoá học {title} dành cho mọi người")),
    );
    r.insert(
        "description".into(),
        json!(format!(
            "<p>Khoá học <strong>{title}</strong> giúp bạn nắm vững kiến thức từ cơ bản đến nâng cao.</p><ul><li>Bài giảng video</li><li>Tài liệu PDF</li></ul>"
        )),
    );
    if i % 3 != 2 {
        r.insert(
            "requirement".into(),
            json!("<p>Máy tính kết nối Internet và tinh thần ham học hỏi.</p>"),
        );
    }
    let in_combo = if i % 6 == 1 {
        json!([
            all_ids[(i + 1) % all_ids.len()],
            all_ids[(i + 2) % all_ids.len()]
        ])
    } else {
        json!([])
    };
    r.insert("inCombo".into(), in_combo);
    let purpose = match i % 4 {
        0 => {
            json!([{"content": "Nắm vững kiến thức nền tảng"}, {}, {"content": "Tự tin áp dụng vào thực tế"}])
        }
        1 => json!([{"content": "Hoàn thành dự án cuối khoá"}]),
        2 => json!([{}]),
        _ => json!([]),
    };
    r.insert("purpose".into(), purpose);
    let audience = match i % 3 {
        0 => json!([{"content": "Học sinh, sinh viên"}, {"content": "Người đi làm"}]),
        1 => json!([{}, {"content": "Người mới bắt đầu"}]),
        _ => json!([]),
    };
    r.insert("target_audience".into(), audience);
    let tag = if i % 2 == 0 {
        json!([ascii_name(title.split(' ').next().unwrap_or("")), "online"])
    } else {
        json!([])
    };
    r.insert("tag".into(), tag);
    let category: Vec<String> = (0..1 + i % 2).map(|_| rng.meteor_id(17)).collect();
    r.insert("category".into(), json!(category));
    let instructor: Vec<String> = (0..1 + i % 3 / 2).map(|_| rng.meteor_id(17)).collect();
    r.insert("instructor".into(), json!(instructor));
    r.insert("topic".into(), json!(rng.meteor_id(17)));
    let chapters: Vec<String> = (0..3 + rng.below(6)).map(|_| rng.meteor_id(17)).collect();
    r.insert("chapters".into(), json!(chapters));
    r.insert("createdAt".into(), json!(iso(created_ms)));
    r.insert(
        "updatedAt".into(),
        json!(iso(created_ms + (1 + rng.below(200)) as i64 * DAY_MS / 3)),
    );
    let trailer = match i % 3 {
        0 => {
            json!({"source": format!("https://cdn.demo.lpm.test/trailers/{id}.mp4"), "sourceType": "UPLOAD", "sourceName": "trailer.mp4"})
        }
        1 => {
            json!({"source": "<iframe src=\"https://video.demo.lpm.test/embed/abc\"></iframe>", "sourceType": "EMBED", "sourceName": "embed"})
        }
        _ => {
            json!({"source": format!("{}", 300_000_000 + rng.below(99_999_999)), "sourceType": "VIMEO", "sourceName": "vimeo"})
        }
    };
    r.insert("trailer".into(), trailer);
    let original = if i % 10 == 3 {
        0
    } else {
        (199 + 100 * (i % 13)) * 1000
    };
    let price = match i % 5 {
        0 => json!({
            "original": original,
            "discount_enable": true,
            "use_private_discount": true,
            "private_discount_price": original * 7 / 10,
            "private_discount_time": {"start": iso(created_ms + 10 * DAY_MS), "end": iso(created_ms + 40 * DAY_MS)},
        }),
        1 => {
            json!({"original": original, "discount_enable": false, "use_private_discount": false, "private_discount_time": {}})
        }
        2 => {
            json!({"original": original, "discount_enable": null, "use_private_discount": null, "private_discount_time": {}})
        }
        3 => json!({
            "original": original,
            "discount_enable": true,
            "use_private_discount": true,
            "private_discount_price": original / 2,
            "private_discount_time": {},
        }),
        _ => {
            json!({"original": original, "discount_enable": true, "use_private_discount": false, "private_discount_time": {}})
        }
    };
    r.insert("price".into(), price);
    let affiliates = match i % 4 {
        0 => json!({
            "enable": true,
            "use_private": true,
            "use_basic_discount_percent": true,
            "basic_discount_percent": 10,
            "use_basic_payout_percent": true,
            "basic_payout_value": {"L1": 20, "L2": 5},
            "basic_payout_percent": {"L1": 20},
            "basic_discount_price": original / 10,
        }),
        1 => json!({}),
        2 => {
            json!({"enable": false, "use_private": false, "basic_payout_value": {}, "basic_payout_percent": {}})
        }
        _ => {
            json!({"enable": true, "use_basic_payout_percent": false, "basic_payout_value": {"L1": 50000}})
        }
    };
    r.insert("affiliates".into(), affiliates);
    r.insert(
        "credit_shared".into(),
        json!({"enable": i % 2 == 0, "use_private_value": i % 4 == 0, "value": (i % 5) * 5}),
    );
    if i % 4 != 3 {
        r.insert("image_detail".into(), image_set(rng, &id, "detail"));
    }
    if i % 5 != 4 {
        r.insert("image_primary".into(), image_set(rng, &id, "primary"));
    }
    if i % 3 != 1 {
        let docs = json!([
            {"title": "Video giới thiệu", "type": "VIDEO", "source": format!("https://cdn.demo.lpm.test/docs/{id}/intro.mp4"), "sourceType": "UPLOAD", "sourceName": "intro.mp4"},
            {"title": "Giáo trình", "type": "PDF", "source": format!("https://cdn.demo.lpm.test/docs/{id}/giao-trinh.pdf"), "sourceType": "UPLOAD", "sourceName": "giao-trinh.pdf"},
            {"title": "Bài giảng nhúng", "type": "VIDEO", "source": "<iframe src=\"https://video.demo.lpm.test/embed/xyz\"></iframe>", "sourceType": "EMBED"},
            {"title": "Bài giảng bổ sung", "type": "VIDEO", "source": format!("{}", 400_000_000 + rng.below(9_999_999)), "sourceType": "VIMEO", "sourceName": "vimeo"},
            {"title": "Tài liệu đang cập nhật", "type": "PDF", "sourceType": "UPLOAD"},
        ]);
        let n = 2 + i % 4;
        let docs: Vec<Value> = docs
            .as_array()
            .map(|d| d.iter().take(n).cloned().collect())
            .unwrap_or_default();
        r.insert("docs".into(), Value::Array(docs));
    }
    Course {
        id,
        seq: i as u64,
        created_ms,
        record: r,
    }
}

#[allow(clippy::too_many_arguments)]
fn build_account(
    rng: &mut Rng,
    seq: u64,
    id: String,
    name: &str,
    username: &str,
    email: &str,
    created_ms: i64,
    password: &str,
    admin: bool,
) -> Account {
    let mut r = Map::new();
    r.insert("_id".into(), json!(id));
    r.insert("createdAt".into(), json!(iso(created_ms)));
    r.insert("username".into(), json!(username));
    r.insert(
        "emails".into(),
        json!([{"address": email, "verified": rng.chance(60) || admin}]),
    );
    let mut profile = Map::new();
    profile.insert("name".into(), json!(name));
    if rng.chance(70) {
        profile.insert(
            "phone".into(),
            json!(format!("09{:08}", rng.below(100_000_000))),
        );
    }
    if rng.chance(35) {
        let image_id = rng.meteor_id(17);
        profile.insert(
            "avatar".into(),
            json!({"imageId": image_id, "imageLink": format!("https://cdn.demo.lpm.test/avatars/{image_id}.jpg")}),
        );
    }
    if rng.chance(30) {
        profile.insert("affUserType".into(), json!(*rng.pick(AFF_TYPES)));
    }
    if rng.chance(40) {
        let tuid = if rng.chance(60) {
            String::new()
        } else {
            format!("{}", 100_000 + rng.below(900_000))
        };
        profile.insert("tUid".into(), json!(tuid));
    }
    r.insert("profile".into(), Value::Object(profile));
    let for_seller = json!({
        "callDistrCoeff": if admin { 1.5 } else { (rng.below(10) as f64) / 10.0 },
        "getCall": admin || rng.chance(30),
    });
    Account {
        id,
        seq,
        created_ms,
        record: r,
        password: password.to_string(),
        admin,
        for_seller,
    }
}

pub fn build(seed: Seed) -> SeedData {
    let mut rng = Rng::new(0x004C_504D_2D45_4D55);
    let mut accounts = Vec::new();
    let admin_id = rng.meteor_id(17);
    let user_id = rng.meteor_id(17);
    let t0 = ms_at(2022, 1, 3, 2, 15, 30) + 123;
    let mut admin = build_account(
        &mut rng,
        0,
        admin_id.clone(),
        "Quản Trị Viên",
        "admin",
        ADMIN_EMAIL,
        t0,
        ADMIN_PASSWORD,
        true,
    );
    admin.record.insert(
        "profile".into(),
        json!({"name": "Quản Trị Viên", "phone": "0901234567", "affUserType": "SELLER", "tUid": "",
               "avatar": {"imageId": "AdminAvatar000001", "imageLink": "https://cdn.demo.lpm.test/avatars/AdminAvatar000001.jpg"}}),
    );
    accounts.push(admin);
    let mut user = build_account(
        &mut rng,
        1,
        user_id.clone(),
        "Trần Thị Bình",
        "demouser",
        USER_EMAIL,
        t0 + DAY_MS + 4567,
        USER_PASSWORD,
        false,
    );
    user.record.insert(
        "profile".into(),
        json!({"name": "Trần Thị Bình", "tUid": ""}),
    );
    accounts.push(user);

    if seed == Seed::Empty {
        return SeedData {
            accounts,
            courses: Vec::new(),
            admin_id,
            user_id,
        };
    }

    // Courses. One id of 20 and one of 14 characters, as seen on the platform.
    let course_ids: Vec<String> = (0..TITLES.len())
        .map(|i| match i {
            3 => rng.meteor_id(20),
            8 => rng.meteor_id(14),
            _ => rng.meteor_id(17),
        })
        .collect();
    let mut courses = Vec::new();
    let mut t = ms_at(2022, 3, 1, 1, 0, 0);
    for (i, title) in TITLES.iter().enumerate() {
        t += (2 + rng.below(20)) as i64 * DAY_MS + rng.below(86_400_000) as i64;
        courses.push(build_course(&mut rng, i, title, t, &course_ids));
    }

    // Accounts.
    let mut t = t0 + 2 * DAY_MS;
    for i in 0..DEMO_ACCOUNTS {
        t += (1 + rng.below(72)) as i64 * 3_600_000 + rng.below(3_600_000) as i64;
        let family = *rng.pick(FAMILY);
        let middle = *rng.pick(MIDDLE);
        let given = *rng.pick(GIVEN);
        let name = format!("{family} {middle} {given}");
        let username = format!(
            "{}{}{}{:03}",
            ascii_name(given),
            ascii_name(
                &family[..family
                    .char_indices()
                    .nth(1)
                    .map_or(family.len(), |(p, _)| p)]
            ),
            ascii_name(
                &middle[..middle
                    .char_indices()
                    .nth(1)
                    .map_or(middle.len(), |(p, _)| p)]
            ),
            i
        );
        let email = format!("{username}@mail.demo.lpm.test");
        let id = if i == 5 {
            rng.meteor_id(14)
        } else {
            rng.meteor_id(17)
        };
        let mut acc = build_account(
            &mut rng,
            (i + 2) as u64,
            id,
            &name,
            &username,
            &email,
            t,
            SEED_PASSWORD,
            false,
        );
        // Enrolments, a few with lesson progress.
        if i % 9 == 0 {
            let n = 1 + rng.below(3);
            let mut items = Vec::new();
            for k in 0..n {
                let course = &courses[(i / 9 + k * 7) % courses.len()];
                let activated = t + (1 + k as i64) * DAY_MS;
                let mut e = Map::new();
                e.insert("courseId".into(), json!(course.id));
                e.insert("activatedDate".into(), json!(iso(activated)));
                e.insert(
                    "expiredAt".into(),
                    json!(iso(activated + ENROLMENT_DAYS * DAY_MS)),
                );
                if (i / 9 + k) % 2 == 0 {
                    let chapter = course
                        .record
                        .get("chapters")
                        .and_then(|c| c.get(0))
                        .cloned()
                        .unwrap_or(Value::Null);
                    let lessons: Vec<String> = (0..3).map(|_| rng.meteor_id(17)).collect();
                    e.insert(
                        "currentLesson".into(),
                        json!({"chapterId": chapter, "lessonId": lessons[1], "lessonSlug": format!("bai-{}", 2 + k), "currentTime": 125.5 + k as f64 * 30.0}),
                    );
                    e.insert(
                        "lessonStatus".into(),
                        json!([{"lessonId": lessons[0], "finish": true}, {"lessonId": lessons[1], "finish": false}]),
                    );
                    e.insert("finish".into(), json!(false));
                } else if k == 1 {
                    e.insert("finish".into(), json!(true));
                }
                items.push(Value::Object(e));
            }
            acc.record.insert("myCourses".into(), Value::Array(items));
        }
        if i % 5 == 1 {
            let cart: Vec<Value> = (0..1 + i % 3)
                .map(|k| json!({"courseId": courses[(i + k * 5) % courses.len()].id, "status": "DELETED"}))
                .collect();
            acc.record.insert("myCart".into(), Value::Array(cart));
        }
        if i % 7 == 2 {
            let tx: Vec<String> = (0..1 + i % 3).map(|_| rng.meteor_id(17)).collect();
            acc.record.insert("myTransactions".into(), json!(tx));
        }
        accounts.push(acc);
    }

    SeedData {
        accounts,
        courses,
        admin_id,
        user_id,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_large_enough() {
        let a = build(Seed::Demo);
        let b = build(Seed::Demo);
        assert!(a.accounts.len() >= 200);
        assert!(a.courses.len() >= 30);
        assert_eq!(a.admin_id, b.admin_id);
        let ra: Vec<_> = a
            .accounts
            .iter()
            .map(|x| Value::Object(x.record.clone()))
            .collect();
        let rb: Vec<_> = b
            .accounts
            .iter()
            .map(|x| Value::Object(x.record.clone()))
            .collect();
        assert_eq!(ra, rb);
        let mut names = std::collections::HashSet::new();
        for acc in &a.accounts {
            assert!(names.insert(acc.record["username"].as_str().unwrap().to_string()));
        }
    }

    #[test]
    fn slugs() {
        assert_eq!(
            slug("Trắc nghiệm Toán 12 - Luyện thi"),
            "trac-nghiem-toan-12-luyen-thi"
        );
    }
}
