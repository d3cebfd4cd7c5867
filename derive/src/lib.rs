//! `#[derive(Shape)]`: the description of a response model that `lpm_client::check` reads, taken
//! from the same serde attributes that drive the typed decode, so the two cannot drift apart: a
//! serde attribute not modelled here is a compile error. `#[derive(WriteJson)]`: the compact JSON
//! writer of a type the wasm hands JavaScript, from the serde attributes that drive its
//! `Serialize` (the same refusal of what it does not model); `#[derive(SerializeUnit)]`: a unit
//! enum's serde names as one table.
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
    refused(
        m,
        "lpm-derive",
        "the gate's table would differ from serde's decode",
    )
}

/// The error of an attribute `who` does not model, and what modelling it wrongly would do.
fn refused(m: &syn::meta::ParseNestedMeta, who: &str, drift: &str) -> syn::Error {
    let name = m
        .path
        .get_ident()
        .map_or_else(|| "?".to_owned(), |i| i.to_string());
    m.error(format!(
        "{who} does not model serde's `{name}`: {drift} (model it in derive/src/lib.rs first)"
    ))
}

/// Reads past an attribute's `= "..."`, if it has one.
fn ignore_value(m: &syn::meta::ParseNestedMeta) -> syn::Result<()> {
    if m.input.peek(syn::Token![=]) {
        m.value()?.parse::<LitStr>()?;
    }
    Ok(())
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
                ignore_value(&m)?;
            } else if m.path.is_ident("flatten") {
                out.flatten = true;
            } else if m.path.is_ident("skip_deserializing") || m.path.is_ident("skip") {
                out.skip = true;
            } else if SERIALIZE_ONLY.iter().any(|a| m.path.is_ident(a)) {
                // How a value is written, not what is accepted.
                ignore_value(&m)?;
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
        impl crate::json::ser::Put for #ty {
            fn write(&self, o: &mut crate::json::ser::Object) {
                crate::json::push_str(o.raw(), self.serde_name());
            }
        }
    })
}

/// How a field is written, from the serde attributes that change what serde's `Serialize`
/// writes; the ones that change only what is read (`default`, `skip_deserializing`, `alias`,
/// `borrow`, `deserialize_with`) are accepted and change nothing here.
#[derive(Default)]
struct WriteAttrs {
    rename: Option<String>,
    skip: bool,
    flatten: bool,
    /// `skip_serializing_if = "Option::is_none"`.
    skip_none: bool,
    /// `skip_serializing_if = "Vec::is_empty"`.
    skip_empty: bool,
}

/// Field attributes that concern only what serde reads.
const DESERIALIZE_ONLY: [&str; 5] = [
    "default",
    "skip_deserializing",
    "alias",
    "borrow",
    "deserialize_with",
];

/// A serde attribute that changes what serde writes and that `WriteJson` does not model
/// (`with`, `serialize_with`, `getter`, another `skip_serializing_if`, ...): refused, so the
/// writer and serde cannot drift.
fn unmodelled_write(m: &syn::meta::ParseNestedMeta) -> syn::Error {
    refused(m, "WriteJson", "its JSON would differ from serde's")
}

fn write_attrs(attrs: &[syn::Attribute]) -> syn::Result<WriteAttrs> {
    let mut out = WriteAttrs::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        attr.parse_nested_meta(|m| {
            if m.path.is_ident("rename") {
                out.rename = Some(m.value()?.parse::<LitStr>()?.value());
            } else if m.path.is_ident("skip") || m.path.is_ident("skip_serializing") {
                out.skip = true;
            } else if m.path.is_ident("flatten") {
                out.flatten = true;
            } else if m.path.is_ident("skip_serializing_if") {
                match m.value()?.parse::<LitStr>()?.value().as_str() {
                    "Option::is_none" => out.skip_none = true,
                    "Vec::is_empty" => out.skip_empty = true,
                    _ => return Err(unmodelled_write(&m)),
                }
            } else if DESERIALIZE_ONLY.iter().any(|a| m.path.is_ident(a)) {
                ignore_value(&m)?;
            } else {
                return Err(unmodelled_write(&m));
            }
            Ok(())
        })?;
    }
    Ok(out)
}

/// What a container's attributes say of its JSON: `rename_all` (only `camelCase`), and for an
/// enum `rename_all_fields` (only `camelCase`) and `tag`.
#[derive(Debug, Default, PartialEq)]
struct Container {
    camel_case: bool,
    camel_case_fields: bool,
    tag: Option<String>,
}

