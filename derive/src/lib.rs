//! `#[derive(Shape)]`: the description of a response model that `lpm_client::check` reads, taken
//! from the same serde attributes that drive the typed decode, so the two cannot drift apart: a
//! serde attribute not modelled here is a compile error.
//!
//! Read: `rename_all` (only `camelCase`, the one the models use), and per field `rename`,
//! `default`, `flatten` (the extra map: leaves the field out; unknown keys are always skipped) and
//! `skip_deserializing` (a derived field: left out). A field is required unless its type is
//! `Option<..>` or it has `#[serde(default)]`, as serde decides. The type's own description comes
//! from `lpm_client::check::Described`, implemented for the wire types.

use proc_macro::TokenStream;
use quote::quote;
use syn::{parse_macro_input, Data, DeriveInput, Fields, LitStr, Type};

#[derive(Default)]
struct FieldAttrs {
    rename: Option<String>,
    default: bool,
    flatten: bool,
    skip: bool,
    tally: bool,
}

/// Field attributes about how a value is written only: what is accepted does not change.
const SERIALIZE_ONLY: [&str; 3] = ["skip_serializing_if", "skip_serializing", "serialize_with"];

/// A serde attribute the derives do not model (`alias`, `with`, `deserialize_with`, `tag`,
/// `deny_unknown_fields`, ...) would make serde accept what the gate's table does not say, or the
/// other way round: refused, so the two cannot drift.
fn unmodelled(m: &syn::meta::ParseNestedMeta) -> syn::Error {
    let name = m
        .path
        .get_ident()
        .map_or_else(|| "?".to_owned(), |i| i.to_string());
    m.error(format!(
        "lpm-derive does not model serde's `{name}`: the gate's table would differ from serde's decode (model it in derive/src/lib.rs first)"
    ))
}

fn field_attrs(attrs: &[syn::Attribute]) -> syn::Result<FieldAttrs> {
    let mut out = FieldAttrs::default();
    for attr in attrs {
        if attr.path().is_ident("shape") {
            attr.parse_nested_meta(|m| {
                if m.path.is_ident("tally") {
                    out.tally = true;
                }
                Ok(())
            })?;
        }
        if !attr.path().is_ident("serde") {
            continue;
        }
        attr.parse_nested_meta(|m| {
            if m.path.is_ident("rename") {
                out.rename = Some(m.value()?.parse::<LitStr>()?.value());
            } else if m.path.is_ident("default") {
                out.default = true;
                if m.input.peek(syn::Token![=]) {
                    m.value()?.parse::<LitStr>()?;
                }
            } else if m.path.is_ident("flatten") {
                out.flatten = true;
            } else if m.path.is_ident("skip_deserializing") || m.path.is_ident("skip") {
                out.skip = true;
            } else if SERIALIZE_ONLY.iter().any(|a| m.path.is_ident(a)) {
                // How a value is written, not what is accepted.
                if m.input.peek(syn::Token![=]) {
                    m.value()?.parse::<LitStr>()?;
                }
            } else {
                return Err(unmodelled(&m));
            }
            Ok(())
        })?;
    }
    Ok(out)
}

fn rename_all(attrs: &[syn::Attribute]) -> syn::Result<Option<String>> {
    let mut out = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        attr.parse_nested_meta(|m| {
            if m.path.is_ident("rename_all") {
                out = Some(m.value()?.parse::<LitStr>()?.value());
                Ok(())
            } else {
                Err(unmodelled(&m))
            }
        })?;
    }
    Ok(out)
}

fn camel(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut up = false;
    for c in s.chars() {
        if c == '_' {
            up = true;
        } else if up {
            out.extend(c.to_uppercase());
            up = false;
        } else {
            out.push(c);
        }
    }
    out
}

fn is_option(ty: &Type) -> bool {
    matches!(ty, Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "Option"))
}

