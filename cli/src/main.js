// @ts-check
// `lpm`: the commands, their options (one table: parsing and --help come from it), and the
// mapping of failures to exit codes (EXIT in exit.js, documented in README.md).
import { parseArgs } from 'node:util';
import { baseUrlOf, tokenOf } from './sources.js';
import { CliError, EXIT, FIX_TOKEN, networkReason, usage } from './exit.js';
/** @import { Failure, Io, Run, Values } from './types.js' */

/**
 * An option of a command: its type for parseArgs, the name of its value and its help.
 * @typedef {{ type: 'string' | 'boolean', short?: string, value?: string, help: string }} Option
 */
/** A command: its arguments, summary, options and run. @typedef {{ args: string, summary: string, options: Record<string, Option>, run: Run }} Command */

/** A command's run, loaded when it runs: a command (or --help) loads only its own modules, and
 * none loads the package before it needs it. */
const lazy = (/** @type {string} */ module, /** @type {string} */ name) =>
  /** @type {Run} */ (async (...args) => (await import(module))[name](...args));
const validate = lazy('./commands/validate.js', 'validate');
const runImport = lazy('./commands/import.js', 'runImport');
const grant = lazy('./commands/grant.js', 'grant');
const runExport = lazy('./commands/export.js', 'runExport');
const sync = lazy('./commands/sync.js', 'sync');
const login = lazy('./commands/account.js', 'login');
const whoami = lazy('./commands/account.js', 'whoami');

/** @type {Record<string, Option>} */
const CONNECTION = {
  'base-url': { type: 'string', value: 'URL', help: 'the platform (default: $LPM_BASE_URL)' },
  'token-file': { type: 'string', value: 'FILE', help: 'read the API token from FILE (default: $LPM_TOKEN, else the file `lpm login` wrote)' },
};
/** @type {Record<string, Option>} */
const LANG = { lang: { type: 'string', value: 'vi|en', help: 'language of the row issues (default en)' } };
/** @type {Record<string, Option>} */
const SHEET = { sheet: { type: 'string', value: 'NAME', help: 'the sheet of an .xlsx workbook to read (default: the first)' } };
/** @type {Record<string, Option>} */
const PASSWORDS = {
  'generate-passwords': { type: 'boolean', help: 'give rows without a password a random one, written to a credentials sheet (kept out of journals, reports and output)' },
  credentials: { type: 'string', value: 'FILE', help: 'the credentials sheet of --generate-passwords (.xlsx or .csv; default FILE.credentials.xlsx)' },
};
/**
 * A job's options; `report` its default report file, `interval` its default interval.
 * @param {string} report @param {string} interval @returns {Record<string, Option>}
 */
const job = (report, interval) => ({
  journal: { type: 'string', value: 'FILE', help: 'the job\'s journal (JSON lines, flushed before each send): required' },
  resume: { type: 'boolean', help: 'continue the job of an existing journal (same input)' },
  chunk: { type: 'string', value: 'N', help: 'rows per call, 1..100 (default 100)' },
  report: { type: 'string', value: 'FILE', help: `the final report, one line per row (.csv, .xlsx, or .json); default ${report}` },
  format: { type: 'string', value: 'csv|xlsx|json', help: 'the report\'s format (default: --report\'s extension, else csv)' },
  'interval-ms': { type: 'string', value: 'MS', help: `time between two calls (default ${interval})` },
  'retry-delay-ms': { type: 'string', value: 'MS', help: 'wait after a lost answer or a failure that may pass (default 30000)' },
});
const CREATES = 'the contract\'s 600000 between creates; less only for test servers';

