// Reads TypeDoc's JSON of the packages' declarations (scripts/api-docs.sh) and fails on what a
// reader of the reference would miss or should not see:
// - a public symbol without a doc comment: every export of a module or namespace, and every own
//   member of an exported class or interface (a property typed by one literal, a discriminant
//   such as `kind: "api"`, explains itself; members of object types inside unions, the tsify
//   unions of the Rust enums, are documented by their union);
// - a method of `Client` or `BulkMethods` without `@param` for each parameter, `@returns` (unless
//   it returns nothing), `@throws` (when it returns a promise or an async iterator) and `@example`;
// - a doc comment that names Rust internals (tsify copies the Rust models' doc comments).
// Usage: node check.mjs API.json
import { readFileSync } from 'node:fs';

const K = {
  Module: 2, Namespace: 4, Variable: 32, Function: 64, Class: 128, Interface: 256, Constructor: 512,
  Property: 1024, Method: 2048, Accessor: 262144, TypeAlias: 2097152, Reference: 4194304,
};
const RUST = [
  [/\[`[^`\]]+`\]/, 'a rustdoc link ([`Item`])'],
  [/\w::\w/, 'a Rust path (a::b)'],
  [/\bsrc\/|\.rs\b|pkg-templates\/|wasm\/src/, 'a source path'],
  [/\b(Option|Vec|Box|Result)<|\bSome\(|\bNone\b|\bcrate\b|\bimpl\b|\bstruct\b|\bserde\b/, 'Rust syntax'],
];

const project = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const problems = [];
const text = (parts) => (parts ?? []).map((p) => p.text).join('');
const summary = (c) => text(c?.summary).trim() !== '';
const tags = (c, tag) => (c?.blockTags ?? []).filter((t) => t.tag === tag);
const documented = (r) =>
  summary(r.comment) || (r.signatures ?? []).some((s) => summary(s.comment)) || summary(r.getSignature?.comment) ||
  // A variable holding a function: its doc may sit on the signature of its type.
  (r.type?.declaration?.signatures ?? []).some((s) => summary(s.comment));

function checkMethod(where, m) {
  for (const sig of m.signatures ?? []) {
    const c = sig.comment ?? {};
    for (const p of sig.parameters ?? []) if (!summary(p.comment)) problems.push(`${where}: no @param ${p.name}`);
    const ret = sig.type;
    const returnsNothing = ret?.type === 'intrinsic' && ret.name === 'void';
    if (!returnsNothing && !tags(c, '@returns').length) problems.push(`${where}: no @returns`);
    const async = ret?.type === 'reference' && ['Promise', 'AsyncGenerator'].includes(ret.name);
    if (async && !tags(c, '@throws').length) problems.push(`${where}: no @throws`);
    if (!tags(c, '@example').length && !m.name.startsWith('[')) problems.push(`${where}: no @example`);
  }
}

function walkContainer(path, r) {
  for (const child of r.children ?? []) {
    const where = `${path}.${child.name}`;
    if (child.kind === K.Reference) continue;
    if (!documented(child)) problems.push(`${where}: no doc comment`);
    if (child.kind === K.Namespace) walkContainer(where, child);
    if (child.kind === K.Class || child.kind === K.Interface) walkMembers(where, child);
  }
}

function walkMembers(path, r) {
  const methodsChecked = r.name === 'Client' || r.name === 'BulkMethods';
  for (const m of r.children ?? []) {
    const where = `${path}.${m.name}`;
    if (m.inheritedFrom || m.flags?.isPrivate || m.kind === K.Constructor && !methodsChecked) continue;
    if (m.kind === K.Property && m.type?.type === 'literal') continue;
    if (!documented(m)) problems.push(`${where}: no doc comment`);
    if (methodsChecked && (m.kind === K.Method || m.kind === K.Constructor)) checkMethod(where, m);
  }
}

function scanText(path, r) {
  const comments = [r.comment, ...(r.signatures ?? []).flatMap((s) => [s.comment, ...(s.parameters ?? []).map((p) => p.comment)]),
    r.getSignature?.comment];
  for (const c of comments) {
    if (!c) continue;
    const all = text(c.summary) + (c.blockTags ?? []).map((t) => text(t.content)).join('\n');
    // Code samples are TypeScript; only the prose is read.
    const prose = all.replace(/```[\s\S]*?```/g, '');
    for (const [re, what] of RUST) {
      const m = re.exec(prose);
      if (m) problems.push(`${path}: names ${what}: "${m[0]}"`);
    }
  }
  for (const child of [...(r.children ?? []), ...(r.type?.declaration ? [r.type.declaration] : [])]) {
    scanText(`${path}.${child.name}`, child);
  }
  // Members of object types (the tsify unions' variants, option objects).
  const walkType = (t) => {
    if (!t || typeof t !== 'object') return;
    if (t.type === 'reflection' && t.declaration) scanText(path, { children: t.declaration.children });
    for (const v of Object.values(t)) if (Array.isArray(v)) v.forEach(walkType); else if (v && typeof v === 'object') walkType(v);
  };
  walkType(r.type);
}

for (const mod of project.children ?? []) {
  walkContainer(mod.name, mod);
  scanText(mod.name, mod);
}

const unique = [...new Set(problems)];
if (unique.length > 0) {
  console.error(`API reference: ${unique.length} problem(s) in the packages' declarations:`);
  for (const p of unique) console.error(`  ${p}`);
  process.exit(1);
}
const count = (project.children ?? []).reduce((n, m) => n + (m.children ?? []).length, 0);
console.log(`API reference: ${count} public symbols, each documented; no Rust internals in the docs`);
