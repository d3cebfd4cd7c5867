//! Open value sets: the contract names some values of a field but says the list is incomplete.
//!
//! Each set is an enum with its known values and `Other(String)`, which keeps any other string
//! exactly as received, so nothing the server sends is lost or rejected.

/// Defines an open string enum: known variants with their wire spellings, plus `Other(String)`.
///
/// Serialized as the plain string; deserialized without allocating for known values.
macro_rules! open_enum {
    (
        $(#[$meta:meta])*
        $name:ident { $( $(#[$vmeta:meta])* $variant:ident = $wire:literal ),* $(,)? }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $( #[doc = concat!("`", $wire, "`")] $(#[$vmeta])* $variant, )*
            /// A value the contract does not list, kept exactly as the server sent it.
            Other(String),
        }

        impl $name {
            /// Every value the contract names, in its wire spelling.
            pub const KNOWN: &'static [&'static str] = &[$($wire),*];

            /// The wire spelling of this value.
            pub fn as_str(&self) -> &str {
                match self {
                    $( Self::$variant => $wire, )*
                    Self::Other(s) => s.as_str(),
                }
            }

            /// Whether the value is one the contract names.
            pub fn is_known(&self) -> bool {
                !matches!(self, Self::Other(_))
            }
        }

        #[cfg(feature = "wasm")]
        const _: () = {
            #[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
            const TS: &str = concat!(
                "/** Open value set: the known values, or any other string as received. */\nexport type ",
                stringify!($name), " = ", $( "\"", $wire, "\" | ", )* "(string & {});"
            );
        };

        impl $crate::check::Described for $name {
            const TY: $crate::check::Ty = $crate::check::Ty::Str;
        }

        impl From<&str> for $name {
            fn from(s: &str) -> Self {
                match s {
                    $( $wire => Self::$variant, )*
                    other => Self::Other(other.to_owned()),
                }
            }
        }

        impl From<String> for $name {
            fn from(s: String) -> Self {
                match s.as_str() {
                    $( $wire => Self::$variant, )*
                    _ => Self::Other(s),
                }
            }
        }

        impl ::core::fmt::Display for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl<'de> ::serde::de::Visitor<'de> for V {
                    type Value = $name;
                    fn expecting(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        f.write_str("a string")
                    }
                    fn visit_str<E: ::serde::de::Error>(self, v: &str) -> Result<$name, E> {
                        Ok($name::from(v))
                    }
                    fn visit_string<E: ::serde::de::Error>(self, v: String) -> Result<$name, E> {
                        Ok($name::from(v))
                    }
                }
                d.deserialize_str(V)
            }
        }
    };
}

open_enum! {
    /// Course `type`. The contract lists SALE and UPCOMMING (spelled so) and says the list is incomplete.
    CourseType { Sale = "SALE", Upcomming = "UPCOMMING" }
}

open_enum! {
    /// `trailer.sourceType` and `docs[].sourceType`. The third value named in the contract is a
    /// third-party video host whose name is not given, so it arrives as `Other`.
    SourceType { Upload = "UPLOAD", Embed = "EMBED" }
}

open_enum! {
    /// `docs[].type`.
    DocType { Video = "VIDEO", Pdf = "PDF" }
}

open_enum! {
    /// Cart entry `status`.
    CartStatus { Deleted = "DELETED" }
}

open_enum! {
    /// Per-item outcome of account creation, in the platform's spellings.
    CreateStatus {
        /// `Success created`: the only status with `success: true`.
        SuccessCreated = "Success created",
        /// `Email already in use`.
        EmailInUse = "Email already in use",
        /// `Username already in use`.
        UsernameInUse = "Username already in use",
        /// `Not enough required infomation to create new user` (spelled so).
        NotEnoughInformation = "Not enough required infomation to create new user",
        /// `Server error in create new use` (spelled so).
        ServerError = "Server error in create new use",
    }
}

open_enum! {
    /// Per-account outcome of add-courses. Only `Success` is shown by the contract.
    AddCourseStatus { Success = "Success" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_and_unknown_values_round_trip() {
        let t: CourseType = serde_json::from_str("\"UPCOMMING\"").unwrap();
        assert_eq!(t, CourseType::Upcomming);
        let t: CourseType = serde_json::from_str("\"DRAFT\"").unwrap();
        assert_eq!(t, CourseType::Other("DRAFT".into()));
        assert_eq!(serde_json::to_string(&t).unwrap(), "\"DRAFT\"");
        let s: CreateStatus =
            serde_json::from_str("\"Not enough required infomation to create new user\"").unwrap();
        assert_eq!(s, CreateStatus::NotEnoughInformation);
        // escaped strings take the owned path and still match
        let s: CreateStatus = serde_json::from_str("\"Success\\u0020created\"").unwrap();
        assert_eq!(s, CreateStatus::SuccessCreated);
        assert!(serde_json::from_str::<DocType>("3").is_err());
    }
}
