// A number cell's text as Excel shows it, from its number format: dates and times, zero-padded
// codes (a phone number 0901000001 kept as a number under the format 0000000000), decimals,
// percentages, thousands. Decisions where a sheet's display depends on the viewer's machine: the
// short date (built-in format 14) is dd/mm/yyyy, the Vietnamese locale's; grouping and decimal
// marks are the format's own `,` and `.`; month names are English, as in the format codes.

const BUILTIN = {
  0: 'General', 1: '0', 2: '0.00', 3: '#,##0', 4: '#,##0.00', 9: '0%', 10: '0.00%', 11: '0.00E+00',
  14: 'dd/mm/yyyy', 15: 'd-mmm-yy', 16: 'd-mmm', 17: 'mmm-yy', 18: 'h:mm AM/PM', 19: 'h:mm:ss AM/PM',
  20: 'h:mm', 21: 'h:mm:ss', 22: 'dd/mm/yyyy h:mm', 37: '#,##0 ;(#,##0)', 38: '#,##0 ;(#,##0)',
  39: '#,##0.00;(#,##0.00)', 40: '#,##0.00;(#,##0.00)', 45: 'mm:ss', 46: '[h]:mm:ss', 47: 'mm:ss.0',
  48: '##0.0E+0', 49: '@',
};

/** The format code of a built-in id (the East Asian date ids read as the short date). */
export function builtinFormat(id) {
  if (BUILTIN[id] !== undefined) return BUILTIN[id];
  if ((id >= 27 && id <= 36) || (id >= 50 && id <= 58)) return 'dd/mm/yyyy';
  return 'General';
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** General: integers in full (no exponent below 1e15), others to 15 significant digits. */
export function general(v) {
  if (Number.isInteger(v) && Math.abs(v) < 1e15) return String(v);
  if (Math.abs(v) >= 1e15) return Number(v.toPrecision(15)).toExponential().toUpperCase();
  return String(Number(v.toPrecision(15)));
}

/** The sections of a code split at `;` outside quotes and brackets. */
function sections(code) {
  const out = [''];
  let quoted = false;
  let bracket = false;
  for (let i = 0; i < code.length; i++) {
    const ch = code[i];
    if (ch === '\\' && !quoted) { out[out.length - 1] += ch + (code[i + 1] ?? ''); i += 1; continue; }
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === '[') bracket = true;
    else if (!quoted && ch === ']') bracket = false;
    else if (!quoted && !bracket && ch === ';') { out.push(''); continue; }
    out[out.length - 1] += ch;
  }
  return out;
}

/** Tokens of a section: literals (quoted, escaped, `[$sym-lcid]`) and format characters. */
function tokens(section) {
  const out = [];
  for (let i = 0; i < section.length; i++) {
    const ch = section[i];
    if (ch === '"') {
      const end = section.indexOf('"', i + 1);
      out.push({ lit: section.slice(i + 1, end === -1 ? undefined : end) });
      i = end === -1 ? section.length : end;
    } else if (ch === '\\') {
      out.push({ lit: section[i + 1] ?? '' });
      i += 1;
    } else if (ch === '_') {
      out.push({ lit: ' ' });
      i += 1;
    } else if (ch === '*') {
      i += 1;
    } else if (ch === '[') {
      const end = section.indexOf(']', i);
      const inside = section.slice(i + 1, end === -1 ? undefined : end);
      if (inside.startsWith('$')) out.push({ lit: inside.slice(1).split('-')[0] });
      else if (/^(h+|m+|s+)$/i.test(inside)) out.push({ fmt: inside.toLowerCase() });
      i = end === -1 ? section.length : end;
    } else {
      out.push({ fmt: ch });
    }
  }
  return out;
}

const isDateCode = (toks) => toks.some((t) => t.fmt && /[ydhsm]/i.test(t.fmt)) && !toks.some((t) => t.fmt === '0' || t.fmt === '#');

