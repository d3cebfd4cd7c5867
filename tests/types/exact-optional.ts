// The options a developer fills from variables that may be unset, under
// `exactOptionalPropertyTypes` (tests/types/check.sh compiles it so): an optional option takes
// `undefined`, as if absent. Never run.
import { Client, type ImportUsersOptions } from "lpm-client";

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
const bulkOptions: ImportUsersOptions = { journal: undefined, signal: undefined, onProgress: undefined };
console.log(bulkOptions);
