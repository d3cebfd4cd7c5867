// What a user's code threw (a fetch, a hook, a store): read without trusting it, so that nothing
// it throws escapes in place of the package's error, and copied without what may hold the token.

/** `v[key]`, or `failed` when reading it throws: a Proxy whose every read throws, a getter. */
export function prop(v: unknown, key: string, failed?: unknown): unknown {
  try {
    return (v as Record<string, unknown>)[key];
  } catch {
    return failed;
  }
}

/**
 * A copy of a host error (fetch, a custom fetch, a proxy) that cannot carry the token: only its
 * `name`, redacted `message` and string `code` (`ECONNREFUSED`), and its own `cause` copied the
 * same way. Other properties (`url`, `config`, `request` of some HTTP libraries) may hold the URL
 * with the token, so they are never attached. Without a token the original is kept as is.
 * (`redactor`: a call's or a store's.)
 */
export function cleanCause(redactor: { redact(text: string): string }, cause: unknown, hasToken: boolean, depth = 3): unknown {
  if (!hasToken || cause == null) return cause;
  if (typeof cause === 'string') return redactor.redact(cause);
  const text = (key: string) => { const v = prop(cause, key); return typeof v === 'string' ? redactor.redact(v) : undefined; };
  const clean: Error & { code?: string } = new Error(text('message') ?? 'host error');
  const name = text('name');
  if (name !== undefined) clean.name = name;
  const code = text('code');
  if (code !== undefined) clean.code = code;
  let inner;
  if (depth > 1 && (inner = prop(cause, 'cause')) !== undefined) clean.cause = cleanCause(redactor, inner, hasToken, depth - 1);
  return clean;
}

/** An error's message, or the thrown value as text (which it makes itself, and may throw). */
export const message = (e: unknown): unknown => {
  const m = prop(e, 'message');
  if (m !== undefined) return m;
  try { return String(e); } catch { return 'host error'; }
};
