// @ts-check
// The course ids a grant or a sync is given, checked before anything is sent: an id the platform
// does not know would otherwise stop the job at its first chunk ("No valid courses") with the
// advice to resume it, which only fails again.
import { usage } from './exit.js';
/** @import { Client } from 'lpm-client-bulk' */

/** Course look-ups in flight at once (reads: the contract does not pace them). */
const AT_ONCE = 4;

/**
 * Rejects with a usage error naming the ids no course has (`where(id)` says where each was
 * given; `resumed`: the job has sent before, this run nothing more); other failures (the token
 * refused, the server down) reject as they are. Relies on get-single-course answering "not found"
 * for an unknown id, as the emulator does (the contract does not show that endpoint's codes).
 */
/**
 * @param {Client} client @param {string[]} ids
 * @param {{ where?: (id: string) => string, signal?: AbortSignal, resumed?: boolean }} [how]
 */
export async function checkCourses(client, ids, { where = () => '--courses', signal, resumed = false } = {}) {
  /** @type {string[]} */
  const unknown = [];
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++];
      try {
        await client.getCourse(id, { signal });
      } catch (/** @type {any} */ e) {
        if (e && e.kind === 'api' && e.category === 'notFound') unknown.push(id);
        else throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, ids.length) }, worker));
  if (unknown.length) {
    const list = ids.filter((id) => unknown.includes(id)).map((id) => `"${id}" (${where(id)})`).join(', ');
    throw usage(`no course has the id ${list}: nothing ${resumed ? 'more ' : ''}was sent; \`lpm export courses\` lists the ids`);
  }
}
