// The sign-up form's server in Node (node:http, no framework): `POST /api/sign-up` through the
// same handler as the Worker, and the built page from `LPM_STATIC` (vite's output). With Express:
// `app.post('/api/sign-up', (req, res) => toWeb(req).then(handle).then((r) => send(r, res)))`,
// with these two adapters. Prints `listening <url>` once it listens (on `PORT`, or any free port).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from 'lpm-client';
import { signUpHandler } from './handler.js';
import { SIGN_UP_PATH } from './schema.js';

const client = new Client({ baseUrl: process.env.LPM_BASE_URL ?? 'http://127.0.0.1:8787', token: process.env.LPM_TOKEN });
const handle = signUpHandler(client);
const site = path.resolve(process.env.LPM_STATIC ?? 'dist');

/** Node's request as the web's, its body read whole (a sign-up is small: 16 KB at most). */
async function toWeb(req: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > 16_384) throw new Error('too large');
    chunks.push(c);
  }
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
  const method = req.method ?? 'GET';
  return new Request(new URL(req.url ?? '/', 'http://localhost'), { method, headers, ...(method === 'GET' || method === 'HEAD' ? {} : { body: Buffer.concat(chunks) }) });
}

async function send(r: Response, res: ServerResponse): Promise<void> {
  res.writeHead(r.status, Object.fromEntries(r.headers));
  res.end(Buffer.from(await r.arrayBuffer()));
}

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css' };

async function serveFile(pathname: string, res: ServerResponse): Promise<void> {
  const file = path.join(site, path.normalize(decodeURIComponent(pathname)).replace(/^(\.\.[/\\])+/, ''));
  if (!file.startsWith(site + path.sep)) return void res.writeHead(404).end();
  try {
    const body = await readFile(file);
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' }).end(body);
  } catch {
    res.writeHead(404).end('not found');
  }
}

const server = createServer((req, res) => {
  const { pathname } = new URL(req.url ?? '/', 'http://localhost');
  const done = pathname === SIGN_UP_PATH ? toWeb(req).then(handle).then((r) => send(r, res)) : serveFile(pathname, res);
  done.catch(() => { if (!res.headersSent) res.writeHead(400); res.end(); });
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const a = server.address();
  if (a && typeof a === 'object') console.log(`listening http://127.0.0.1:${a.port}`);
});
