// A cell's text as the sheet shows it, from its number format: sections (positive, negative, zero,
// text) and conditions (`[<=9999999]`), digit placeholders with literal text among them (a phone
// 0912345678 kept as a number under `0#########` or `"+84 "000 000 000`), grouping and scaling,
// percentages, exponents, fractions, dates and times with AM/PM and elapsed hours. Decisions where
// a sheet's display depends on the viewer's machine: the short date (built-in format 14) is
// dd/mm/yyyy, the Vietnamese locale's; grouping and decimal marks are the format's own `,` and
// `.`; month names are English, as in the format codes; a cell's width is never known, so General
// shows what LibreOffice shows in a wide column.

const BUILTIN = {
  0: 'General', 1: '0', 2: '0.00', 3: '#,##0', 4: '#,##0.00', 9: '0%', 10: '0.00%', 11: '0.00E+00',
  12: '# ?/?', 13: '# ??/??', 14: 'dd/mm/yyyy', 15: 'd-mmm-yy', 16: 'd-mmm', 17: 'mmm-yy',
  18: 'h:mm AM/PM', 19: 'h:mm:ss AM/PM', 20: 'h:mm', 21: 'h:mm:ss', 22: 'dd/mm/yyyy hh:mm',
  37: '#,##0;(#,##0)', 38: '#,##0;(#,##0)', 39: '#,##0.00;(#,##0.00)', 40: '#,##0.00;(#,##0.00)',
  45: 'mm:ss', 46: '[h]:mm:ss', 47: 'mm:ss.0', 48: '##0.0E+0', 49: '@',
};

