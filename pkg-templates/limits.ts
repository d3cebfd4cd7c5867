// Generated from the core by `cargo test -p lpm-client limits_ts` (LPM_WRITE_DOCS=1
// rewrites it); do not edit by hand.

/** The contract's interval between account-creation calls (create-multi-user), in ms. */
export const CREATE_INTERVAL_MS = 600000;

/** The platform's advised interval between `registerUser` calls, in ms. */
export const REGISTER_INTERVAL_MS = 5000;

/** The platform's advised interval between `createLoginToken` calls, in ms. */
export const LOGIN_TOKEN_INTERVAL_MS = 5000;

/** The most accounts one create-multi-user or add-courses call takes. */
export const MAX_ITEMS_PER_CALL = 100;

/** The largest page get-multi-user and get-multi-course serve (`limit`). */
export const MAX_PAGE = 100;

/** An account's fields, as a create takes them: the required ones first. */
export const ACCOUNT_FIELDS = ["name", "username", "email", "password", "phone", "city", "district", "street", "gender", "job"] as const;

/** The fields every new account needs. */
export const REQUIRED_FIELDS = ["name", "username", "email", "password"] as const;
