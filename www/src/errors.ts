// Every error the package can throw, in plain words, with whether a retry can help.
import type { ApiError, Category, ConfigError, DecodeError, HttpError, IntervalError, LpmError, TimeoutError, TokenProblem, ValidationError } from "lpm-client";
import { t, type Key } from "./i18n";
import { formatTime } from "./format";
import { reasonText } from "./server-texts";

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

/**
 * Why a bulk job (an import, a grant) stopped, for its error box: by the report's `haltedBy` (the
 * category of the platform's refusal), else the engine's repeated failures (network, server, look-ups);
 * its `halted` text (the engine's English) is kept as the detail, for support.
 */
export function haltedBox(report: { halted?: string; haltedBy?: Category }, key: "halted" | "grantHalted"): Described {
  return inWords(() => {
    const reason = report.haltedBy ? t(CATEGORY[report.haltedBy] ?? "errUnknown") : t("haltedRepeated");
    return { text: t(key, { reason }), detail: report.halted, retry: true, signOut: false, unreachable: false };
  });
}

/**
 * A description whose words are made each time they are read, so that an error left on screen
 * follows a language switch; what it means (retry, sign-out, unreachable) is fixed when made.
 */
export function inWords(make: () => Described): Described {
  const { retry, signOut, unreachable } = make();
  return {
    get text() { return make().text; },
    get detail() { return make().detail; },
    retry, signOut, unreachable,
  };
}

/** What is wrong with a token, by the package's `reason` (a reason it adds fails the build here). */
const TOKEN: Record<TokenProblem, Key> = {
  empty: "errTokenEmpty",
  character: "errTokenCharacter",
  tooShort: "errTokenTooShort",
};

/** A ConfigError in words, by its fields: `problem`, and the token's `reason`. The base URL's and
 * an option's reasons are the package's English, so the rule is said instead of them. */
function configText(c: ConfigError): string {
  switch (c.problem) {
    case "token":
      return t(TOKEN[c.reason as TokenProblem] ?? "errTokenUnusable");
    case "baseUrl":
      return t("errBaseUrl");
    case "noToken":
      return t("errNoToken");
    case "notLoaded":
      return t("errNotLoaded");
    default:
      return t("errConfig", { detail: c.option ?? c.problem });
  }
}

/**
 * The package's error behind `e`, by its `kind`: lpm-client and lpm-client-bulk (the bulk screen's
 * client) are two module instances, so `instanceof` would miss the other one's errors.
 */
function lpmError(e: unknown): LpmError | undefined {
  return e instanceof Error && typeof (e as { kind?: unknown }).kind === "string" ? (e as LpmError) : undefined;
}

/** What `e` means for the user, in the words of the screen's language when it is shown. */
export function describe(e: unknown): Described {
  return inWords(() => describeNow(e));
}

function describeNow(e: unknown): Described {
  const base = { retry: false, signOut: false, unreachable: false };
  const err = lpmError(e);
  switch (err?.kind) {
    case "api": {
      const a = err as ApiError;
      // Said per reason (a wrong password is not an expired token); the category when unknown.
      let text = a.reason && a.reason !== "unknown" ? reasonText(a.reason) : t(CATEGORY[a.category] ?? "errUnknown");
      if (a.category === "capacity" && a.availableSlots !== undefined) text += " " + t("errCapacitySlots", { n: a.availableSlots });
      return {
        ...base,
        text,
        detail: t("serverSaid", { code: a.code, msg: a.msg }),
        retry: a.retryable || a.category === "server",
        // "could not authenticate" may pass on a retry; an invalid or expired token will not.
        signOut: a.category === "authentication" && !a.retryable,
      };
    }
    case "http": {
      const h = err as HttpError;
      return { ...base, text: h.status >= 500 ? t("errServer") : t("errHttp", { status: h.status }), detail: t("errHttp", { status: h.status }), retry: h.status >= 500 || h.status === 429 };
    }
    case "decode": {
      // "." is the whole body (cut short, or no JSON at all): no place inside it to name.
      const path = (err as DecodeError).path;
      return { ...base, text: path === "." || path === "" ? t("errDecodeWhole") : t("errDecode", { path }), retry: true };
    }
    case "timeout":
      return { ...base, text: t("errTimeout", { s: Math.round((err as TimeoutError).timeoutMs / 1000) }), retry: true };
    case "interval":
      return { ...base, text: t("errInterval", { time: formatTime((err as IntervalError).nextAllowedAt) }), retry: true };
    case "validation":
      return { ...base, text: t("errValidation") + " " + (err as ValidationError).issues.map((i) => i.message).join("; ") };
    case "config":
      return { ...base, text: configText(err as ConfigError) };
    case "network":
      return { ...base, text: t("errNetwork"), retry: true, unreachable: true };
    case "abort":
      return { ...base, text: t("errAbort") };
    default:
      return { ...base, text: t("errOther", { detail: e instanceof Error ? e.message : String(e) }) };
  }
}
