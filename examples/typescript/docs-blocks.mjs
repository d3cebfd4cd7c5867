// Every TypeScript and JavaScript block of the npm READMEs and every example of the API reference
// (the rest of its blocks are declarations) as a file of its
// own (in .docs/), each after the declarations of the names it uses without defining (`client`,
// `rows`, ...: what a reader has at that point), for tsc under the examples' strict settings
// (docs-blocks.tsconfig.json: the examples' tsconfig.json). A block that does not compile is a
// doc that is wrong. Usage: node docs-blocks.mjs (writes .docs/ and prints how many blocks), then
// tsc -p docs-blocks.tsconfig.json; check.mjs runs both.
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');

/** The documents, and the package their `client` is of. */
const walk = (dir) => readdirSync(dir).flatMap((f) => {
  const p = path.join(dir, f);
  return statSync(p).isDirectory() ? walk(p) : p.endsWith('.md') ? [p] : [];
});
const DOCS = [
  'pkg-templates/README.md',
  'pkg-templates/README-bulk.md',
  ...walk(path.join(root, 'docs/api')).map((p) => path.relative(root, p)),
];
const bulkDoc = (doc) => /bulk/i.test(doc);

/** What a reader has before a block: each name's declaration, used when the block uses the name
 * and binds none of its own. `PKG` stands for the document's package. */
const GIVEN = {
  client: 'declare const client: import("PKG").Client;',
  email: 'declare const email: string;',
  password: 'declare const password: string;',
  token: 'declare const token: string;',
  baseUrl: 'declare const baseUrl: string;',
  id: 'declare const id: string;',
  ids: 'declare const ids: string[];',
  userId: 'declare const userId: string;',
  courseId: 'declare const courseId: string;',
  key: 'declare const key: string;',
  rows: 'declare const rows: import("PKG").NewUser[];',
  values: 'declare const values: import("PKG").NewUser;',
  user: 'declare const user: import("PKG").NewUser;',
  name: 'declare const name: string;',
  username: 'declare const username: string;',
  slices: 'declare function slices(rows: import("PKG").NewUser[]): Iterable<import("PKG").NewUser[]>;',
  signal: 'declare const signal: AbortSignal;',
  metrics: 'declare const metrics: { count(name: string, tags: object): void };',
  showIssues: 'declare function showIssues(issues: readonly { path: unknown[]; message: string }[]): void;',
  retryAt: 'declare function retryAt(at: Date): void;',
  signIn: 'declare function signIn(): void;',
  offerRetry: 'declare function offerRetry(): void;',
  setError: 'declare function setError(field: string, error: { message: string }): void;',
  button: 'declare const button: { disabled: boolean };',
  renderForm: 'declare function renderForm(options: { resolver: unknown }): void;',
  useForm: 'import { useForm } from "react-hook-form";',
  standardSchemaResolver: 'import { standardSchemaResolver } from "@hookform/resolvers/standard-schema";',
  fileJournal: 'import { fileJournal } from "PKG";',
  ApiError: 'import { ApiError } from "PKG";',
  Client: 'import { Client } from "PKG";',
  validateCreateUser: 'import { validateCreateUser } from "PKG";',
  unlisted: 'import { unlisted } from "PKG";',
  validateCreateUsersInSlices: 'import { validateCreateUsersInSlices } from "PKG";',
};

/** The names a block binds itself: declared, imported, or a parameter-free destructuring. */
function bound(code) {
  const names = new Set();
  for (const m of code.matchAll(/\b(?:const|let|var|function\*?|class)\s+([A-Za-z_$][\w$]*)/g)) names.add(m[1]);
  for (const m of code.matchAll(/\b(?:const|let|var)\s*[{[]([^=]*?)[}\]]\s*=/g)) {
    for (const part of m[1].split(',')) {
      const name = part.split(':').pop().replace(/=.*$/, '').replace(/\.\.\./, '').trim();
      if (/^[A-Za-z_$][\w$]*$/.test(name)) names.add(name);
    }
  }
  for (const m of code.matchAll(/\bimport\s+(?:type\s+)?([\s\S]*?)\s+from\s/g)) {
    for (const part of m[1].replace(/[{}*]/g, ',').split(',')) {
      const name = part.replace(/^\s*type\s+/, '').split(/\s+as\s+/).pop().trim();
      if (/^[A-Za-z_$][\w$]*$/.test(name)) names.add(name);
    }
  }
  return names;
}

/** Writes .docs/ and returns the blocks' count by document. */
export function writeBlocks() {
  const out = path.join(here, '.docs');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const counts = {};
  for (const doc of DOCS) {
    const text = readFileSync(path.join(root, doc), 'utf8');
    const pkg = bulkDoc(doc) ? 'lpm-client-bulk' : 'lpm-client';
    let n = 0;
    for (const m of text.matchAll(/^( *)```(ts|typescript|js|tsx)\n([\s\S]*?)^\1```$/gm)) {
      // The reference's other blocks are the declarations TypeDoc shows: only examples run.
      const heading = text.slice(0, m.index).match(/^#+ .*$/gm)?.pop() ?? '';
      if (doc.startsWith('docs/api/') && !/Example/.test(heading)) continue;
      n += 1;
      const code = m[3].split('\n').map((l) => l.slice(m[1].length)).join('\n');
      const own = bound(code);
      const prelude = Object.entries(GIVEN)
        .filter(([name]) => !own.has(name) && new RegExp(`(^|[^\\w$.])${name.replace('$', '\\$')}\\b`).test(code))
        .map(([, decl]) => decl.replaceAll('PKG', pkg));
      const line = text.slice(0, m.index).split('\n').length + 1;
      const file = `${doc.replace(/[/.]/g, '_')}_${String(n).padStart(3, '0')}.${m[2] === 'tsx' ? 'tsx' : 'ts'}`;
      writeFileSync(path.join(out, file), `// ${doc}:${line}\n${prelude.join('\n')}\n${code}\nexport {};\n`);
    }
    counts[doc] = n;
  }
  return counts;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const counts = writeBlocks();
  console.log(`${Object.values(counts).reduce((a, b) => a + b, 0)} blocks from ${Object.keys(counts).length} documents in .docs/`);
}
