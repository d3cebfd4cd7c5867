// The command line's transport (src/transport.js) against a local server: what the client reads
// of an answer, fetch's failures (a refused connection, an answer broken off, an abort before
// and during the answer), redirects, and one connection kept for calls one after another.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { httpFetch, transport } from '../src/transport.js';

/** A server answering with `handler(req, res, body)`; `{ url, sockets(), close() }`. */
async function serve(handler) {
  const sockets = new Set();
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => handler(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  server.on('connection', (s) => sockets.add(s));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    sockets: () => sockets.size,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}

/** The body as text, read as the client reads it (chunk by chunk). */
async function bodyText(res) {
  const reader = res.body.getReader();
  const chunks = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks).toString('utf8');
}

test('an answer: status, headers as fetch reads them, the body chunk by chunk; the request as sent', async () => {
  const s = await serve((req, res, body) => {
    res.setHeader('set-cookie', ['a=1', 'b=2']);
    res.writeHead(201, { 'content-type': 'application/json', 'retry-after': '3' });
    res.end(JSON.stringify({ method: req.method, url: req.url, type: req.headers['content-type'], accept: req.headers.accept, length: req.headers['content-length'], body }));
  });
  try {
    const res = await httpFetch(`${s.url}/a/b?token=t%20x`, { method: 'POST', headers: { accept: 'application/json', 'content-type': 'application/json' }, body: '{"é":1}' });
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('Retry-After'), '3');
    assert.equal(res.headers.get('set-cookie'), 'a=1, b=2');
    assert.equal(res.headers.get('x-none'), null);
    assert.deepEqual(JSON.parse(await bodyText(res)), { method: 'POST', url: '/a/b?token=t%20x', type: 'application/json', accept: 'application/json', length: '8', body: '{"é":1}' });
  } finally {
    await s.close();
  }
});

