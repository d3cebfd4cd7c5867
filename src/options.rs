//! A client's options: each option's name, type, default and documentation written once, in the
//! `options!` invocation below, from which come the Rust struct ([`ClientSettings`] with its
//! nested [`IntervalOptions`]), its defaults ([`ClientSettings::DEFAULT`], a `const`), the reader
//! of the options JSON text the package's JavaScript writes ([`ClientSettings::read`]) and the
//! TypeScript declaration ([`TS`]: `interface ClientSettings`, which the package's
//! `ClientOptions` extends with what only JavaScript holds: `fetch`, hooks, `headers`, `logger`,
//! `intervalStore`).
//!
//! Why a macro and not tsify: tsify copies a field's doc comment only when it is a string literal
//! (`#[doc = concat!(..)]` comes out empty), so the defaults could not be placed in the TypeScript
//! documentation without writing them a second time. The macro builds the doc text with `concat!`
//! and `stringify!` of the same default literals the `const` is made of. The TypeScript is a custom
//! section (no bytes in the `.wasm`), and the reader is the crate's own JSON layer, smaller in the
//! wasm than serde's deserializer (its readers return the two-word [`Bad`] and borrow their
//! strings for the same reason). serde is derived natively
//! only (`Deserialize`, for the test that the hand reader and serde read the same text alike): the
//! wasm has no serde deserializer (no serde_json: README), and reads options with the crate's own
//! JSON layer, as it reads every other input.

use crate::error::{ConfigError, Error};
use crate::json::{JsonView, Value};
use crate::plan::UserPath;

/// The error of an option that cannot be used: its name (`createInterval.guard`) and what it
/// must be.
#[inline(never)]
pub fn option_error(name: &'static str, expected: &'static str) -> Error {
    Error::Config(ConfigError::Option {
        option: name,
        expected,
    })
}

/// An option that cannot be used, before it becomes an [`Error`]: two words where an `Error` is
/// many, which each read's `?` would move (a smaller wasm).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bad {
    /// The option's name.
    pub name: &'static str,
    /// What it must be.
    pub expected: &'static str,
}

impl From<Bad> for Error {
    #[inline(never)]
    fn from(bad: Bad) -> Error {
        option_error(bad.name, bad.expected)
    }
}

/// What the create-interval guard does with a create inside the interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Deserialize))]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "lowercase")]
pub enum GuardMode {
    /// Refuse it (`IntervalError`).
    #[default]
    Reject,
    /// Wait until the interval has passed.
    Wait,
    /// No guard.
    Off,
}

impl GuardMode {
    /// Every mode, in the order of [`GuardMode::NAMES`].
    pub const ALL: [GuardMode; 3] = [GuardMode::Reject, GuardMode::Wait, GuardMode::Off];
    /// The modes as an option names them (serde's names of the variants).
    pub const NAMES: [&'static str; 3] = ["reject", "wait", "off"];

    /// The mode an option names.
    pub const fn from_js(s: &str) -> Option<GuardMode> {
        match crate::text::position(&GuardMode::NAMES, s) {
            Some(i) => Some(GuardMode::ALL[i]),
            None => None,
        }
    }
}

/// What a duration option must be.
const MS: &str = "a number of milliseconds >= 0";

/// The readers of one option: the object, the option's name, and the value it takes when
/// absent. Each reader's TypeScript type is in `ts_type!`.
pub mod read {
    use super::*;

    fn bad(name: &'static str, expected: &'static str) -> Bad {
        Bad { name, expected }
    }

    /// A non-negative finite number.
    fn number(
        obj: &Value<'_>,
        name: &'static str,
        d: f64,
        expected: &'static str,
    ) -> Result<f64, Bad> {
        match obj.get(name) {
            None => Ok(d),
            Some(v) => v
                .as_f64()
                .filter(|n| n.is_finite() && *n >= 0.0)
                .ok_or(bad(name, expected)),
        }
    }

    /// A duration in ms (>= 0).
    pub fn ms(obj: &Value<'_>, name: &'static str, d: f64) -> Result<f64, Bad> {
        number(obj, name, d, MS)
    }