/// A container's attributes; anything else that changes what serde writes is refused.
fn write_container(attrs: &[syn::Attribute]) -> syn::Result<Container> {
    let mut c = Container::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        attr.parse_nested_meta(|m| {
            let all = m.path.is_ident("rename_all");
            if all || m.path.is_ident("rename_all_fields") {
                let rule = m.value()?.parse::<LitStr>()?.value();
                if rule != "camelCase" {
                    return Err(m.error("WriteJson: only camelCase renaming"));
                }
                if all {
                    c.camel_case = true;
                } else {
                    c.camel_case_fields = true;
                }
            } else if m.path.is_ident("tag") {
                c.tag = Some(m.value()?.parse::<LitStr>()?.value());
            } else if m.path.is_ident("default") {
                // What is read when members are missing.
                ignore_value(&m)?;
            } else {
                return Err(unmodelled_write(&m));
            }
            Ok(())
        })?;
    }
    Ok(c)
}

/// The statements writing named fields into `o` (`access(ident)`: how a field is reached);
/// `camel_case`: the container's `rename_all`.
fn write_fields(
    fields: &syn::FieldsNamed,
    camel_case: bool,
    access: impl Fn(&syn::Ident) -> proc_macro2::TokenStream,
) -> syn::Result<Vec<proc_macro2::TokenStream>> {
    let mut out = Vec::new();
    for f in &fields.named {
        let a = write_attrs(&f.attrs)?;
        if a.skip {
            continue;
        }
        let Some(ident) = f.ident.as_ref() else {
            continue;
        };
        let value = access(ident);
        if a.flatten {
            out.push(quote!(crate::json::ser::WriteJson::write_fields(#value, o);));
            continue;
        }
        let name = ident.to_string();
        let name = name.trim_start_matches("r#");
        let wire = a.rename.unwrap_or_else(|| {
            if camel_case {
                camel(name)
            } else {
                name.to_owned()
            }
        });
        if a.skip_empty {
            out.push(quote! {
                if !(#value).is_empty() {
                    o.put(#wire, #value);
                }
            });
        } else if a.skip_none {
            if !is_option(&f.ty) {
                return Err(syn::Error::new_spanned(
                    f,
                    "WriteJson: skip_serializing_if = \"Option::is_none\" on an Option only",
                ));
            }
            out.push(quote! {
                if let ::core::option::Option::Some(v) = #value {
                    o.put(#wire, v);
                }
            });
        } else {
            out.push(quote!(o.put(#wire, #value);));
        }
    }
    Ok(out)
}

/// Derives `WriteJson`: the compact JSON writer of a struct with named fields, or of an
/// internally tagged enum (`#[serde(tag = ...)]`) of newtype, struct and unit variants, writing
/// what serde's `Serialize` derive writes from the same attributes (`rename_all = "camelCase"`,
/// `rename`, `flatten`, `skip`, `skip_serializing_if = "Option::is_none"`); an attribute that
/// changes serde's output and is not modelled is a compile error. Each field's value is written
/// by its `Put` (`crate::json::ser`), so the wasm carries one small call a field and no serde
/// serializer for the type.
#[proc_macro_derive(WriteJson, attributes(serde))]
pub fn derive_write_json(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand_write(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

fn expand_write(input: &DeriveInput) -> syn::Result<proc_macro2::TokenStream> {
    let Container {
        camel_case,
        camel_case_fields,
        tag,
    } = write_container(&input.attrs)?;
    let body = match &input.data {
        Data::Struct(data) => {
            let Fields::Named(named) = &data.fields else {
                return Err(syn::Error::new_spanned(
                    input,
                    "WriteJson: named fields only",
                ));
            };
            if tag.is_some() || camel_case_fields {
                return Err(syn::Error::new_spanned(
                    input,
                    "WriteJson: tag and rename_all_fields on enums only",
                ));
            }
            let fields = write_fields(named, camel_case, |i| quote!(&self.#i))?;
            quote!(#(#fields)*)
        }
        Data::Enum(data) => {
            let Some(tag) = tag else {
                return Err(syn::Error::new_spanned(
                    input,
                    "WriteJson: internally tagged enums only (#[serde(tag = ...)])",
                ));
            };
            let mut arms = Vec::new();
            for v in &data.variants {
                let a = write_attrs(&v.attrs)?;
                if a.skip || a.flatten || a.skip_none || a.skip_empty {
                    return Err(syn::Error::new_spanned(
                        v,
                        "WriteJson: a variant may only be renamed",
                    ));
                }
                let ident = &v.ident;
                let wire = a.rename.unwrap_or_else(|| {
                    let name = ident.to_string();
                    if camel_case {
                        let mut c = name.chars();
                        c.next()
                            .map(|f| f.to_lowercase().chain(c).collect())
                            .unwrap_or_default()
                    } else {
                        name
                    }
                });
                let head = quote!(o.str(#tag, #wire););
                arms.push(match &v.fields {
                    Fields::Unit => quote!(Self::#ident => { #head }),
                    Fields::Unnamed(f) if f.unnamed.len() == 1 => quote! {
                        Self::#ident(inner) => {
                            #head
                            crate::json::ser::WriteJson::write_fields(inner, o);
                        }
                    },
                    // (serde's `rename_all` on an enum renames its variants; `rename_all_fields`
                    // their fields.)
                    Fields::Named(named) => {
                        let idents: Vec<_> = named
                            .named
                            .iter()
                            .filter_map(|f| f.ident.as_ref())
                            .collect();
                        let fields = write_fields(named, camel_case_fields, |i| quote!(#i))?;
                        quote! {
                            Self::#ident { #(#idents),* } => {
                                #head
                                #(#fields)*
                            }
                        }
                    }
                    Fields::Unnamed(_) => {
                        return Err(syn::Error::new_spanned(
                            v,
                            "WriteJson: a tuple variant has one field",
                        ))
                    }
                });
            }
            quote!(match self { #(#arms)* })
        }
        Data::Union(_) => return Err(syn::Error::new_spanned(input, "WriteJson: no unions")),
    };
    let name = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    Ok(quote! {
        impl #impl_generics crate::json::ser::WriteJson for #name #ty_generics #where_clause {
            fn write_fields(&self, o: &mut crate::json::ser::Object) {
                #body
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

    #[test]
    fn write_attributes_that_only_read_are_accepted() {
        let a = write_attrs(&[
            parse_quote!(#[serde(default, alias = "mail", rename = "_id")]),
            parse_quote!(#[serde(skip_serializing_if = "Option::is_none", skip_deserializing)]),
        ])
        .unwrap();
        assert_eq!(a.rename.as_deref(), Some("_id"));
        assert!(a.skip_none && !a.skip && !a.flatten);
    }

    #[test]
    fn write_attributes_that_change_serdes_output_are_refused() {
        for attr in [
            parse_quote!(#[serde(with = "m")]),
            parse_quote!(#[serde(serialize_with = "f")]),
            parse_quote!(#[serde(skip_serializing_if = "String::is_empty")]),
            parse_quote!(#[serde(getter = "f")]),
        ] {
            let e = write_attrs(&[attr]).err().expect("refused");
            assert!(e.to_string().contains("does not model serde's"), "{e}");
        }
        for attr in [
            parse_quote!(#[serde(untagged)]),
            parse_quote!(#[serde(content = "c")]),
            parse_quote!(#[serde(rename_all = "snake_case")]),
            parse_quote!(#[serde(transparent)]),
        ] {
            assert!(write_container(&[attr]).is_err());
        }
        let tagged: syn::Attribute = parse_quote!(#[serde(tag = "kind", rename_all = "camelCase")]);
        assert_eq!(
            write_container(&[tagged]).unwrap(),
            Container {
                camel_case: true,
                camel_case_fields: false,
                tag: Some("kind".to_owned()),
            }
        );
    }

    #[test]
    fn write_json_refuses_what_it_cannot_write() {
        for input in [
            parse_quote!(
                enum E {
                    A(u8),
                }
            ),
            parse_quote!(
                #[serde(tag = "k")]
                enum E {
                    A(u8, u8),
                }
            ),
            parse_quote!(
                struct S(u8);
            ),
            parse_quote!(
                struct S {
                    #[serde(skip_serializing_if = "Option::is_none")]
                    a: u8,
                }
            ),
        ] {
            assert!(expand_write(&input).is_err());
        }
        let ok: DeriveInput = parse_quote!(
            #[serde(tag = "k", rename_all = "camelCase", rename_all_fields = "camelCase")]
            enum E {
                A(X),
                BeeCee {
                    #[serde(rename = "dd")]
                    d: u8,
                    e_f: u8,
                },
                Unit,
            }
        );
        let text = expand_write(&ok).unwrap().to_string();
        for name in ["\"beeCee\"", "\"dd\"", "\"eF\"", "\"unit\""] {
            assert!(text.contains(name), "{name}: {text}");
        }
    }
}
