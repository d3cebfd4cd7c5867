// What a screen is to the shell (main.ts): its route, its link, its view, and how it forgets
// what it holds. One list of these (main.ts's SCREENS) gives the navigation, the routing and the
// resets, so a screen cannot be routed to and miss its reset.
import type { TemplateResult } from "lit-html";
import type { Key } from "./i18n";

/**
 * Why a screen forgets: a new session (a sign-in, or the token expired: the same person may sign
 * in again, so what only this browser holds is kept), or a sign-out (everything of the session,
 * stored in this browser too).
 */
export type Ending = "session" | "signOut";

export interface Screen {
  /** Its hash route: `#/<route>[/<arg>]`. */
  route: string;
  /** Its link's text in the main navigation. */
  nav: Key;
  view(arg?: string): TemplateResult;
  /** Forgets what the screen holds; at a sign-out, also what it stored in this browser. Resolves
   * with what it forgot that the user should be told (in words), for the sign-out note. */
  reset(why: Ending): Promise<string[]> | void;
  /** What a sign-out would lose that the user may still want (a paused import), in words: the
   * sign-out asks first. */
  atRisk?(): Promise<string | null>;
}
