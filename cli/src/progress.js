// @ts-check
// Progress of a bulk job: a bar on a terminal (cli-progress), plain lines otherwise (logs, CI,
// pipes): one when the counts change, at most one a second, and the last one always. The bar's
// library is loaded only for a terminal (its load is a fair part of a short job's start).
/** @import { Progress } from 'lpm-client-bulk' */
/** @import { Out } from './types.js' */

/** What a view shows: the engine's Progress. @typedef {Progress & { nextSendAt?: number | null, estimatedEndAt?: number | null }} Shown */

const clock = (/** @type {number} */ ms) => new Date(ms).toLocaleTimeString('en-GB', { hour12: false });

/** @param {number} ms */
function countdown(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * The words after the counts: when the next chunk goes, when the job should end.
 * @param {Shown} p @param {number} now
 */
function when(p, now) {
  const parts = [];
  if (p.nextSendAt != null && p.nextSendAt > now) parts.push(`next chunk in ${countdown(p.nextSendAt - now)}`);
  if (p.estimatedEndAt != null && p.estimatedEndAt > now) parts.push(`end about ${clock(p.estimatedEndAt)}`);
  return parts.join(', ');
}

/** @param {Shown} p @param {string} verb */
function counts(p, verb) {
  return `${verb} ${p.done}, failed ${p.failed}, set aside ${p.setAside}` +
    (p.unresolved ? `, in doubt ${p.unresolved}` : '') + `, remaining ${p.remaining}`;
}

/**
 * A view of `total` rows on `stream`. `update(progress)` takes the engine's Progress; `stop()`
 * ends it (the last state stays on screen). Resolves with the view.
 * @param {{ total: number, verb?: string, stream?: Out, tty?: boolean }} view
 * @returns {Promise<{ update(p: Shown): void, stop(): void }>}
 */
export async function progressView({ total, verb = 'created', stream = process.stderr, tty = Boolean(stream.isTTY) }) {
  /** @type {Shown | null} */
  let last = null;
  const finished = (/** @type {Shown} */ p) => p.done + p.failed + p.setAside + p.unresolved;
  if (tty) {
    const { default: cliProgress } = await import('cli-progress');
    const bar = new cliProgress.SingleBar({
      stream,
      format: '{bar} {value}/{total} rows | {counts} {when}',
      hideCursor: true,
      clearOnComplete: false,
      fps: 5,
    }, cliProgress.Presets.shades_classic);
    bar.start(total, 0, { counts: '', when: '' });
    const render = () => last && bar.update(finished(last), { counts: counts(last, verb), when: when(last, Date.now()) });
    // The countdown to the next chunk moves on its own between events.
    const ticker = setInterval(render, 1000);
    ticker.unref();
    return {
      update(p) { last = p; render(); },
      stop() { clearInterval(ticker); render(); bar.stop(); },
    };
  }
  let printed = '';
  let at = 0;
  /** @type {NodeJS.Timeout | null} */
  let pending = null;
  /** @param {boolean} force */
  const line = (force) => {
    if (!last) return;
    const text = `progress: ${finished(last)}/${total} rows (${counts(last, verb)})`;
    if (text === printed) return;
    const wait = at + 1000 - Date.now();
    if (!force && wait > 0) {
      // Throttled: printed when the second is over, so a change before a long wait still shows.
      pending ??= setTimeout(() => { pending = null; line(false); }, wait);
      pending.unref();
      return;
    }
    const tail = when(last, Date.now());
    stream.write(`${text}${tail ? `; ${tail}` : ''}\n`);
    printed = text;
    at = Date.now();
  };
  return {
    update(p) { last = p; line(false); },
    stop() { if (pending) clearTimeout(pending); pending = null; line(true); },
  };
}