test('calls one after another share one connection (keep-alive), whether or not the body is read to its end', async () => {
  const s = await serve((req, res) => res.end('{"respCode":"00"}'));
  try {
    for (let i = 0; i < 5; i++) {
      const res = await httpFetch(`${s.url}/x`);
      // The client stops at the announced length; the rest (the end) need not be read.
      const { value } = await res.body.getReader().read();
      assert.equal(Buffer.from(value).toString(), '{"respCode":"00"}');
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.equal(s.sockets(), 1);
  } finally {
    await s.close();
  }
});

test('failures are fetch\'s: a refused connection and an answer broken off reject with a TypeError whose cause is the socket\'s', async () => {
  const s = await serve((req, res) => {
    res.writeHead(200, { 'content-length': '100' });
    res.write('{"partial":');
    setTimeout(() => res.socket.destroy(), 20);
  });
  const url = s.url;
  try {
    const res = await httpFetch(`${url}/x?token=SECRET`);
    await assert.rejects(bodyText(res), (e) => e instanceof TypeError && e.message === 'fetch failed' && e.cause instanceof Error && !String(e.cause).includes('SECRET'));
  } finally {
    await s.close();
  }
  await assert.rejects(httpFetch(`${url}/x?token=SECRET`), (e) => e instanceof TypeError && e.message === 'fetch failed' && e.cause.code === 'ECONNREFUSED' && !String(e.cause.message).includes('SECRET'));
  await assert.rejects(httpFetch('ftp://127.0.0.1/x'), TypeError);
  await assert.rejects(httpFetch('not a url'), TypeError);
});

test('a server that answers a large create before reading it, then resets the connection: the answer is given, the late EPIPE/ECONNRESET crashes nothing', async () => {
  const { createServer: rawServer } = await import('node:net');
  // As nginx's 413 or the emulator above 8 MiB: the answer goes at the first bytes, then the
  // connection is reset while the client still writes the body.
  const server = rawServer((socket) => {
    socket.on('error', () => {});
    socket.once('data', () => {
      socket.write('HTTP/1.1 413 Payload Too Large\r\ncontent-length: 2\r\n\r\n{}');
      socket.resetAndDestroy();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const lateErrors = [];
  const onUncaught = (e) => lateErrors.push(e);
  process.on('uncaughtException', onUncaught);
  try {
    const body = 'x'.repeat(16 * 1024 * 1024);
    for (let i = 0; i < 3; i++) {
      let outcome;
      try {
        const res = await httpFetch(`http://127.0.0.1:${server.address().port}/create`, { method: 'POST', body });
        outcome = `${res.status} ${await bodyText(res)}`;
      } catch (e) {
        // The reset may also come before the answer is read: then fetch's failure.
        assert.ok(e instanceof TypeError && e.message === 'fetch failed', String(e));
        outcome = 'failed';
      }
      assert.ok(outcome === '413 {}' || outcome === 'failed', outcome);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  } finally {
    process.off('uncaughtException', onUncaught);
    await new Promise((resolve) => server.close(resolve));
  }
  assert.deepEqual(lateErrors.map(String), []);
});

test('an abort rejects with the signal\'s reason: before the call, while waiting for the answer, while reading it', async () => {
  let closed = 0;
  const s = await serve((req, res) => {
    res.on('close', () => { closed += 1; });
    if (req.url === '/slow') return; // never answers
    res.writeHead(200);
    res.write('{');
  });
  try {
    const before = AbortSignal.abort(new Error('before'));
    await assert.rejects(httpFetch(`${s.url}/slow`, { signal: before }), { message: 'before' });
    const waiting = new AbortController();
    const call = httpFetch(`${s.url}/slow`, { signal: waiting.signal });
    setTimeout(() => waiting.abort(new Error('waiting')), 30);
    await assert.rejects(call, { message: 'waiting' });
    const reading = new AbortController();
    const res = await httpFetch(`${s.url}/body`, { signal: reading.signal });
    const reader = res.body.getReader();
    assert.equal(Buffer.from((await reader.read()).value).toString(), '{');
    setTimeout(() => reading.abort(new Error('reading')), 30);
    await assert.rejects(reader.read(), { message: 'reading' });
    // Both connections the aborts left were closed, not kept.
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(closed, 2);
  } finally {
    await s.close();
  }
});

test('redirects: followed for GET (to the same method), handed back for POST (a create is never sent twice)', async () => {
  let posts = 0;
  const s = await serve((req, res) => {
    if (req.url === '/old') {
      if (req.method === 'POST') posts += 1;
      res.writeHead(301, { location: '/new' });
      res.end();
      return;
    }
    if (req.url === '/loop') {
      res.writeHead(302, { location: '/loop' });
      res.end();
      return;
    }
    res.end(`${req.method} ${req.url}`);
  });
  try {
    const got = await httpFetch(`${s.url}/old`);
    assert.equal(got.status, 200);
    assert.equal(await bodyText(got), 'GET /new');
    const posted = await httpFetch(`${s.url}/old`, { method: 'POST', body: '{}' });
    assert.equal(posted.status, 301);
    assert.equal(posts, 1);
    await assert.rejects(httpFetch(`${s.url}/loop`), TypeError);
  } finally {
    await s.close();
  }
});

test('a redirect: a location that is no URL fails as fetch fails (the token in no cause); its connection is closed, not left to trickle', async () => {
  let closed = 0;
  const s = await serve((req, res) => {
    if (req.url.startsWith('/bad')) {
      res.writeHead(302, { location: 'http://[bad' });
      res.end();
      return;
    }
    if (req.url === '/trickle') {
      res.on('close', () => { closed += 1; });
      res.writeHead(302, { location: '/ok', 'content-length': '100' });
      res.write('x');
      return;
    }
    res.end('ok');
  });
  try {
    await assert.rejects(httpFetch(`${s.url}/bad?token=SECRET`), (e) => e instanceof TypeError && e.message === 'fetch failed'
      && !JSON.stringify(e.cause, Object.getOwnPropertyNames(e.cause)).includes('SECRET') && !String(e.cause.message).includes('SECRET'));
    const res = await httpFetch(`${s.url}/trickle`);
    assert.equal(await bodyText(res), 'ok');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(closed, 1, 'the redirect\'s connection was closed');
  } finally {
    await s.close();
  }
});

test('the reader as a stream\'s: reads waiting together all answered, done after cancel(); headers: own names only, forEach', async () => {
  const s = await serve((req, res) => {
    res.writeHead(200, { 'x-a': '1' });
    res.write('a');
    setTimeout(() => res.end('b'), 30);
  });
  try {
    const res = await httpFetch(`${s.url}/x`);
    assert.equal(res.headers.get('constructor'), null);
    const seen = {};
    res.headers.forEach((v, k) => { seen[k] = v; });
    assert.equal(seen['x-a'], '1');
    const reader = res.body.getReader();
    const first = await reader.read();
    assert.equal(Buffer.from(first.value).toString(), 'a');
    // Two reads waiting at once: both settle (the second with the end or the next chunk).
    const [second, third] = await Promise.all([reader.read(), reader.read()]);
    assert.equal(Buffer.from(second.value).toString(), 'b');
    assert.equal(third.done, true);
    const again = await httpFetch(`${s.url}/y`);
    const r2 = again.body.getReader();
    await r2.cancel();
    assert.deepEqual(await r2.read(), { done: true, value: undefined });
  } finally {
    await s.close();
  }
});

test('LPM_TRANSPORT=fetch gives the client Node\'s global fetch (no transport option)', () => {
  assert.equal(transport({}), httpFetch);
  assert.equal(transport({ LPM_TRANSPORT: 'fetch' }), undefined);
});

test('https: the answer through TLS with the CA the process trusts (NODE_EXTRA_CA_CERTS); a certificate it does not trust fails as fetch fails', async (t) => {
  // A self-signed certificate for 127.0.0.1, made here by openssl (skipped where it is missing).
  const { execFileSync, spawn, spawnSync } = await import('node:child_process');
  const { mkdtempSync, readFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const path = await import('node:path');
  const https = await import('node:https');
  if (spawnSync('openssl', ['version']).status !== 0) {
    t.skip('openssl is not installed');
    return;
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'lpm-tls-'));
  const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
  const server = https.createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => res.end(`tls ${req.method} ${req.url}`));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${server.address().port}/x`;
  try {
    // Not trusted by this process: rejected as fetch rejects (a TypeError, the TLS error as cause).
    await assert.rejects(httpFetch(url), (e) => e instanceof TypeError && e.message === 'fetch failed' && /self[-_ ]signed/i.test(String(e.cause && (e.cause.code || e.cause.message))));
    // Trusted by a process started with it as an extra CA: the answer.
    const child = `import { httpFetch } from ${JSON.stringify(new URL('../src/transport.js', import.meta.url).href)};
      const r = await httpFetch(${JSON.stringify(url)}); const b = r.body.getReader(); let s = '';
      for (;;) { const { done, value } = await b.read(); if (done) break; s += Buffer.from(value); }
      console.log(r.status, s);`;
    const out = await new Promise((resolve, reject) => {
      const p = spawn(process.execPath, ['--input-type=module', '-e', child], { env: { ...process.env, NODE_EXTRA_CA_CERTS: cert } });
      let text = '';
      p.stdout.on('data', (d) => { text += d; });
      p.on('close', (code) => (code === 0 ? resolve(text.trim()) : reject(new Error(`exit ${code}`))));
    });
    assert.equal(out, '200 tls GET /x');
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