/** @type {Record<string, Command>} */
export const COMMANDS = {
  validate: {
    args: 'FILE',
    summary: 'check a sheet of accounts (CSV or .xlsx) without sending anything',
    options: { ...SHEET, ...LANG, strict: { type: 'boolean', help: 'count the platform\'s rules as errors too' } },
    run: validate,
  },
  import: {
    args: 'FILE --journal J',
    summary: 'create the accounts of a sheet, in chunks, resumable',
    options: {
      ...job('FILE.report.csv beside the sheet', CREATES), ...SHEET, ...PASSWORDS, ...LANG,
      'dry-run': { type: 'boolean', help: 'check the rows and print the chunk plan; send nothing' },
      failed: { type: 'string', value: 'FILE', help: 'also write the rows not created, with the sheet\'s own columns, to FILE (.xlsx or .csv), to fix and import again' },
      strict: { type: 'boolean', help: 'set aside rows breaking the platform\'s rules too (default: sent, warned)' },
      ...CONNECTION,
    },
    run: runImport,
  },
  sync: {
    args: 'FILE --courses ID,... --journal J',
    summary: 'make the platform match a sheet: create the missing accounts, grant the courses they lack',
    options: {
      courses: { type: 'string', value: 'IDS', help: 'course ids every account of the sheet must hold, separated by commas (and/or a column "Courses"/"Khoá học" naming each row\'s)' },
      ...job('FILE.sync.csv beside the sheet', CREATES), ...SHEET, ...PASSWORDS, ...LANG,
      'dry-run': { type: 'boolean', help: 'look the rows up and print the plan with its counts; send nothing' },
      strict: { type: 'boolean', help: 'set aside rows breaking the platform\'s rules too (default: sent, warned)' },
      ...CONNECTION,
    },
    run: sync,
  },
  grant: {
    args: '--users FILE|ID,... --courses ID,... --journal J',
    summary: 'grant courses to any number of accounts, in chunks, resumable',
    options: {
      users: { type: 'string', value: 'FILE|IDS', help: 'account ids: a sheet (CSV or .xlsx: an id column such as `lpm export users` writes, the accounts an `lpm import` report records as created, or one id a line) or ids separated by commas' },
      courses: { type: 'string', value: 'IDS', help: 'course ids separated by commas' },
      ...job('J.report.csv beside the journal', '0: grants are not paced'), ...LANG, ...CONNECTION,
    },
    run: grant,
  },
  export: {
    args: 'users|courses',
    summary: 'write every account or course',
    options: {
      format: { type: 'string', value: 'csv|xlsx|jsonl', help: 'csv (nested values as dotted columns), xlsx (the same columns, every cell text) or jsonl (each record as received); default: the extension of --out, else csv' },
      out: { type: 'string', value: 'FILE', help: 'write to FILE (default: standard output)' },
      ...CONNECTION,
    },
    run: runExport,
  },
  whoami: { args: '', summary: 'show the account of the token', options: { ...CONNECTION }, run: whoami },
  login: {
    args: '',
    summary: 'log in and keep the token in a file (mode 0600)',
    options: {
      email: { type: 'string', value: 'E', help: 'the e-mail (default: asked)' },
      'password-stdin': { type: 'boolean', help: 'read the password from standard input (first line)' },
      ...CONNECTION,
    },
    run: login,
  },
};

/** @type {Record<string, Option>} */
const HELP = { help: { type: 'boolean', short: 'h', help: 'show this help' } };

/** @param {Record<string, Option>} options */
function optionLines(options) {
  const rows = Object.entries({ ...options, ...HELP }).map(([name, o]) =>
    [`  ${o.short ? `-${o.short}, ` : ''}--${name}${o.value ? ` ${o.value}` : ''}`, o.help]);
  const width = Math.max(...rows.map(([l]) => l.length)) + 2;
  return rows.map(([l, h]) => `${l.padEnd(width)}${h}`).join('\n');
}

/** @param {string} name */
export function commandHelp(name) {
  const c = COMMANDS[name];
  return `lpm ${name}${c.args ? ` ${c.args}` : ''}: ${c.summary}\n\nOptions:\n${optionLines(c.options)}\n`;
}

