// lpm-client/validate: the package's validators alone (the rules, their English and Vietnamese
// messages, `withOptions`, `extend`, Standard Schema), over a wasm built from the same core with
// only them (wasm/ `--features validate-only`): no client, planner, decoder or options, for a
// form's page. Its entries (validate.ts, validate-node.ts, validate-workerd.ts) instantiate that
// wasm their own way, as the package's do; each is bundled whole with this module.
export {
  validateAddCourses, validateCreateUser, validateCreateUsers, validateGetCourses,
  validateGetUsers, validateId, validateLogin, validateSearchCourses, validateSearchUser,
} from './schema.js';
export type { Checks, FormIssue, FormOf, StandardSchemaV1, Validator } from './schema.js';
export type {
  AddCoursesInput, Issue, IssueCode, Lang, Level, NewUser, PageParams, PathSegment, SearchUserParams,
  ValidateOptions,
} from './wasm/lpm_client.js';
/** @internal The entries' way to instantiate the wasm (instance.ts). */
export { start as default } from './instance.js';
