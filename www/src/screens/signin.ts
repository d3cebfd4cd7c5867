// Sign in: e-mail and password through `login`, or a pasted token. Before the session starts the
// token is checked with getMe, and its management rights with one account of get-multi-user (a
// learner's token signs in to the platform but may use no screen here); it is kept in memory,
// and in sessionStorage only on request.
import { html, nothing } from "lit-html";
import { live } from "lit-html/directives/live.js";
import { validateLogin } from "lpm-client/lazy";
import { app, defaultBaseUrl, focusNext, makeClient, startSession, update } from "../app";
import { describe } from "../errors";
import { getLang, t } from "../i18n";
import { errorBox } from "../ui";

const form = {
  mode: "password" as "password" | "token",
  baseUrl: "",
  email: "",
  password: "",
  token: "",
  remember: false,
  busy: false,
  /** What the last attempt threw, described when shown: the words follow a language switch. */
  failure: undefined as unknown,
  /** Whether the form was submitted: its issues are shown (in the current language) from then on. */
  checked: false,
};

function issues(): string[] {
  if (!form.checked || form.mode !== "password") return [];
  return validateLogin({ email: form.email, password: form.password }, { lang: getLang() })
    .filter((i) => i.level === "contract")
    .map((i) => i.message);
}

async function submit(ev: Event): Promise<void> {
  ev.preventDefault();
  if (form.busy) return;
  // (The form shows before config.json and the wasm are in: a press this early waits for them.)
  await app.loaded.catch(() => {});
  const baseUrl = form.baseUrl.trim() || defaultBaseUrl();
  form.failure = undefined;
  form.checked = true;
  if (issues().length) return update();
  form.busy = true;
  update();
  try {
    let token = form.token.trim();
    if (form.mode === "password") {
      const anon = makeClient(baseUrl);
      try {
        token = (await anon.login(form.email.trim(), form.password)).token;
      } finally {
        anon.free();
      }
    }
    const c = makeClient(baseUrl, token);
    try {
      await c.getMe();
      // Refused with a permission error (errPermission) for a token without management rights.
      await c.getUsers({ start: 0, limit: 1 });
    } finally {
      c.free();
    }
    form.password = "";
    form.token = "";
    form.checked = false;
    startSession(baseUrl, token, form.remember);
    location.hash = "#/accounts";
  } catch (e) {
    form.failure = e;
    // The button was disabled while busy (focus left it): focus goes to the refusal.
    focusNext("form .error");
  } finally {
    form.busy = false;
    update();
  }
}

export function signInView() {
  const set = (k: "baseUrl" | "email" | "password" | "token") => (e: Event) => {
    form[k] = (e.target as HTMLInputElement).value;
  };
  return html`<main id="main" class="signin">
    <h1>${t("signInTitle")}</h1>
    ${app.signInNote ? html`<p id="signin-note" class="note" role="status">${app.signInNote}</p>` : nothing}
    <form @submit=${submit} novalidate>
      <label for="base-url">${t("platformAddress")}</label>
      <input id="base-url" type="url" placeholder=${defaultBaseUrl()} .value=${live(form.baseUrl)} @input=${set("baseUrl")} aria-describedby="base-hint" />
      <p id="base-hint" class="hint">${t("platformHint")}</p>
      <fieldset>
        <legend>${t("signInWith")}</legend>
        <label><input type="radio" name="mode" value="password" .checked=${live(form.mode === "password")} @change=${() => { form.mode = "password"; update(); }} /> ${t("modePassword")}</label>
        <label><input type="radio" name="mode" value="token" .checked=${live(form.mode === "token")} @change=${() => { form.mode = "token"; update(); }} /> ${t("modeToken")}</label>
      </fieldset>
      ${form.mode === "password"
        ? html`<label for="email">${t("email")}</label>
            <input id="email" type="email" autocomplete="username" required .value=${live(form.email)} @input=${set("email")} />
            <label for="password">${t("password")}</label>
            <input id="password" type="password" autocomplete="current-password" required .value=${live(form.password)} @input=${set("password")} />`
        : html`<label for="token">${t("token")}</label>
            <input id="token" type="password" autocomplete="off" spellcheck="false" required .value=${live(form.token)} @input=${set("token")} />`}
      <label class="check"><input id="remember" type="checkbox" .checked=${live(form.remember)} @change=${(e: Event) => { form.remember = (e.target as HTMLInputElement).checked; update(); }} aria-describedby="remember-risk" /> ${t("remember")}</label>
      <p id="remember-risk" class=${form.remember ? "warning" : "hint"}>${t("rememberRisk")}</p>
      ${issues().length ? html`<ul class="issues" role="alert">${issues().map((m) => html`<li>${m}</li>`)}</ul>` : nothing}
      ${errorBox(form.failure === undefined ? null : describe(form.failure))}
      <button type="submit" class="primary" ?disabled=${form.busy}>${form.busy ? t("signingIn") : t("signInButton")}</button>
    </form>
  </main>`;
}