    /// A number of bytes (>= 0).
    #[inline(always)]
    pub fn bytes(obj: &Value<'_>, name: &'static str, d: f64) -> Result<f64, Bad> {
        number(obj, name, d, "a number of bytes >= 0")
    }

    /// A count of retries: an integer from 0 to 10.
    pub fn retries(obj: &Value<'_>, name: &'static str, d: u32) -> Result<u32, Bad> {
        const EXPECTED: &str = "an integer from 0 to 10";
        let n = number(obj, name, f64::from(d), EXPECTED)?;
        if n.fract() != 0.0 || n > 10.0 {
            return Err(bad(name, EXPECTED));
        }
        Ok(n as u32)
    }

    /// A boolean.
    #[inline(always)]
    pub fn flag(obj: &Value<'_>, name: &'static str, d: bool) -> Result<bool, Bad> {
        match obj.get(name) {
            None => Ok(d),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(bad(name, "a boolean")),
        }
    }

    /// A string, required.
    #[inline(always)]
    pub fn string<'a>(obj: &'a Value<'_>, name: &'static str, _: &str) -> Result<&'a str, Bad> {
        obj.get(name)
            .and_then(JsonView::as_str)
            .ok_or(bad(name, "a string"))
    }

    /// A token as written (the planner checks it: [`crate::Token::new`]); `null` is none.
    #[inline(always)]
    pub fn token<'a>(
        obj: &'a Value<'_>,
        name: &'static str,
        d: Option<&'a str>,
    ) -> Result<Option<&'a str>, Bad> {
        match obj.get(name) {
            None | Some(Value::Null) => Ok(d),
            Some(t) => t.as_str().ok_or(bad(name, "a string")).map(Some),
        }
    }

    /// The index in `names` of a string option, `None` when absent.
    fn pick(
        obj: &Value<'_>,
        name: &'static str,
        names: &[&str],
        expected: &'static str,
    ) -> Result<Option<usize>, Bad> {
        let Some(v) = obj.get(name) else {
            return Ok(None);
        };
        let found = v.as_str().and_then(|s| crate::text::position(names, s));
        found.map(Some).ok_or(bad(name, expected))
    }

    /// The get-single-user path's spelling.
    #[inline(always)]
    pub fn user_path(obj: &Value<'_>, name: &'static str, d: UserPath) -> Result<UserPath, Bad> {
        let i = pick(obj, name, &UserPath::NAMES, "\"users\" or \"user\"")?;
        Ok(i.and_then(|i| UserPath::ALL.get(i).copied()).unwrap_or(d))
    }

    /// An interval guard's mode.
    pub fn guard(obj: &Value<'_>, name: &'static str, d: GuardMode) -> Result<GuardMode, Bad> {
        let i = pick(
            obj,
            name,
            &GuardMode::NAMES,
            "\"reject\", \"wait\" or \"off\"",
        )?;
        Ok(i.and_then(|i| GuardMode::ALL.get(i).copied()).unwrap_or(d))
    }
}

/// The defaults' values from their literals (as JavaScript writes them), as `const fn`s named
/// after the option's reader (`lit::ms(30000)`), so that [`ClientSettings::DEFAULT`] is a `const`.
mod lit {
    use super::*;

    pub const fn ms(n: u32) -> f64 {
        n as f64
    }
    pub const fn bytes(n: u32) -> f64 {
        n as f64
    }
    pub const fn retries(n: u32) -> u32 {
        n
    }
    pub const fn flag(b: bool) -> bool {
        b
    }
    pub const fn user_path(s: &str) -> UserPath {
        match UserPath::from_js(s) {
            Some(p) => p,
            None => panic!("not a userPath"),
        }
    }
    pub const fn guard(s: &str) -> GuardMode {
        match GuardMode::from_js(s) {
            Some(g) => g,
            None => panic!("not a guard mode"),
        }
    }
}

/// The TypeScript type of each reader's values.
macro_rules! ts_type {
    (ms) => {
        "number"
    };
    (bytes) => {
        "number"
    };
    (retries) => {
        "number"
    };
    (flag) => {
        "boolean"
    };
    (string) => {
        "string"
    };
    (token) => {
        "string"
    };
    (user_path) => {
        "UserPath"
    };
    (guard) => {
        "GuardMode"
    };
}