/** The UTC date of an Excel serial (1900 or 1904 system), rounded to the second. */
function dateOf(serial, date1904) {
  const days = Math.floor(serial);
  const seconds = Math.round((serial - days) * 86400);
  let ms;
  if (date1904) ms = Date.UTC(1904, 0, 1) + days * 86400000;
  // 1900 system: serial 60 is Excel's 29 February 1900 (which never was); after it, one day less.
  else ms = Date.UTC(1899, 11, days < 60 ? 31 : 30) + days * 86400000;
  return new Date(ms + seconds * 1000);
}

/** A date section's runs (yyyy, mm, AM/PM, literals), and which m runs are minutes. */
function compileDate(toks) {
  const ampm = toks.some((t) => t.fmt && /^(AM\/PM|A\/P)$/i.test(t.fmt));
  // Group letters into runs (yyyy, mm, ...), AM/PM as one token.
  const runs = [];
  const flat = toks.map((t) => (t.lit !== undefined ? t : { fmt: t.fmt }));
  for (let i = 0; i < flat.length; i++) {
    const t = flat[i];
    if (t.lit !== undefined) { runs.push(t); continue; }
    const rest = flat.slice(i, i + 5).map((x) => x.fmt ?? '\0').join('');
    const ap = /^(AM\/PM|A\/P)/i.exec(rest);
    if (ap) { runs.push({ ap: ap[0] }); i += ap[0].length - 1; continue; }
    const ch = t.fmt.toLowerCase();
    if (/^[ydhsm]+$/.test(ch) && ch.length > 1) { runs.push({ run: ch }); continue; }
    if ('ydhsm'.includes(ch)) {
      let run = ch;
      while (flat[i + 1]?.fmt?.toLowerCase() === ch) { run += ch; i += 1; }
      runs.push({ run });
      continue;
    }
    if (t.fmt === '.' && flat[i + 1]?.fmt === '0') {
      while (flat[i + 1]?.fmt === '0') i += 1;
      continue;
    }
    runs.push({ lit: t.fmt });
  }
  // m and mm are minutes right after an hour or right before seconds.
  const kinds = runs.map((r) => r.run?.[0]);
  runs.forEach((r, k) => {
    if (r.run?.[0] !== 'm' || r.run.length > 2) return;
    const prev = kinds.slice(0, k).filter(Boolean).pop();
    const next = kinds.slice(k + 1).find(Boolean);
    r.minutes = prev === 'h' || next === 's';
  });
  return { runs, ampm };
}

const pad = (n, w) => String(n).padStart(w, '0');

function formatDate(value, { runs, ampm }, date1904) {
  const d = dateOf(value, date1904);
  let out = '';
  runs.forEach((r) => {
    if (r.lit !== undefined) { out += r.lit; return; }
    if (r.ap) {
      const pm = d.getUTCHours() >= 12;
      out += r.ap.length > 3 ? (pm ? 'PM' : 'AM') : (pm ? 'P' : 'A');
      return;
    }
    const run = r.run;
    const w = run.length;
    switch (run[0]) {
      case 'y': out += w <= 2 ? pad(d.getUTCFullYear() % 100, 2) : String(d.getUTCFullYear()); break;
      case 'd':
        out += w === 1 ? String(d.getUTCDate()) : w === 2 ? pad(d.getUTCDate(), 2) : w === 3 ? DAYS[d.getUTCDay()].slice(0, 3) : DAYS[d.getUTCDay()];
        break;
      case 'h': {
        let h = d.getUTCHours();
        if (ampm) h = h % 12 || 12;
        out += pad(h, Math.min(w, 2));
        break;
      }
      case 's': out += pad(d.getUTCSeconds(), Math.min(w, 2)); break;
      case 'm': {
        if (r.minutes) out += pad(d.getUTCMinutes(), w);
        else if (w <= 2) out += pad(d.getUTCMonth() + 1, w);
        else if (w === 3) out += MONTHS[d.getUTCMonth()].slice(0, 3);
        else if (w === 5) out += MONTHS[d.getUTCMonth()][0];
        else out += MONTHS[d.getUTCMonth()];
        break;
      }
      default:
    }
  });
  return out;
}

