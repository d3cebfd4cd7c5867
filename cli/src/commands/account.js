// @ts-check
// `lpm whoami` (get-me) and `lpm login` (the token kept in a file, mode 0600).
import { createInterface } from 'node:readline';
import { EXIT, usage } from '../exit.js';
import { clientOf, defaultTokenFile, tokenOf, writeToken } from '../config.js';
/** @import { In, Io, Run } from '../types.js' */

/** `lpm whoami`. @type {Run} */
export async function whoami(values, positionals, io) {
  if (positionals.length) throw usage('whoami takes no argument');
  const { from } = tokenOf(values);
  const { user } = await clientOf(values).getMe();
  const emails = (user.emails ?? []).map((e) => e.address).join(', ');
  io.stdout.write(`${user.profile?.name ?? ''} (${user.username}) ${emails}\nid: ${user._id}\ntoken from: ${from}\n`);
  return EXIT.ok;
}

/**
 * Every line of a stream that is not a terminal (a pipe, a file).
 * @param {In} stream
 */
async function lines(stream) {
  const out = [];
  for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) out.push(line);
  return out;
}

/**
 * Asks on the terminal; `hidden` echoes nothing (raw mode, read by hand).
 * @param {string} question @param {Io} io @param {boolean} hidden @returns {Promise<string>}
 */
function ask(question, io, hidden) {
  const { stdin, stderr } = io;
  stderr.write(question);
  if (!hidden) {
    return new Promise((resolve) => {
      const rl = createInterface({ input: stdin, output: stderr, terminal: false });
      rl.once('line', (/** @type {string} */ line) => { rl.close(); resolve(line); });
    });
  }
  return new Promise((resolve) => {
    let text = '';
    stdin.setRawMode?.(true);
    stdin.resume();
    stdin.setEncoding('utf8');
    const onData = (/** @type {string} */ chunk) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') {
          stdin.setRawMode?.(false);
          stdin.pause();
          stdin.off('data', onData);
          stderr.write('\n');
          return resolve(text);
        }
        if (ch === '\u0003') {
          stdin.setRawMode?.(false);
          stderr.write('\n');
          process.exit(EXIT.interrupted);
        }
        if (ch === '\u007f' || ch === '\b') text = [...text].slice(0, -1).join('');
        else if (ch >= ' ') text += ch;
      }
    };
    stdin.on('data', onData);
  });
}

/** `lpm login`. @type {Run} */
export async function login(values, positionals, io) {
  if (positionals.length) throw usage('login takes no argument (the password is asked, or read with --password-stdin)');
  // The platform's address first: no one should type a password to learn that it is missing.
  const client = clientOf(values, {}, { needToken: false });
  const tty = Boolean(io.stdin.isTTY);
  let email = values.email;
  let password;
  if (tty && !values['password-stdin']) {
    if (email === undefined) email = (await ask('E-mail: ', io, false)).trim();
    password = await ask('Password: ', io, true);
  } else {
    // Standard input: the password alone with --email, else the e-mail then the password.
    const input = await lines(io.stdin);
    if (email === undefined) email = (input.shift() ?? '').trim();
    password = input.shift() ?? '';
  }
  if (!email || !password) throw usage('login needs an e-mail and a password');
  const file = values['token-file'] ?? defaultTokenFile();
  const { token, tokenExpires } = await client.login(email, password);
  writeToken(file, token);
  io.stdout.write(`logged in as ${email}; token saved to ${file} (mode 0600)${tokenExpires ? `, expires ${tokenExpires}` : ''}\n`);
  // LPM_TOKEN is read before this file: a staff member who logs in after an old token expired
  // would still be refused with it.
  if (values['token-file'] === undefined && process.env.LPM_TOKEN) {
    io.stderr.write(`note: LPM_TOKEN is set, and lpm uses it before ${file}: unset LPM_TOKEN to use the token just saved\n`);
  }
  return EXIT.ok;
}
