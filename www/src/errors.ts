// Every error the package can throw, in plain words, with whether a retry can help.
import { ApiError, DecodeError, HttpError, IntervalError, LpmError, TimeoutError, ValidationError, ConfigError } from "lpm-client";
import { t, type Key } from "./i18n";
import { formatTime } from "./format";

export interface Described {
  /** One sentence for the user. */
  text: string;
  /** The server's own code and msg, when there is one (shown small, for support). */
  detail?: string;
  /** Whether pressing "retry" can help. */
  retry: boolean;
  /** The token no longer works: the app goes back to sign-in. */
  signOut: boolean;
  /** The server could not be reached at all. */
  unreachable: boolean;
}

const CATEGORY: Record<string, Key> = {
  authentication: "errAuthentication",
  permission: "errPermission",
  badRequest: "errBadRequest",
  capacity: "errCapacity",
  notFound: "errNotFound",
  server: "errServer",
  method: "errMethod",
  unknown: "errUnknown",
};

export function describe(e: unknown): Described {
  const base = { retry: false, signOut: false, unreachable: false };
  if (e instanceof ApiError) {
    let text = t(CATEGORY[e.category] ?? "errUnknown");
    if (e.category === "capacity" && e.availableSlots !== undefined) text += " " + t("errCapacitySlots", { n: e.availableSlots });
    return {
      ...base,
      text,
      detail: t("serverSaid", { code: e.code, msg: e.msg }),
      retry: e.retryable || e.category === "server",
      // "could not authenticate" may pass on a retry; an invalid or expired token will not.
      signOut: e.category === "authentication" && !e.retryable,
    };
  }
  if (e instanceof HttpError) return { ...base, text: e.status >= 500 ? t("errServer") : t("errHttp", { status: e.status }), detail: t("errHttp", { status: e.status }), retry: e.status >= 500 || e.status === 429 };
  if (e instanceof DecodeError) return { ...base, text: t("errDecode", { path: e.path }), retry: true };
  if (e instanceof TimeoutError) return { ...base, text: t("errTimeout", { s: Math.round(e.timeoutMs / 1000) }), retry: true };
  if (e instanceof IntervalError) return { ...base, text: t("errInterval", { time: formatTime(e.nextAllowedAt) }), retry: true };
  if (e instanceof ValidationError) return { ...base, text: t("errValidation") + " " + e.issues.map((i) => i.message).join("; ") };
  if (e instanceof ConfigError) return { ...base, text: t("errConfig", { detail: e.reason ?? e.expected ?? e.problem }) };
  if (e instanceof LpmError && e.kind === "network") return { ...base, text: t("errNetwork"), retry: true, unreachable: true };
  if (e instanceof LpmError && e.kind === "abort") return { ...base, text: t("errAbort") };
  return { ...base, text: t("errOther", { detail: e instanceof Error ? e.message : String(e) }) };
}
