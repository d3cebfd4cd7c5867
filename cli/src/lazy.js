// @ts-check
// A module a command may not need, loaded the first time it is used rather than at every start:
// node:https (an https: URL), whose load every start would otherwise pay.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A getter of the module `name` (CommonJS, or a Node builtin), loading it at its first call.
 * @param {string} name @returns {() => any}
 */
export function lazy(name) {
  /** @type {any} */
  let module;
  return () => (module ??= require(name));
}