export function mainHelp() {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length)) + 2;
  const list = Object.entries(COMMANDS).map(([n, c]) => `  ${n.padEnd(width)}${c.summary}`).join('\n');
  return `lpm: the learning-platform management API from the command line\n\nUsage: lpm COMMAND [options]\n\nCommands:\n${list}\n\n` +
    'The token is never given on the command line: $LPM_TOKEN, --token-file FILE, or `lpm login`.\n' +
    'Exit codes: 0 done, 1 some rows not done, 2 usage, 3 authentication or configuration,\n' +
    '4 stopped before the end (resume it), 130 interrupted. `lpm COMMAND --help` for each;\n' +
    '`lpm --version` for the versions.\n';
}

/**
 * parseArgs' error in the words of the other messages (its own have a stray quote and advice
 * about `--` no user of lpm needs); it names the option only, never a value given to it.
 * @param {Error & { code?: string }} e @param {Record<string, Option>} options
 */
function argMessage(e, options) {
  const option = /'(--?[^' =]+)/.exec(e.message)?.[1];
  if (!option) return e.message;
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${option}`;
  if (e.code !== 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return e.message;
  // A value refused: a string option given none, or a boolean one given one.
  const o = options[option.replace(/^--?/, '')];
  if (o?.type === 'string') return `${option} needs a value${o.value ? ` (${option} ${o.value})` : ''}`;
  if (o?.type === 'boolean') return `${option} takes no value`;
  return e.message;
}

/** `lpm X.Y.Z (lpm-client-bulk X.Y.Z)`: what a report of a fault names. */
async function versions() {
  const { readFileSync } = await import('node:fs');
  const { createRequire } = await import('node:module');
  const version = (/** @type {string | URL} */ file) => JSON.parse(readFileSync(file, 'utf8')).version;
  const own = version(new URL('../package.json', import.meta.url));
  let client = '?';
  try { client = version(createRequire(import.meta.url).resolve('lpm-client-bulk/package.json')); } catch { /* not installed as a package */ }
  return `lpm ${own} (lpm-client-bulk ${client})`;
}

/**
 * Runs `lpm argv...`; resolves with the exit code. `io` = { stdout, stderr, stdin }.
 * @param {string[]} argv @param {Io} [io] @returns {Promise<number>}
 */
export async function main(argv, io = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin }) {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-V') {
    io.stdout.write(`${await versions()}\n`);
    return EXIT.ok;
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? rest[0] : undefined;
    if (topic !== undefined && !Object.hasOwn(COMMANDS, topic)) {
      io.stderr.write(`lpm: unknown command "${topic}"\n\n${mainHelp()}`);
      return EXIT.usage;
    }
    io.stdout.write(topic ? commandHelp(topic) : mainHelp());
    return EXIT.ok;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    io.stderr.write(`lpm: unknown command "${name}"\n\n${mainHelp()}`);
    return EXIT.usage;
  }
  /** @type {Values} */
  let values = {};
  try {
    // Said plainly, and without echoing the argument (it may be the token itself).
    if (rest.some((a) => a === '--token' || a.startsWith('--token='))) {
      throw usage('the token is never taken from the command line, where `ps` shows it: set LPM_TOKEN, or use --token-file FILE');
    }
    const options = Object.fromEntries(Object.entries({ ...command.options, ...HELP })
      .map(([k, o]) => [k, { type: o.type, ...(o.short ? { short: o.short } : {}) }]));
    let parsed;
    try {
      parsed = parseArgs({ args: rest, options, allowPositionals: true, strict: true });
    } catch (/** @type {any} */ e) {
      throw usage(`${argMessage(e, command.options)}\n\n${commandHelp(name)}`);
    }
    if (parsed.values.help) {
      io.stdout.write(commandHelp(name));
      return EXIT.ok;
    }
    values = parsed.values;
    return await command.run(parsed.values, parsed.positionals, io);
  } catch (e) {
    if (e instanceof CliError) {
      io.stderr.write(`lpm ${name}: ${e.message}\n`);
      return e.code;
    }
    return failure(name, e, io, values);
  }
}

/** The errno code (`ENOSPC`, `EIO`, ...) of a system error, if `e` is one. */
const ioCode = (/** @type {any} */ e) => (e && typeof e.code === 'string' && /^E[A-Z0-9]+$/.test(e.code) ? e.code : undefined);

/** The commands that run a journaled job. */
const JOBS = new Set(['import', 'grant', 'sync']);

/** Where the refused token came from (`LPM_TOKEN` wins over `lpm login`'s file: said). */
/** @param {Values} values */
function tokenSource(values) {
  try {
    return `the token came from ${tokenOf(values).from}: `;
  } catch {
    return '';
  }
}

/** The base URL a command used, for a message (never holds the token: it goes in the query). */
/** @param {Values} values */
function baseOf(values) {
  try {
    return baseUrlOf(values);
  } catch {
    return undefined;
  }
}

/**
 * An error of the package (or the host) as one line and its exit code; `values` (the command's
 * options) name the base URL a network failure could not reach.
 * @param {string} name @param {unknown} thrown @param {Io} io @param {Values} [values]
 */
export function failure(name, thrown, io, values = {}) {
  const e = /** @type {Failure} */ (thrown !== null && typeof thrown === 'object' ? thrown : {});
  const kind = e.kind;
  let code = EXIT.halted;
  if (kind === 'api' && (e.category === 'authentication' || e.category === 'permission')) code = EXIT.auth;
  // A journal the system could not write or read (a full disk, an I/O error: the store's error
  // has an errno code) stopped the job: exit 4, `--resume` continues once that is fixed.
  else if (kind === 'config' && e.problem === 'journal' && ioCode(e.cause)) code = EXIT.halted;
  // A journal refused (another file's, or damaged) is the caller's choice of files: usage.
  else if (kind === 'config' && e.problem === 'journal') code = EXIT.usage;
  else if (kind === 'config') code = EXIT.auth;
  else if (kind === 'validation') code = EXIT.usage;
  else if (!kind) code = EXIT.halted;
  // The package's messages never hold the token; a host error's message is printed as is.
  let hint = '';
  if (kind === 'config' && e.problem === 'journal' && ioCode(e.cause)) hint = '; free the space or fix the file, then run the same command with --resume';
  // The engine refuses a journal started with another input: most often the same sheet, edited
  // since (a row fixed after the job). Said what to do with it.
  else if (kind === 'config' && e.problem === 'journal' && e.refusal === 'otherInput') {
    hint = '; a journal resumes only the job it was started with, on the sheet as it was then: to send rows fixed since, import them with a new --journal (--failed FILE writes the rows not created)';
  }
  // What to do, as a job stopped mid-way by the same answers says it (job.js).
  else if (code === EXIT.auth && kind === 'api' && name !== 'login') hint = `; ${tokenSource(values)}${FIX_TOKEN}`;
  // A page that is no answer of the API (a 404, a web site's HTML): most often the school's web
  // address given for the platform's.
  else if ((kind === 'http' && (e.status === 404 || e.status === 405)) || (kind === 'decode' && e.problem === 'notEnvelope')) {
    const base = baseOf(values);
    hint = `; is ${base ?? 'the base URL'} the platform's address? (--base-url or LPM_BASE_URL)`;
  } else if (kind === 'network' || kind === 'timeout') {
    const reason = kind === 'network' ? networkReason(e) : undefined;
    const base = baseOf(values);
    hint = `${reason ? `: ${reason}` : ''}; check the platform's address${base ? ` ${base}` : ''} (--base-url or LPM_BASE_URL) and the network, then run the same command ${JOBS.has(name) ? 'again (with --resume if its journal holds the job)' : 'again'}`;
  }
  io.stderr.write(`lpm ${name}: ${kind ? `${e.name}: ` : ''}${e.message !== undefined ? e.message : thrown}${hint}\n`);
  return code;
}
