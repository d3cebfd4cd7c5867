// What the wasm asks of JavaScript: a caller's value as JSON text for validation, or undefined
// when it has none: a cycle, a BigInt, or a non-finite number (JSON.stringify would silently
// write NaN and Infinity as null, which reads as "absent").
export function toJson(value) {
  try {
    const text = JSON.stringify(value);
    // Only a text with `null` in it can hide a NaN or an infinity: check those again, slowly.
    if (text === undefined || !text.includes('null')) return text;
    return JSON.stringify(value, (_key, v) => {
      if (typeof v === 'number' && !Number.isFinite(v)) throw new RangeError('non-finite number');
      return v;
    });
  } catch {
    return undefined;
  }
}

