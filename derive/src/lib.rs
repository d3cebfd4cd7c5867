//! `#[derive(Shape)]`: the description of a response model that `lpm_client::check` reads, taken
//! from the same serde attributes that drive the typed decode, so the two cannot drift apart.
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
            } else if m.input.peek(syn::Token![=]) {
                // skip_serializing_if = "...", with = "...": not about what is accepted.
                m.value()?.parse::<LitStr>()?;
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
            } else if m.input.peek(syn::Token![=]) {
                m.value()?.parse::<LitStr>()?;
            }
            Ok(())
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