/// A default's Rust value: `required` (no default: the reader refuses its absence), `none`, a
/// literal, or the members of a nested options object.
macro_rules! default_value {
    ($read:ident, required) => { "" };
    ($read:ident, none) => { None };
    ($read:ident, $d:literal) => { lit::$read($d) };
    ($read:ident, { $( $(#[doc = $doc:literal])* $js:ident $field:ident: $fty:ty = $d:tt, $mread:ident; )* }) => {
        $read { $( $field: default_value!($mread, $d), )* }
    };
}

/// One member of the TypeScript interface, with its doc and its default. An optional member also
/// takes `undefined` (`exactOptionalPropertyTypes`: `token: process.env.LPM_TOKEN`), which the
/// JS drops before the core reads the options, as if absent.
macro_rules! ts_member {
    ($indent:literal, [$($doc:literal)*], $js:ident, required, $read:ident) => {
        concat!($indent, "/**", $($doc,)* " */\n", $indent, stringify!($js), ": ", ts_type!($read), ";\n")
    };
    ($indent:literal, [$($doc:literal)*], $js:ident, none, $read:ident) => {
        concat!($indent, "/**", $($doc,)* " */\n", $indent, stringify!($js), "?: ", ts_type!($read), " | undefined;\n")
    };
    ($indent:literal, [$($doc:literal)*], $js:ident, $d:literal, $read:ident) => {
        concat!($indent, "/**", $($doc,)* " Default `", stringify!($d), "`. */\n",
            $indent, stringify!($js), "?: ", ts_type!($read), " | undefined;\n")
    };
    ($indent:literal, [$($doc:literal)*], $js:ident,
        { $( $(#[doc = $mdoc:literal])* $mjs:ident $mfield:ident: $mty:ty = $md:tt, $mread:ident; )* }, $read:ident) => {
        concat!($indent, "/**", $($doc,)* " */\n", $indent, stringify!($js), "?: {\n",
            $( ts_member!("        ", [$($mdoc)*], $mjs, $md, $mread), )*
            $indent, "} | undefined;\n")
    };
}

/// Reads one option of `$obj` (a JSON object), `$d` when absent; a nested object's members are
/// named `parent.member` in errors.
macro_rules! read_value {
    ($obj:expr, $js:ident, $d:expr, $name:expr, { $( $(#[doc = $doc:literal])* $mjs:ident $mfield:ident: $mty:ty = $md:tt, $mread:ident; )* }, $read:ident) => {{
        let d = $d;
        match $obj.get(stringify!($js)) {
            None => d,
            Some(o) if o.is_object() => $read {
                $( $mfield: read::$mread(o, stringify!($mjs), d.$mfield).map_err(|b| Bad {
                    name: concat!(stringify!($js), ".", stringify!($mjs)),
                    ..b
                })?, )*
            },
            Some(_) => return Err(Bad { name: $name, expected: "an object" }),
        }
    }};
    ($obj:expr, $js:ident, $d:expr, $name:expr, $default:tt, $read:ident) => {
        read::$read($obj, $name, $d)?
    };
}

/// Defines the options struct (and the nested ones' values), its `DEFAULT`, its reader and its
/// TypeScript from one list. A row: doc, JS name, Rust name, Rust type, default (`required`,
/// `none`, a literal as JS writes it, or `{ rows }` of a nested object whose Rust type is the
/// row's, read by a struct literal of that type), and its reader in [`read`].
macro_rules! options {
    (
        $(#[doc = $sdoc:literal])*
        pub struct $name:ident {
            $(
                $(#[doc = $doc:literal])*
                $(#[serde($($serde:tt)*)])?
                $js:ident $field:ident: $ty:ty = $default:tt, $read:ident;
            )*
        }
    ) => {
        $(#[doc = $sdoc])*
        #[derive(Clone, Copy, Debug, PartialEq)]
        #[cfg_attr(not(target_arch = "wasm32"), derive(serde::Deserialize))]
        #[cfg_attr(not(target_arch = "wasm32"), serde(rename_all = "camelCase", default, deny_unknown_fields))]
        pub struct $name<'a> {
            $(
                $(#[doc = $doc])*
                $(#[cfg_attr(not(target_arch = "wasm32"), serde($($serde)*))])?
                pub $field: $ty,
            )*
        }

        impl $name<'_> {
            /// Every option's default (`base_url` has none: it is required).
            pub const DEFAULT: $name<'static> = $name { $( $field: default_value!($read, $default), )* };
        }

        impl<'a> $name<'a> {
            /// Reads the options object, parsed from the JSON text the package's JavaScript writes
            /// (functions as a marker string; NaN and the infinities as `null`). Members that are
            /// not options of this struct are left to the caller (the JavaScript-only options).
            pub fn read(options: &'a Value<'_>) -> Result<$name<'a>, Bad> {
                let d = $name::DEFAULT;
                Ok($name { $(
                    $field: read_value!(options, $js, d.$field, stringify!($js), $default, $read),
                )* })
            }
        }

        impl Default for $name<'_> {
            fn default() -> Self {
                $name::DEFAULT
            }
        }

        /// The TypeScript declaration of the options' data, with each default in its doc.
        pub const TS: &str = concat!(
            "\n/**", $($sdoc,)* " */\nexport interface ", stringify!($name), " {\n",
            $( ts_member!("    ", [$($doc)*], $js, $default, $read), )*
            "}\n"
        );

        /// Each option's JavaScript name, and its default as JavaScript writes it (nested ones by
        /// member, `parent.member`), for the tests.
        #[cfg(test)]
        const DEFAULTS_AS_JS: &[(&str, &str)] = &[ $( default_as_js!($js, $default), )* ];

        /// Each option's row of the npm README's table: name, default as the README shows it,
        /// doc ([`options_table`]).
        #[cfg(test)]
        const README_ROWS: &[(&str, &str, &[&str])] = &[
            $( (stringify!($js), default_in_readme!($default), &[$($doc),*]), )*
        ];
    };
}

/// A default as the README's table shows it: `(required)`, nothing, the literal, or a nested
/// object's members with theirs.
#[cfg(test)]
macro_rules! default_in_readme {
    (required) => { "(required)" };
    (none) => { "" };
    ($d:literal) => { concat!("`", stringify!($d), "`") };
    ({ $( $(#[doc = $doc:literal])* $mjs:ident $mfield:ident: $mty:ty = $md:tt, $mread:ident; )* }) => {
        concat!("`{ ", $( stringify!($mjs), ": ", stringify!($md), ", ", )* "}`")
    };
}

/// `(name, default)` pairs of the test list; a nested object's as `(name, "{...}")` of its
/// members.
#[cfg(test)]
macro_rules! default_as_js {
    ($js:ident, required) => { (stringify!($js), "") };
    ($js:ident, none) => { (stringify!($js), "") };
    ($js:ident, $d:literal) => { (stringify!($js), stringify!($d)) };
    ($js:ident, { $( $(#[doc = $doc:literal])* $mjs:ident $mfield:ident: $mty:ty = $md:tt, $mread:ident; )* }) => {
        (stringify!($js), concat!("{", $( "\"", stringify!($mjs), "\":", stringify!($md), ",", )* "}"))
    };
}

/// An interval guard's options (`createInterval`, `loginTokenInterval`, `registerInterval`); their defaults are the
/// option's, in [`ClientSettings::DEFAULT`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Deserialize))]
#[cfg_attr(
    not(target_arch = "wasm32"),
    serde(rename_all = "camelCase", deny_unknown_fields)
)]
pub struct IntervalOptions {
    /// What a guarded call inside the interval does.
    pub guard: GuardMode,
    /// The interval's length in ms.
    pub interval_ms: f64,
}

options! {
    /// The data of a client's options (`new Client(options)`); `ClientOptions` adds what only
    /// JavaScript holds.
    pub struct ClientSettings {
        /// Base address of the platform; may carry a path prefix (`https://school.example.com/app`).
        baseUrl base_url: &'a str = required, string;
        /// API token (from `login`; 8+ characters of `A-Z a-z 0-9 - . _ ~`, as the platform's are); never shown in an error or a log. Only `login` works without one.
        #[serde(borrow)]
        token token: Option<&'a str> = none, token;
        /// Per-attempt timeout in ms; 0 turns it off.
        timeoutMs timeout_ms: f64 = 30000, ms;
        /// Automatic retries of GET calls on network errors, timeouts, HTTP 429/5xx, 0 to 10; `Retry-After` is honoured up to 60 s (a longer one is not retried but returned to you). POSTs are never retried.
        maxRetries max_retries: u32 = 2, retries;
        /// First retry delay in ms, doubled each retry, unless the server sends Retry-After.
        retryDelayMs retry_delay_ms: f64 = 300, ms;
        // The default bound, 32 MiB, is 300 times the largest page the API serves (100 courses,
        // ~100 KB), and far below the ~140 MB at which decoding runs the wasm out of memory.
        /// The largest response body read, in bytes (32 MiB by default), by `Content-Length`, then as streamed; a larger one rejects with ResponseTooLargeError; 0 turns the bound off.
        maxResponseBytes max_response_bytes: f64 = 33554432, bytes;
        /// Spelling of the get-single-user path: `"users"` (the contract's sample call) or `"user"`.
        userPath user_path: UserPath = "users", user_path;
        /// Refuse input that breaks the platform's documented rules too (name ≥ 3, username 3–20 a-z0-9, password 6–35), not only the contract's.
        strictPlatformRules strict_platform_rules: bool = false, flag;
        /// In a browser page, the token is the signed-in user's own (a dashboard whose user logged in), not an administrator's kept in the page: without it, a client given a token in a browser throws ConfigError (`option: "ownToken"`).
        ownToken own_token: bool = false, flag;
        /// The contract's 10-minute interval between bulk creates: `guard` `"reject"`, `"wait"` or `"off"`.
        createInterval create_interval: IntervalOptions = {
            /// "reject": a create inside the interval rejects with IntervalError; "wait": it waits; "off": no guard.
            guard guard: GuardMode = "reject", guard;
            /// Interval length in ms (the contract's 10 minutes).
            intervalMs interval_ms: f64 = 600000, ms;
        }, IntervalOptions;
        /// The platform's advised 5 s between `createLoginToken` calls, kept like `createInterval`.
        loginTokenInterval login_token_interval: IntervalOptions = {
            /// "reject", "wait" or "off", as for `createInterval`.
            guard guard: GuardMode = "reject", guard;
            /// Interval length in ms.
            intervalMs interval_ms: f64 = 5000, ms;
        }, IntervalOptions;
        /// The platform's advised 5 s between `registerUser` calls (create-single-user), kept like `createInterval`.
        registerInterval register_interval: IntervalOptions = {
            /// "reject", "wait" or "off", as for `createInterval`.
            guard guard: GuardMode = "reject", guard;
            /// Interval length in ms.
            intervalMs interval_ms: f64 = 5000, ms;
        }, IntervalOptions;
    }
}

/// The options only JavaScript holds, which `ClientOptions` (`pkg-templates/options.ts`) adds to
/// [`ClientSettings`]: name, default and doc of their rows in the npm README's table.
#[cfg(test)]
const JS_ONLY_ROWS: &[(&str, &str, &str)] = &[
    (
        "`fetch`",
        "global `fetch`",
        "inject your own (proxies, tests)",
    ),
    (
        "`intervalStore`",
        "this page or process's memory",
        "where the intervals keep the last call: `fileStore(path)` (Node, Deno, Bun), \
         `webStorageStore(localStorage)`, or any `{ get(key), set(key, atMs) }` (sync or async)",
    ),
    (
        "`headers`",
        "",
        "sent with every request (proxies, gateways); the token is never put in a header",
    ),
    (
        "`onRequest`, `onResponse`, `onRetry`, `onError`",
        "",
        "hooks, see below",
    ),
    (
        "`logger`",
        "`LPM_LOG`",
        "`{ debug, info, warn, error }` functions (`console` fits): one `debug` line per \
         attempt, `warn` for retries and failures. Without it, the environment's \
         `LPM_LOG=debug|info|warn|error` (where `process.env` exists) sends lines from that \
         level on to the console",
    ),
];

/// Where the npm README's options table starts and ends.
#[cfg(test)]
const TABLE_MARKS: [&str; 2] = [
    "<!-- options: generated from src/options.rs by `cargo test -p lpm-client options_md` \
     (LPM_WRITE_DOCS=1 rewrites it); do not edit by hand -->\n",
    "<!-- /options -->\n",
];

/// The npm README's table of the client's options: each option of [`ClientSettings`] with its
/// default and doc, then those only JavaScript holds.
#[cfg(test)]
fn options_table() -> String {
    let cell = |text: &str| text.trim().replace('|', "\\|");
    let mut out = String::from("| option | default | |\n|---|---|---|\n");
    for (js, default, doc) in README_ROWS {
        let doc: Vec<&str> = doc.iter().map(|l| l.trim()).collect();
        let default = default.replace(", }", " }");
        out.push_str(&format!(
            "| `{js}` | {default} | {} |\n",
            cell(&doc.join(" "))
        ));
    }
    for (js, default, doc) in JS_ONLY_ROWS {
        out.push_str(&format!("| {js} | {default} | {} |\n", cell(doc)));
    }
    out
}

/// Whether a client may hold `token` where it runs. Decision: in a browser page a token is
/// refused unless the app says it is the signed-in user's own (`ownToken`, the dashboard's case),
/// as openai-node's `dangerouslyAllowBrowser`: the token signs in as anyone (`createLoginToken`),
/// and a public page (a sign-up form) must call its own server instead. Elsewhere (Node, Deno,
/// Bun, Workers, Web Workers) it is the server's own. The refusal is the option's error
/// (`problem: "option"`, `option: "ownToken"`), which says what to do.
pub fn check_token_place(in_browser: bool, own_token: bool, has_token: bool) -> Result<(), Error> {
    if in_browser && has_token && !own_token {
        return Err(option_error(
            "ownToken",
            "true for a token in a browser page",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interval::LOGIN_TOKEN_INTERVAL_MS;

    #[test]
    fn options_md_is_current() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/pkg-templates/README.md");
        let committed = std::fs::read_to_string(path).expect("pkg-templates/README.md read");
        let [open, close] = TABLE_MARKS;
        let (head, rest) = committed
            .split_once(open)
            .expect("the README's table's start mark");
        let (_, tail) = rest
            .split_once(close)
            .expect("the README's table's end mark");
        let text = format!("{head}{open}{}{close}{tail}", options_table());
        crate::text::assert_generated("pkg-templates/README.md", &text, "options_md");
    }

    #[test]
    fn a_token_in_a_browser_is_refused_unless_it_is_the_users_own() {
        let refused = Err(option_error(
            "ownToken",
            "true for a token in a browser page",
        ));
        assert_eq!(check_token_place(true, false, true), refused);
        assert_eq!(check_token_place(true, true, true), Ok(()));
        assert_eq!(
            check_token_place(true, false, false),
            Ok(()),
            "login needs no token"
        );
        assert_eq!(check_token_place(false, false, true), Ok(()), "a server's");
    }

    /// Reads `text`; the strings of the result are leaked (a test's few bytes).
    fn read(text: &str) -> Result<ClientSettings<'static>, Bad> {
        let text: &'static str = Box::leak(text.to_owned().into_boxed_str());
        let tree = Box::leak(Box::new(crate::json::parse(text).unwrap()));
        ClientSettings::read(tree)
    }

    #[test]
    fn the_typescript_names_every_option_and_its_default() {
        for (js, default) in DEFAULTS_AS_JS {
            if default.is_empty() {
                assert!(TS.contains(&format!("    {js}")), "{js}\n{TS}");
            } else if let Some(members) = default.strip_prefix('{') {
                assert!(TS.contains(&format!("    {js}?: {{\n")), "{js}\n{TS}");
                // Each member of a nested object with its own default, in its block.
                let block = TS.split(&format!("{js}?: {{")).nth(1).unwrap();
                let block = block.split("    } | undefined;").next().unwrap();
                for member in members.trim_end_matches(",}").split(',') {
                    let (name, value) = member.split_once(':').unwrap();
                    let name = name.trim_matches('"');
                    assert!(
                        block.contains(&format!("Default `{value}`. */\n        {name}?: ")),
                        "{js}.{name}\n{TS}"
                    );
                }
            } else {
                assert!(
                    TS.contains(&format!("Default `{default}`. */\n    {js}?: ")),
                    "{js}\n{TS}"
                );
            }
        }
        assert!(TS.contains("export interface ClientSettings {"));
        assert!(TS.contains("    baseUrl: string;\n"), "required");
        assert!(TS.contains("    userPath?: UserPath | undefined;\n"));
        assert!(TS.contains("        guard?: GuardMode | undefined;\n"));
    }

    #[test]
    fn the_defaults_in_the_typescript_are_the_values_the_client_takes() {
        // The defaults' text, read back by serde and by the hand reader, is `DEFAULT`.
        let mut text = String::from(r#"{"baseUrl":"https://x.example""#);
        for (js, default) in DEFAULTS_AS_JS.iter().filter(|(_, d)| !d.is_empty()) {
            let default = default.replace(",}", "}");
            text.push_str(&format!(r#","{js}":{default}"#));
        }
        text.push('}');
        let expected = ClientSettings {
            base_url: "https://x.example",
            ..ClientSettings::DEFAULT
        };
        assert_eq!(
            serde_json::from_str::<ClientSettings>(&text).unwrap(),
            expected
        );
        assert_eq!(read(&text).unwrap(), expected, "{text}");
        assert_eq!(
            read(r#"{"baseUrl":"https://x.example"}"#).unwrap(),
            expected
        );
    }

    #[test]
    fn serde_and_the_hand_reader_read_options_alike() {
        let text = r#"{"baseUrl":"https://x.example/app","token":"t0k3n-0123","timeoutMs":0,
            "maxRetries":10,"retryDelayMs":1.5,"maxResponseBytes":1024,"userPath":"user",
            "strictPlatformRules":true,"createInterval":{"guard":"wait","intervalMs":60000},
            "loginTokenInterval":{"guard":"off","intervalMs":0}}"#;
        let hand = read(text).unwrap();
        assert_eq!(hand.token, Some("t0k3n-0123"));
        assert_eq!(hand.create_interval.guard, GuardMode::Wait);
        let serde: ClientSettings = serde_json::from_str(text).unwrap();
        assert_eq!(serde, hand);
        // A nested member left out takes that option's default (serde, which knows one default per
        // type, needs both members).
        let part = read(r#"{"baseUrl":"https://x.example","loginTokenInterval":{"guard":"off"}}"#);
        let part = part.unwrap().login_token_interval;
        assert_eq!(part.interval_ms, LOGIN_TOKEN_INTERVAL_MS);
        assert_eq!(part.guard, GuardMode::Off);
    }

    #[test]
    fn a_bad_option_is_named() {
        let named = |text: &str| match read(text) {
            Err(Bad { name, .. }) => name,
            other => panic!("{other:?}"),
        };
        let base = r#"{"baseUrl":"https://x.example","#;
        assert_eq!(named("{}"), "baseUrl");
        assert_eq!(named(&format!(r#"{base}"maxRetries":1.5}}"#)), "maxRetries");
        assert_eq!(named(&format!(r#"{base}"maxRetries":11}}"#)), "maxRetries");
        assert_eq!(named(&format!(r#"{base}"timeoutMs":-1}}"#)), "timeoutMs");
        assert_eq!(named(&format!(r#"{base}"userPath":"u"}}"#)), "userPath");
        assert_eq!(
            named(&format!(r#"{base}"strictPlatformRules":1}}"#)),
            "strictPlatformRules"
        );
        assert_eq!(
            named(&format!(r#"{base}"createInterval":null}}"#)),
            "createInterval"
        );
        assert_eq!(
            named(&format!(r#"{base}"createInterval":{{"guard":"skip"}}}}"#)),
            "createInterval.guard"
        );
        assert_eq!(
            named(&format!(
                r#"{base}"loginTokenInterval":{{"intervalMs":"5"}}}}"#
            )),
            "loginTokenInterval.intervalMs"
        );
        assert_eq!(named(&format!(r#"{base}"token":5}}"#)), "token");
        assert_eq!(
            read(&format!(r#"{base}"token":null}}"#)).unwrap().token,
            None
        );
    }
}