/// Derives `Described` (the model as `Ty::Obj`) for a struct with named fields.
#[proc_macro_derive(Shape, attributes(shape))]
pub fn derive_shape(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

fn expand(input: &DeriveInput) -> syn::Result<proc_macro2::TokenStream> {
    let Data::Struct(data) = &input.data else {
        return Err(syn::Error::new_spanned(input, "Shape: structs only"));
    };
    let Fields::Named(named) = &data.fields else {
        return Err(syn::Error::new_spanned(input, "Shape: named fields only"));
    };
    let all = rename_all(&input.attrs)?;
    if all.as_deref().is_some_and(|r| r != "camelCase") {
        return Err(syn::Error::new_spanned(
            input,
            "Shape: only rename_all = \"camelCase\"",
        ));
    }
    let mut fields = Vec::new();
    let mut required_mask: u64 = 0;
    let mut tally = quote!(None);
    for f in &named.named {
        let a = field_attrs(&f.attrs)?;
        if a.flatten || a.skip {
            continue;
        }
        let ident = f.ident.as_ref().map(|i| i.to_string()).unwrap_or_default();
        let ident = ident.trim_start_matches("r#");
        let wire = a.rename.unwrap_or_else(|| {
            if all.is_some() {
                camel(ident)
            } else {
                ident.to_owned()
            }
        });
        let ty = &f.ty;
        let required = !(a.default || is_option(ty));
        if required && fields.len() < 64 {
            required_mask |= 1 << fields.len();
        }
        if a.tally {
            let i = fields.len();
            tally = quote!(Some(#i));
        }
        fields.push(quote! {
            crate::check::Field {
                name: #wire,
                ty: <#ty as crate::check::Described>::TY,
            }
        });
    }
    if fields.len() > 64 {
        return Err(syn::Error::new_spanned(
            input,
            "Shape: at most 64 fields (a u64 marks the seen ones)",
        ));
    }
    let name = &input.ident;
    Ok(quote! {
        impl crate::check::Described for #name {
            const TY: crate::check::Ty = crate::check::Ty::Obj(&crate::check::Shape {
                fields: &[#(#fields),*],
                required: #required_mask,
                tally: #tally,
            });
        }
    })
}

/// Derives `serde::Serialize` for an enum of unit variants as its serde name, from the same
/// attributes serde's derive reads (`rename_all`: `camelCase`, `lowercase`, `UPPERCASE`; per
/// variant `rename`), and `SERDE_NAMES` (the names in variant order) with `serde_name()`. Serde's own derive writes a
/// call per variant; this is one table lookup (the wasm carries the names and no code per name).
#[proc_macro_derive(SerializeUnit, attributes(serde))]
pub fn derive_serialize_unit(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand_unit(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

fn expand_unit(input: &DeriveInput) -> syn::Result<proc_macro2::TokenStream> {
    let Data::Enum(data) = &input.data else {
        return Err(syn::Error::new_spanned(input, "SerializeUnit: enums only"));
    };
    let all = rename_all(&input.attrs)?;
    let mut names = Vec::new();
    for v in &data.variants {
        if !matches!(v.fields, Fields::Unit) || v.discriminant.is_some() {
            return Err(syn::Error::new_spanned(
                v,
                "SerializeUnit: unit variants without discriminants only",
            ));
        }
        let ident = v.ident.to_string();
        let name = match (field_attrs(&v.attrs)?.rename, all.as_deref()) {
            (Some(name), _) => name,
            (None, None) => ident,
            (None, Some("camelCase")) => {
                let mut c = ident.chars();
                c.next()
                    .map(|f| f.to_lowercase().chain(c).collect())
                    .unwrap_or_default()
            }
            (None, Some("lowercase")) => ident.to_lowercase(),
            (None, Some("UPPERCASE")) => ident.to_uppercase(),
            (None, Some(_)) => {
                return Err(syn::Error::new_spanned(
                    input,
                    "SerializeUnit: rename_all camelCase, lowercase or UPPERCASE",
                ))
            }
        };
        names.push(name);
    }
    let ty = &input.ident;
    let n = names.len();
    Ok(quote! {
        impl #ty {
            /// Each variant's serde name, in variant order.
            pub const SERDE_NAMES: [&'static str; #n] = [#(#names),*];

            /// The variant's serde name.
            pub fn serde_name(self) -> &'static str {
                match Self::SERDE_NAMES.get(self as usize) {
                    Some(name) => name,
                    None => "",
                }
            }
        }
        impl ::serde::Serialize for #ty {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error> {
                s.serialize_str(self.serde_name())
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    #[test]
    fn field_attributes_it_models_or_that_only_write_are_read() {
        let a = field_attrs(&[
            parse_quote!(#[serde(default, rename = "_id", skip_serializing_if = "Option::is_none")]),
            parse_quote!(#[serde(flatten, skip_deserializing)]),
        ])
        .unwrap();
        assert_eq!(a.rename.as_deref(), Some("_id"));
        assert!(a.default && a.flatten && a.skip);
    }

    #[test]
    fn field_attributes_that_change_what_is_accepted_are_refused() {
        for attr in [
            parse_quote!(#[serde(alias = "mail")]),
            parse_quote!(#[serde(with = "m")]),
            parse_quote!(#[serde(deserialize_with = "f")]),
            parse_quote!(#[serde(borrow)]),
        ] {
            let e = field_attrs(&[attr]).err().expect("refused");
            assert!(e.to_string().contains("does not model serde's"), "{e}");
        }
    }

    #[test]
    fn container_attributes_other_than_rename_all_are_refused() {
        let ok: syn::Attribute = parse_quote!(#[serde(rename_all = "camelCase")]);
        assert_eq!(rename_all(&[ok]).unwrap().as_deref(), Some("camelCase"));
        for attr in [
            parse_quote!(#[serde(deny_unknown_fields)]),
            parse_quote!(#[serde(tag = "kind")]),
            parse_quote!(#[serde(transparent)]),
        ] {
            assert!(rename_all(&[attr]).is_err());
        }
    }
}
