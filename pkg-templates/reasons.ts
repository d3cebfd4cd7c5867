// Generated from `Reason::category` (src/codes.rs) by `LPM_WRITE_DOCS=1 cargo test -p
// lpm-client reasons_ts`; do not edit by hand.

/** The reasons of each category: an `ApiError`'s `reason` is one of its `category`'s. */
export interface ReasonsByCategory {
  /** Log in again (`login`) for a new token, unless `retryable` says the server only failed to check it; for a login, ask for the e-mail and password again. */
  authentication: "noToken" | "cannotAuthenticate" | "invalidToken" | "wrongEmail" | "wrongPassword";
  /** Use the token of an account with the right (an administrator's); retrying the same token cannot help. */
  permission: "noPermission";
  /** Fix the input (the reason names what); validate it before sending (`validate*`) to catch most of these without a call. */
  badRequest: "noBody" | "noUsersArray" | "usersNotArray" | "usersEmpty" | "allItemsFailed" | "noId" | "noStartParameter" | "invalidStartParameter" | "noEmail" | "noPassword" | "emailInUse" | "usernameInUse" | "missingFields";
  /** Ask the platform for more accounts, or send fewer (`availableSlots` says how many fit). */
  capacity: "capacityExhausted" | "notEnoughSlots";
  /** Check the id (get it from a list or a search); the record may have been removed. */
  notFound: "userNotFound" | "courseNotFound";
  /** Retry later when `retryable` is true; a POST is never retried for you. */
  server: "cannotCheckResources" | "cannotCheckPassword" | "cannotGenerateToken" | "createFailed";
  /** A defect of the client or a proxy that changed the method: report it. */
  method: "wrongMethod";
  /** Show the server's `code` and `msg`; branch on nothing else. Report the pair so it can be decoded. */
  unknown: "unknown";
}
