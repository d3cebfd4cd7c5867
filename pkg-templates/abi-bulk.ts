// The bulk engines' side of the wasm's boundary (wasm/src/abi.rs, feature `bulk`): in
// lpm-client-bulk only, bundled with its driver (bulk.ts). As abi.ts: only numbers cross, a job is
// freed by its driver when it ends.
import { argBytes, args, Core, fail, failureCode, Pending, pending, result, time, w } from './abi.js';
import type { HostFailure } from './abi.js';

interface BulkExports {
  lpm_bulk_job(core: number, kind: number, input: number, options: number, journal: number): number;
  lpm_bulk_request(core: number, job: number): number;
  lpm_job_free(job: number): void;
  lpm_job_poll(job: number, now: number): number;
  lpm_job_text(job: number, which: number): number;
  lpm_job_may_plan(job: number, now: number): number;
  lpm_job_hold_until(job: number, at: number): void;
  lpm_job_response(job: number, now: number, status: number, body: number): number;
  lpm_job_failure(job: number, now: number, kind: number): number;
  lpm_users_check_new(options: number, rows: number): number;
  lpm_users_check(check: number, slice: number): number;
  lpm_users_check_free(check: number): void;
}
const b = () => w as unknown as BulkExports;

/** A bulk job (import or grant) of the core's engines; `h` its handle. */
export class BulkJob {
  constructor(public h: number) {
    if (h === 0) fail();
  }
  /** -1 send the job's request, -5 a look-up, -2 persist `events()`, -3 done, -4 a request is
   * out; else poll again at that time (ms since the epoch). */
  poll(now: number): number {
    return time(b().lpm_job_poll(this.h, now));
  }
  /** A text of the job (`lpm_job_text`): 0 the events to persist (JSON lines), 1 the report, 2
   * the rows' issues, 3 the next progress event (`undefined`: none queued). One method for the
   * four: the package's size. */
  text(which: 0 | 1 | 2 | 3): string | undefined {
    return result(b().lpm_job_text(this.h, which));
  }
  mayPlan(now: number): boolean {
    return b().lpm_job_may_plan(this.h, now) !== 0;
  }
  holdUntil(at: number): void {
    b().lpm_job_hold_until(this.h, at);
  }
  /** The answer of the request handed out; throws an `internal` error's data on the driver's misuse. */
  handleResponse(now: number, status: number, body: Uint8Array): void {
    result(b().lpm_job_response(this.h, now, status, argBytes(body)));
  }
  handleFailure(now: number, kind: Exclude<HostFailure, 'tooLarge'>): void {
    result(b().lpm_job_failure(this.h, now, failureCode(kind)));
  }
  free(): void {
    if (this.h !== 0) b().lpm_job_free(this.h);
    this.h = 0;
  }
}

/** A bulk job of the client's core: `kind` import or grant, its input, engine options and journal
 * (JSON text). Throws the error's data of input, options or a journal it cannot use. */
export function bulkJob(core: Core, kind: string, input: string, options: string, journal: string): BulkJob {
  const l = args(kind, input, options, journal);
  return new BulkJob(b().lpm_bulk_job(core.h, l[0]!, l[1]!, l[2]!, l[3]!));
}

/** The call of the request the job's last poll handed out (`undefined` when none is ready). */
export function bulkRequest(core: Core, job: BulkJob): Pending | undefined {
  const h = b().lpm_bulk_request(core.h, job.h);
  if (h === 0) return undefined;
  if (h < 0) fail();
  return pending(h);
}

/** A create-users list validated a slice at a time (`SliceCheck` in wasm/src/bulk.rs); freed by
 * its owner (`validateCreateUsersInSlices`, when its loop ends). */
export class UsersCheck {
  h: number;
  /** `options`: the validators' (JSON text); `rows`: how many rows in all, 0 when not known. */
  constructor(options: string, rows: number) {
    this.h = b().lpm_users_check_new(args(options)[0]!, rows);
  }
  /** The issues (JSON text) of the list's next slice (JSON text; `undefined`: not JSON). */
  check(slice: string | undefined): string {
    return result(b().lpm_users_check(this.h, args(slice)[0]!))!;
  }
  free(): void {
    if (this.h !== 0) b().lpm_users_check_free(this.h);
    this.h = 0;
  }
}
