import type {
  ApiErrorInfo,
  GrantReport,
  ImportReport,
  ConfigErrorInfo,
  CoreErrorKind,
  DecodeErrorInfo,
  Endpoint,
  HttpErrorInfo,
  Issue,
} from "./wasm/lpm_client.js";

/** What went wrong, for a `switch`: the kinds the core gives (defined in Rust), and `"internal"`,
 * a trap of the WebAssembly core (out of memory, a defect) whose `cause` is the trap. */
export type ErrorKind = CoreErrorKind | "internal";

/** Base class of every error the package throws or rejects with. Never carries the token. */
export declare class LpmError extends Error {
  readonly kind: ErrorKind;
  /** The endpoint called, where there was one. */
  readonly endpoint?: Endpoint;
}

/** The input was refused before anything was sent. */
export declare class ValidationError extends LpmError {
  readonly kind: "validation";
  readonly endpoint: Endpoint;
  /** Every finding, with its path, code, level and message. */
  readonly issues: Issue[];
}

/** The server answered with an error `respCode`. */
export declare class ApiError extends LpmError {
  readonly endpoint: Endpoint;
  readonly kind: "api";
}
export interface ApiError extends Readonly<Omit<ApiErrorInfo, "kind" | "endpoint">> {}

/** The server answered non-2xx without an API envelope. */
export declare class HttpError extends LpmError {
  readonly endpoint: Endpoint;
  readonly kind: "http";
}
export interface HttpError extends Readonly<Omit<HttpErrorInfo, "kind" | "endpoint">> {}

/** The body does not fit what the endpoint promises; `path` names where. */
export declare class DecodeError extends LpmError {
  readonly endpoint: Endpoint;
  readonly kind: "decode";
}
export interface DecodeError extends Readonly<Omit<DecodeErrorInfo, "kind" | "endpoint">> {}

/** The request did not complete; `cause` is the host's error. */
export declare class NetworkError extends LpmError {
  readonly kind: "network";
  readonly endpoint: Endpoint;
}

/** No complete answer within `timeoutMs` (after any retries). */
export declare class TimeoutError extends LpmError {
  readonly kind: "timeout";
  readonly endpoint: Endpoint;
  readonly timeoutMs: number;
}

/** The caller's AbortSignal fired; `cause` is its reason. */
export declare class AbortError extends LpmError {
  readonly kind: "abort";
  /** The call's endpoint (absent for a bulk job). */
  readonly endpoint?: Endpoint;
  /** A bulk job (`importUsers`, `grantCourses`): its rows as they stood; the journal resumes it. */
  readonly report?: ImportReport | GrantReport;
}

/** A bulk create inside the contract's 10-minute interval. */
export declare class IntervalError extends LpmError {
  readonly kind: "interval";
  readonly endpoint: Endpoint;
  /** When the next bulk create is allowed. */
  readonly nextAllowedAt: Date;
  /** Milliseconds until then. */
  readonly waitMs: number;
}

/** The response body is larger than the client's `maxResponseBytes`; it was not read (further). */
export declare class ResponseTooLargeError extends LpmError {
  readonly kind: "tooLarge";
  readonly endpoint: Endpoint;
  readonly maxResponseBytes: number;
}

/** The client's options cannot be used. */
export declare class ConfigError extends LpmError {
  readonly kind: "config";
  readonly problem: ConfigErrorInfo["problem"];
  /** For `problem: "option"`: the option's name and what it must be. */
  readonly option?: string;
  readonly expected?: string;
  /** For `problem: "baseUrl"`: why it cannot be used; for `problem: "token"`: `"empty"`,
   * `"character"` (outside `A-Z a-z 0-9 - . _ ~`) or `"tooShort"` (fewer than 8). */
  readonly reason?: string;
}
