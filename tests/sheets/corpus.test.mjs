// The fixed subset of the corpus (tests/sheets/corpus/, with its licences): every cell of every
// sheet as LibreOffice shows it, through sheets/corpus.mjs, the comparison sheets/README.md's
// figures come from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

test('the corpus subset: every cell of every workbook as LibreOffice shows it', () => {
  const script = fileURLToPath(new URL('../../sheets/corpus.mjs', import.meta.url));
  const dir = fileURLToPath(new URL('corpus', import.meta.url));
  const { total, report } = JSON.parse(execFileSync(process.execPath, [script, dir, '--json'], { encoding: 'utf8' }));
  assert.equal(total.files, 19);
  assert.deepEqual(report, []);
  assert.equal(total.same, total.files);
});
