// LPM_LOG: a client without a `logger` option logs from the environment's level on, to the
// console, never the token; without it (or with a level it does not know) nothing is logged.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

const TOKEN = 't0k3n-logged-never-0123';
const script = `
import { Client } from ${JSON.stringify(new URL('../../pkg/node.js', import.meta.url).href)};
const body = ${JSON.stringify(readFileSync(new URL('../fixtures/get-me/success.json', import.meta.url), 'utf8'))};
const fetch = async () => new Response(body, { status: 200 });
const client = new Client({ baseUrl: 'https://school.example.com', token: ${JSON.stringify(TOKEN)}, fetch });
await client.getMe();
`;
const run = (level) => spawnSync(process.execPath, ['--input-type=module', '-e', script], {
  env: { ...process.env, LPM_LOG: level ?? '' }, encoding: 'utf8',
});

test('LPM_LOG=debug logs each attempt to the console, the token redacted', () => {
  const r = run('debug');
  assert.equal(r.status, 0, r.stderr);
  const out = r.stdout + r.stderr;
  assert.match(out, /lpm-client: GET https:\/\/school\.example\.com\/manage\/api\/users\/get-me\?token=<redacted> attempt 1: 200/);
  assert.ok(!out.includes(TOKEN), out);
});

test('LPM_LOG=warn leaves out debug lines; unset or unknown logs nothing', () => {
  for (const level of ['warn', undefined, 'loud']) {
    const r = run(level);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout + r.stderr, '', `LPM_LOG=${level}`);
  }
});