/** `v` rounded half away from zero to `places` decimals, as digits. */
function fixed(v, places) {
  const r = Math.round(Number(`${v}e${places}`));
  return Number.isFinite(r) ? Number(`${r}e-${places}`).toFixed(places) : v.toFixed(places);
}

/** A number section's literal prefix and suffix around its digit pattern. */
function compileNumber(toks) {
  let prefix = '';
  let suffix = '';
  let pattern = '';
  let seenDigit = false;
  for (const t of toks) {
    if (t.fmt !== undefined && /[0#?.,%Ee+\-]/.test(t.fmt) && (/[0#?.%]/.test(t.fmt) || seenDigit)) {
      pattern += t.fmt;
      if (/[0#?]/.test(t.fmt)) seenDigit = true;
    } else {
      const text = t.lit ?? t.fmt;
      if (seenDigit) suffix += text;
      else prefix += text;
    }
  }
  if (pattern.includes('/') || !/[0#?]/.test(pattern)) return null;
  return { prefix, suffix, pattern };
}

function formatNumber(value, { prefix, suffix, pattern }) {
  let v = value;
  if (pattern.includes('%')) v *= 100;
  const exp = /[Ee][+-]/.exec(pattern);
  if (exp) {
    const mantissa = pattern.slice(0, exp.index);
    const places = (mantissa.split('.')[1] ?? '').replace(/[^0#?]/g, '').length;
    const [m, e] = v.toExponential(places).split('e');
    const digits = pattern.slice(exp.index + 2).replace(/[^0]/g, '').length || 1;
    return `${prefix}${m}E${e[0] === '-' ? '-' : '+'}${String(Math.abs(Number(e))).padStart(digits, '0')}${suffix}`;
  }
  const [intPat, decPat = ''] = pattern.replace(/%/g, '').split('.');
  const places = decPat.replace(/[^0#?]/g, '').length;
  const optional = /[#?]*$/.exec(decPat.replace(/[^0#?]/g, ''))[0].length;
  let text = fixed(Math.abs(v), places);
  let [int, dec = ''] = text.split('.');
  // Trailing optional decimals (#) are dropped when zero.
  const keep = places - optional;
  while (dec.length > keep && dec.endsWith('0')) dec = dec.slice(0, -1);
  const minInt = intPat.replace(/[^0]/g, '').length;
  if (int === '0' && minInt === 0) int = '';
  int = int.padStart(minInt, '0');
  if (/[0#?],[0#?]/.test(intPat)) int = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  text = dec ? `${int}.${dec}` : int;
  if (pattern.includes('%')) text += '%';
  return `${v < 0 && !/^\(/.test(prefix) ? '-' : ''}${prefix}${text}${suffix}`;
}

const COLOR = /\[(Red|Black|Blue|Green|White|Yellow|Cyan|Magenta|Color\s*\d+|[<>=][^\]]*)\]/gi;
/** Each code's sections as tokens, parsed once: a sheet has a few formats and many cells. */
const prepared = new Map();
function prepare(code) {
  let p = prepared.get(code);
  if (!p) {
    p = sections(code).map((section) => {
      if (/^general$/i.test(section.trim())) return { general: true };
      const toks = tokens(section.replace(COLOR, ''));
      const date = isDateCode(toks);
      return { date: date && compileDate(toks), number: !date && compileNumber(toks), empty: section === '' };
    });
    if (prepared.size < 1000) prepared.set(code, p);
  }
  return p;
}

/** The text Excel shows for number `value` under format `code`. */
export function formatValue(value, code, date1904 = false) {
  if (!code || code === '@' || /^general$/i.test(code)) return general(value);
  const parts = prepare(code);
  let part = parts[0];
  let v = value;
  if (value < 0 && parts.length > 1 && !parts[1].empty) { part = parts[1]; v = -value; }
  else if (value === 0 && parts.length > 2 && !parts[2].empty) part = parts[2];
  if (part.general) return general(v);
  if (part.date) return value < 0 ? general(value) : formatDate(value, part.date, date1904);
  return part.number ? formatNumber(v, part.number) : general(value);
}