/** The format code of a built-in id (the East Asian date ids read as the short date). */
export function builtinFormat(id) {
  if (BUILTIN[id] !== undefined) return BUILTIN[id];
  if ((id >= 27 && id <= 36) || (id >= 50 && id <= 58)) return 'dd/mm/yyyy';
  return 'General';
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** General: integers in full below 1e15, others to 15 significant digits, exponents past them. */
export function general(v) {
  if (Number.isInteger(v) && Math.abs(v) < 1e15) return String(v);
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e15 || a < 1e-10) {
    const [m, e] = v.toExponential(14).split('e');
    const mant = m.includes('.') ? m.replace(/0+$/, '').replace(/\.$/, '') : m;
    const exp = Number(e);
    return `${mant}E${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
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

/**
 * Tokens of a section: literals (quoted, escaped, `_x` as a space, `[$sym-lcid]`), `{ fmt }` format
 * characters, `{ elapsed }` for `[h]`/`[mm]`/`[ss]`; `cond` its condition (`[<=9999999]`).
 */
function tokens(section) {
  const out = [];
  let cond;
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
    } else if ((ch === 'G' || ch === 'g') && section.slice(i, i + 7).toLowerCase() === 'general') {
      out.push({ general: true });
      i += 6;
    } else if (ch === '[') {
      const end = section.indexOf(']', i);
      const inside = section.slice(i + 1, end === -1 ? undefined : end);
      const c = /^(<=|>=|<>|<|>|=)\s*(-?[\d.]+(?:[eE][-+]?\d+)?)$/.exec(inside);
      if (inside.startsWith('$')) out.push({ lit: inside.slice(1).split('-')[0] });
      else if (/^(h+|m+|s+)$/i.test(inside)) out.push({ elapsed: inside.toLowerCase() });
      else if (c) cond = { op: c[1], n: Number(c[2]) };
      i = end === -1 ? section.length : end;
    } else {
      out.push({ fmt: ch });
    }
  }
  return { toks: out, cond };
}

/** A date or time section: date letters, and no digit placeholder but the `0`s of `ss.00`. */
function isDateCode(toks) {
  if (!toks.some((t) => t.elapsed || (t.fmt && /[ydhsme]/i.test(t.fmt)))) return false;
  let decimals = false;
  for (const t of toks) {
    if (t.fmt === '.') decimals = true;
    else if (t.fmt === '0' && decimals) continue;
    else if (t.fmt === '#' || t.fmt === '?' || t.fmt === '0') return false;
    else decimals = false;
  }
  return true;
}

/** The UTC date of an Excel serial (1900 or 1904 system), rounded to `unit` seconds. */
function dateOf(serial, date1904, unit) {
  let days = Math.floor(serial);
  let seconds = Math.round(((serial - days) * 86400) / unit) * unit;
  if (seconds >= 86400) { days += 1; seconds -= 86400; }
  let ms;
  if (date1904) ms = Date.UTC(1904, 0, 1) + days * 86400000;
  // 1900 system: serial 60 is Excel's 29 February 1900 (which never was); after it, one day less.
  else ms = Date.UTC(1899, 11, days < 60 ? 31 : 30) + days * 86400000;
  return new Date(ms + Math.round(seconds * 1000));
}

/** A date section's runs (yyyy, mm, AM/PM, literals), and which m runs are minutes. */
function compileDate(toks) {
  const flat = toks.map((t) => (t.fmt !== undefined ? t.fmt : '\0')).join('');
  const ampm = /AM\/PM|A\/P/i.test(flat);
  const runs = [];
  let unit = 1;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t.lit !== undefined) { runs.push(t); continue; }
    if (t.elapsed) { runs.push({ elapsed: t.elapsed }); continue; }
    const ap = /^(AM\/PM|A\/P)/i.exec(flat.slice(i, i + 5));
    if (ap) { runs.push({ ap: ap[0] }); i += ap[0].length - 1; continue; }
    const ch = t.fmt.toLowerCase();
    if ('ydhsme'.includes(ch)) {
      let run = ch === 'e' ? 'yyyy' : ch;
      while (toks[i + 1]?.fmt?.toLowerCase() === ch) { run += ch; i += 1; }
      runs.push({ run });
      continue;
    }
    if (t.fmt === '.' && toks[i + 1]?.fmt === '0') {
      let places = 0;
      while (toks[i + 1]?.fmt === '0') { places += 1; i += 1; }
      runs.push({ frac: places });
      unit = Math.min(unit, 10 ** -places);
      continue;
    }
    runs.push({ lit: t.fmt });
  }
  // m and mm are minutes right after an hour or right before seconds.
  const kinds = runs.map((r) => r.run?.[0] ?? r.elapsed?.[0]);
  runs.forEach((r, k) => {
    if (r.run?.[0] !== 'm' || r.run.length > 2) return;
    const prev = kinds.slice(0, k).filter(Boolean).pop();
    const next = kinds.slice(k + 1).find(Boolean);
    r.minutes = prev === 'h' || next === 's';
  });
  return { runs, ampm, unit };
}

const pad = (n, w) => String(n).padStart(w, '0');

function formatDate(value, { runs, ampm, unit }, date1904) {
  const d = dateOf(value, date1904, unit);
  // Elapsed time: whole hours, minutes or seconds since 0, rounded as the clock is.
  const totalSeconds = Math.round((value * 86400) / unit) * unit;
  let out = '';
  for (const r of runs) {
    if (r.lit !== undefined) { out += r.lit; continue; }
    if (r.ap) {
      const pm = d.getUTCHours() >= 12;
      const text = r.ap.length > 3 ? (pm ? 'PM' : 'AM') : (pm ? 'P' : 'A');
      out += r.ap[0] === r.ap[0].toLowerCase() ? text.toLowerCase() : text;
      continue;
    }
    if (r.elapsed) {
      const per = { h: 3600, m: 60, s: 1 }[r.elapsed[0]];
      out += pad(Math.floor(totalSeconds / per), r.elapsed.length);
      continue;
    }
    if (r.frac !== undefined) {
      out += `.${pad(Math.round(d.getUTCMilliseconds() / 10 ** (3 - r.frac)), r.frac)}`;
      continue;
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
        if (r.minutes) out += pad(d.getUTCMinutes(), Math.min(w, 2));
        else if (w <= 2) out += pad(d.getUTCMonth() + 1, w);
        else if (w === 3) out += MONTHS[d.getUTCMonth()].slice(0, 3);
        else if (w === 5) out += MONTHS[d.getUTCMonth()][0];
        else out += MONTHS[d.getUTCMonth()];
        break;
      }
      default:
    }
  }
  return out;
}

/** `v` (not negative) rounded half away from zero to `places` decimals, as digits. */
function fixed(v, places) {
  if (v >= 1e21) return BigInt(Math.round(v)).toString();
  const r = Math.round(Number(`${v}e${places}`));
  return Number.isFinite(r) ? Number(`${r}e-${places}`).toFixed(places) : v.toFixed(places);
}

const DIGIT = /[0#?]/;

/**
 * A number section compiled: its tokens with the digit placeholders of the integer part, the
 * decimals and the exponent told apart, the grouping, the scaling by trailing commas, the
 * percent signs, or a fraction's parts.
 */
function compileNumber(toks) {
  const items = [];
  for (const t of toks) {
    if (t.lit !== undefined) items.push({ lit: t.lit });
    else if (DIGIT.test(t.fmt)) items.push({ digit: t.fmt });
    else if (t.fmt === '.' || t.fmt === ',' || t.fmt === '%' || t.fmt === '/') items.push({ sym: t.fmt });
    else if ((t.fmt === 'E' || t.fmt === 'e') && items.some((x) => x.digit)) items.push({ sym: 'E' });
    else if (t.fmt === '@' || t.elapsed) continue;
    else items.push({ lit: t.fmt });
  }
  // E+ / E-: the sign after E belongs to it.
  for (let i = 0; i < items.length; i++) {
    if (items[i].sym === 'E' && (items[i + 1]?.lit === '+' || items[i + 1]?.lit === '-')) { items[i].sign = items[i + 1].lit; items.splice(i + 1, 1); }
    else if (items[i].sym === 'E') items[i] = { lit: 'E' };
  }
  const digitsAt = items.flatMap((x, i) => (x.digit ? [i] : []));
  if (digitsAt.length === 0) return null;
  const slash = items.findIndex((x) => x.sym === '/');
  if (slash !== -1) return compileFraction(items, slash);
  const expAt = items.findIndex((x) => x.sym === 'E');
  const dotAt = items.findIndex((x, i) => x.sym === '.' && (expAt === -1 || i < expAt));
  const lastDigit = digitsAt.filter((i) => expAt === -1 || i < expAt).pop();
  let grouping = false;
  let scale = 0;
  items.forEach((x, i) => {
    if (x.sym !== ',') return;
    const before = items.slice(0, i).some((y) => y.digit);
    const afterInt = items.slice(i + 1, dotAt === -1 ? (expAt === -1 ? items.length : expAt) : dotAt).some((y) => y.digit);
    if (before && afterInt) grouping = true;
    else if (before && i > lastDigit && (expAt === -1 || i < expAt)) scale += 1;
    else { x.lit = ','; return; }
    x.drop = true;
  });
  const percent = items.filter((x) => x.sym === '%').length;
  items.forEach((x) => { if (x.sym === '%') x.lit = '%'; });
  const end = expAt === -1 ? items.length : expAt;
  const intAt = digitsAt.filter((i) => i < (dotAt === -1 ? end : dotAt));
  const decAt = dotAt === -1 ? [] : digitsAt.filter((i) => i > dotAt && i < end);
  const expDigits = expAt === -1 ? [] : digitsAt.filter((i) => i > expAt);
  // Literal text among the integer placeholders keeps its place among the digits.
  const inner = intAt.length > 1 && items.slice(intAt[0], intAt[intAt.length - 1]).some((x) => x.lit !== undefined && !x.drop);
  return { items, intAt, decAt, dotAt, expAt, expDigits, grouping, scale, percent, inner };
}

/** A fraction `# ?/?`, `?/4`: its whole part's placeholders, the numerator's and the denominator's. */
function compileFraction(items, slash) {
  const num = [];
  let k = slash - 1;
  while (k >= 0 && items[k].digit) num.unshift(k--);
  const whole = items.slice(0, Math.max(k, 0) + (k >= 0 && items[k].digit ? 1 : 0)).flatMap((x, i) => (x.digit && i < (num[0] ?? slash) - 1 ? [i] : []));
  const den = [];
  let fixedDen = '';
  for (let i = slash + 1; i < items.length; i++) {
    if (items[i].digit) den.push(i);
    else if (items[i].lit !== undefined && /^[1-9]\d*$/.test(fixedDen + items[i].lit) && !den.length) fixedDen += items[i].lit;
    else break;
  }
  if (num.length === 0) return null;
  return { items, fraction: true, whole, num, den, slash, fixedDen: fixedDen ? Number(fixedDen) : 0 };
}

/** The closest fraction to `x` (0 ≤ x < 1) with a denominator of at most `max`: its continued
 * fraction's last convergent within `max`, or the semiconvergent past it when closer. */
function closest(x, max) {
  let [h0, h1, k0, k1] = [0, 1, 1, 0];
  let y = x;
  for (let i = 0; i < 64; i++) {
    const a = Math.floor(y);
    const h2 = a * h1 + h0;
    const k2 = a * k1 + k0;
    if (k2 > max) {
      const t = Math.floor((max - k0) / k1);
      const hs = t * h1 + h0;
      const ks = t * k1 + k0;
      return Math.abs(x - hs / ks) < Math.abs(x - h1 / k1) ? [hs, ks] : [h1, k1];
    }
    [h0, h1, k0, k1] = [h1, h2, k1, k2];
    if (y - a < 1e-12) break;
    y = 1 / (y - a);
  }
  return [h1, k1];
}

/** Digits placed into placeholders from the right (an integer part): the leftmost takes the rest. */
function placeRight(digits, placeholders) {
  const out = new Array(placeholders.length);
  let rest = digits;
  for (let k = placeholders.length - 1; k >= 0; k--) {
    if (rest.length) {
      out[k] = k === 0 ? rest : rest[rest.length - 1];
      rest = k === 0 ? '' : rest.slice(0, -1);
    } else out[k] = placeholders[k] === '0' ? '0' : placeholders[k] === '?' ? ' ' : '';
  }
  return out;
}

function formatFraction(v, f) {
  const { items, whole, num, den, fixedDen } = f;
  let int = whole.length ? Math.floor(v) : 0;
  const x = v - int;
  let n;
  let d;
  if (fixedDen) { d = fixedDen; n = Math.round(x * d); } else [n, d] = closest(x, 10 ** den.length - 1);
  if (whole.length && n === d) { int += 1; n = 0; }
  if (!whole.length) n += int * d;
  // A zero fraction after a whole part shows as spaces (and the whole part, 0 included, as a
  // digit); else the numerator pads left, the denominator right.
  const blank = whole.length > 0 && n === 0;
  const fill = {};
  const intText = whole.length ? placeRight(int === 0 && !blank ? '' : String(int), whole.map((i) => items[i].digit)) : [];
  whole.forEach((i, k) => { fill[i] = intText[k]; });
  const numText = blank ? num.map(() => ' ') : placeRight(String(n), num.map((i) => items[i].digit));
  num.forEach((i, k) => { fill[i] = numText[k]; });
  const denDigits = fixedDen ? '' : String(d);
  den.forEach((i, k) => { fill[i] = blank ? ' ' : denDigits[k] ?? (items[i].digit === '?' ? ' ' : items[i].digit === '0' ? '0' : ''); });
  let out = '';
  items.forEach((t, i) => {
    if (fill[i] !== undefined) out += fill[i];
    else if (t.sym === '/') out += blank ? ' ' : '/';
    else if (t.lit !== undefined) out += blank && i > f.slash && /^\d+$/.test(t.lit) ? ' '.repeat(t.lit.length) : t.lit;
  });
  return out;
}

/** Whether `v` shows as zero under a number section (a negative zero shows no sign). */
function zero(v, f) {
  if (f.fraction) return v === 0;
  return Number(fixed((v * 100 ** f.percent) / 1000 ** f.scale, f.expAt === -1 ? f.decAt.length : 20)) === 0;
}

function formatNumber(v, f) {
  if (f.fraction) return formatFraction(v, f);
  const { items, intAt, decAt, expAt, expDigits, grouping, scale, percent, inner } = f;
  v = (v * 100 ** percent) / 1000 ** scale;
  // Excel keeps 15 significant digits: past them a number shows zeros, as in General.
  if (expAt === -1 && v !== 0 && Number.isFinite(v)) v = Number(v.toPrecision(15));
  let exponent = 0;
  if (expAt !== -1) {
    // Engineering notation (`##0.0E+0`): the exponent a multiple of the integer placeholders.
    const step = intAt.length > 1 && intAt.some((i) => items[i].digit === '#') ? intAt.length : 1;
    if (v !== 0) {
      exponent = Math.floor(Math.log10(v));
      exponent = Math.floor(exponent / step) * step - (step === 1 ? Math.max(intAt.length - 1, 0) : 0);
      let m = v / 10 ** exponent;
      if (Number(fixed(m, decAt.length)) >= 10 ** Math.max(intAt.length, step)) { exponent += step; m = v / 10 ** exponent; }
      v = m;
    }
  }
  const text = fixed(v, decAt.length);
  let [int, dec = ''] = text.split('.');
  if (int === '0') int = '';
  const fill = {};
  if (intAt.length) {
    const phs = intAt.map((i) => items[i].digit);
    if (inner || !grouping) {
      const placed = placeRight(int, phs);
      intAt.forEach((i, k) => { fill[i] = placed[k]; });
    } else {
      const zeros = phs.filter((p) => p === '0').length;
      let s = int.padStart(zeros, '0');
      s = s.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
      const spaces = phs.filter((p) => p === '?').length - Math.max(0, int.length - zeros);
      fill[intAt[0]] = (spaces > 0 ? ' '.repeat(spaces) : '') + s;
      intAt.slice(1).forEach((i) => { fill[i] = ''; });
    }
  } else if (int !== '' && decAt.length) fill.lead = int;
  // Decimals from the left; trailing zeros under # are dropped, under ? shown as spaces.
  let cut = dec.length;
  while (cut > 0 && dec[cut - 1] === '0' && items[decAt[cut - 1]].digit !== '0') cut -= 1;
  decAt.forEach((i, k) => {
    fill[i] = k < cut ? dec[k] : items[i].digit === '?' ? ' ' : '';
  });
  if (expAt !== -1) {
    const e = String(Math.abs(exponent)).padStart(expDigits.length, '0');
    const sign = exponent < 0 ? '-' : items[expAt].sign === '+' ? '+' : '';
    expDigits.forEach((i, k) => { fill[i] = k === 0 ? e.slice(0, e.length - expDigits.length + 1) : e[e.length - expDigits.length + k]; });
    fill[expAt] = `E${sign}`;
  }
  let out = '';
  items.forEach((x, i) => {
    if (i === intAt[0] && fill.lead) out += fill.lead;
    if (fill[i] !== undefined) out += fill[i];
    else if (x.sym === '.') out += '.';
    else if (!x.drop && x.lit !== undefined) out += x.lit;
  });
  return out;
}

const COLOR = /\[(Red|Black|Blue|Green|White|Yellow|Cyan|Magenta|Colou?r\s*\d+)\]/gi;
/** Each code's sections as tokens, parsed once: a sheet has a few formats and many cells. */
const prepared = new Map();
function prepare(code) {
  let p = prepared.get(code);
  if (!p) {
    const all = sections(code).map((section) => {
      const { toks, cond } = tokens(section.replace(COLOR, ''));
      const base = { cond, empty: toks.length === 0, text: toks.some((t) => t.fmt === '@'), toks };
      if (toks.some((t) => t.general)) return { ...base, general: true };
      const date = isDateCode(toks);
      return { ...base, date: date && compileDate(toks), number: !date && compileNumber(toks) };
    });
    p = { numeric: all.slice(0, 3), textSection: all[3] ?? (all.length === 1 && all[0].text ? all[0] : undefined), conditional: all.some((s) => s.cond) };
    if (prepared.size < 1000) prepared.set(code, p);
  }
  return p;
}

const test = ({ op, n }, v) => (op === '<' ? v < n : op === '<=' ? v <= n : op === '>' ? v > n : op === '>=' ? v >= n : op === '=' ? v === n : v !== n);

/** A section's literal text alone (a section with no placeholder: `"-"`). */
const literal = (part) => part.toks.map((t) => t.lit ?? (t.fmt === '@' ? '' : t.fmt ?? '')).join('');

function render(part, v, value, date1904, sign) {
  if (part.empty) return '';
  if (part.general) return part.toks.map((t) => (t.general ? (sign ? '-' : '') + general(v) : t.lit ?? t.fmt ?? '')).join('');
  // Decision: a date before the epoch or past 9999-12-31 (serial 2958465) shows as its number.
  if (part.date) return value < 0 || value >= 2958466 ? general(value) : formatDate(v, part.date, date1904);
  if (!part.number) return literal(part);
  const text = formatNumber(v, part.number);
  return sign && !zero(v, part.number) ? `-${text}` : text;
}

/** The text Excel shows for number `value` under format `code`. */
export function formatValue(value, code, date1904 = false) {
  if (!code || code === '@' || /^general$/i.test(code)) return general(value);
  // Decision: the system's long date (`[$-F800]`, the viewer's locale) reads as LibreOffice's
  // en-GB one, "Monday 18 May 1903".
  if (code.startsWith('[$-F800]')) code = 'dddd d mmmm yyyy';
  const p = prepare(code);
  const [first, second, third] = p.numeric;
  if (p.conditional) {
    // Sections with conditions are tried in order, a matched one shows the sign; the first
    // without one takes the rest, as a number without its sign (as LibreOffice and Excel show it).
    const matched = p.numeric.find((s) => s.cond && test(s.cond, value));
    if (matched) return render(matched, Math.abs(value), value, date1904, value < 0);
    const rest = p.numeric.find((s, i) => !s.cond && i > 0) ?? (first.cond ? null : first);
    return rest ? render(rest, Math.abs(value), value, date1904, false) : general(value);
  }
  if (value < 0 && second) return render(second, -value, value, date1904, false);
  if (value === 0 && third) return render(third, 0, 0, date1904, false);
  return render(first, Math.abs(value), value, date1904, value < 0);
}

/** The text Excel shows for text `text` under format `code`: its text section (`;;;@` hides it). */
export function formatText(text, code) {
  if (!code || !code.includes(';') && !code.includes('@')) return text;
  const p = prepare(code);
  const part = p.textSection;
  if (!part) return text;
  if (part.empty) return '';
  return part.toks.map((t) => t.lit ?? (t.fmt === '@' || t.general ? text : t.fmt ?? '')).join('');
}
