// What the sign-up form's page and its server share: the form's fields, its validator (the
// package's rules for an account, and the form's own "confirm password"), the account sent to
// the platform, and the server's answer. The page validates with it as the user types; the server
// validates the same way again before it registers, as a page can be bypassed.
// The validators alone (lpm-client/validate): the page loads their small wasm, not the client's.
import { validateCreateUser, type NewUser, type StandardSchemaV1 } from 'lpm-client/validate';

/** The form's validator: the platform's rules (platform level included, in the language asked
 * for) for the account, and the confirmation checked beside them. A Standard Schema, so
 * react-hook-form's resolver takes it as it is. */
export const signUpSchema = validateCreateUser.withOptions({ platformRules: true }).extend({
  confirmPassword: (value: string, form, lang) =>
    value === form.password ? undefined : lang === 'vi' ? 'Mật khẩu nhập lại không khớp' : 'The passwords differ',
});

/** What the form holds: an account, and the field the platform does not take (`confirmPassword`). */
export type SignUp = StandardSchemaV1.InferInput<typeof signUpSchema>;

/** The account the platform is sent: the form's fields less the confirmation, an empty phone left out. */
export function account({ confirmPassword: _, phone, ...rest }: SignUp): NewUser {
  return phone && phone.trim() ? { ...rest, phone } : rest;
}

/** The server's answer to `POST /api/sign-up`: registered, or why not, each reason on its field
 * (`path: []` for the form as a whole) and, when the platform's 5 s between sign-ups holds it
 * back, when to try again (ms since the epoch). */
export type SignUpAnswer =
  | { ok: true; username: string }
  | { ok: false; issues: { path: (string | number)[]; message: string }[]; retryAt?: number };

/** Where the page posts the form. */
export const SIGN_UP_PATH = '/api/sign-up';
