// The options a developer fills from variables that may be unset, under
// `exactOptionalPropertyTypes` (tests/types/check.sh compiles it so): an optional option takes
// `undefined`, as if absent. Never run.
import { Client, validateCreateUser, type NewUser, type ValidateOptions } from "lpm-client";

const maybe = (name: string): string | undefined => process.env[name];
const limit = maybe("LIMIT") === undefined ? undefined : Number(maybe("LIMIT"));

const client = new Client({
  baseUrl: "https://school.example.com",
  token: maybe("LPM_TOKEN"),
  timeoutMs: undefined,
  fetch: undefined,
  logger: undefined,
  onRequest: undefined,
  createInterval: { guard: undefined, intervalMs: undefined },
});
await client.getUsers({ start: undefined, limit }, { signal: undefined, maxRetries: undefined, headers: undefined });
await client.searchUser({ email: maybe("EMAIL"), username: undefined });
await client.createUsers([], { waitForInterval: undefined });
// A form's optional fields, unset or empty, go as `undefined` (the same as leaving them out).
const blank = (value: string): string | undefined => value.trim() === "" ? undefined : value;
const account: NewUser = {
  name: "Nguyễn Văn An", username: "nguyenvanan", email: "an@example.vn", password: "matkhau123",
  phone: blank(""), city: maybe("CITY"), district: undefined, street: undefined, gender: undefined, job: undefined,
};
await client.registerUser(account);
const validateOptions: ValidateOptions = { lang: undefined, platformRules: undefined };
console.log(validateCreateUser(account, validateOptions), validateCreateUser.withOptions({ lang: undefined }));
// The bulk jobs' options: tests/types/bulk.ts (lpm-client-bulk), compiled the same way.
