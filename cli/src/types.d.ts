// The types the command line's JSDoc names (`@import` in each file): what a command is given.
// Checked by tsc (cli/tsconfig.json, run by cli/test.sh); nothing here exists at run time.

/** A stream `lpm` writes to: a process's standard output or error, or a test's stand-in. */
export interface Out extends NodeJS.WritableStream {
  isTTY?: boolean;
  columns?: number;
  destroyed?: boolean;
}

/** Standard input: the terminal (raw mode for a hidden answer) or a pipe. */
export interface In extends NodeJS.ReadableStream {
  isTTY?: boolean;
  setRawMode?(raw: boolean): unknown;
}

/** Where a command writes and reads. */
export interface Io {
  stdout: Out;
  stderr: Out;
  stdin: In;
}

/** A command's options as `parseArgs` gives them: a string option's text, a flag's `true`. */
export type Values = { readonly [name: string]: any };

/** A command's run: its options and positionals; resolves with the exit code. */
export type Run = (values: Values, positionals: string[], io: Io) => Promise<number>;

/** An error as `lpm` reads it: the package's (`kind` and its fields) or a host's (`code`). */
export interface Failure {
  name?: string;
  message?: string;
  kind?: string;
  category?: string;
  reason?: string;
  problem?: string;
  refusal?: string;
  status?: number;
  code?: unknown;
  cause?: unknown;
}

/** A row of a sheet of accounts (`readSheet`): its line, its account's fields (the required ones
 * always there: a sheet without their columns is refused), and why it cannot be read, if so. */
export interface SheetRow {
  line: number;
  readonly cells: string[];
  readonly user: Account;
  account(): Account;
  problem: import('lpm-sheets').RowProblem | null;
  /** Cells of columns that are no account field showing an error: said, the row is read. */
  warnings?: import('lpm-sheets').RowProblem[];
}

/** An account's fields as a sheet gives them. */
export type Account = { name: string; username: string; email: string; password: string; [field: string]: string | undefined };

/** A sheet of accounts as `readSheet` reads it. */
export interface Sheet {
  format: import('lpm-sheets').Table['format'];
  delimiter?: ',' | ';' | '\t';
  sheetName?: string;
  headers: string[];
  fields: (string | null)[];
  ignored: string[];
  skipped: number[];
  rows: SheetRow[];
}

/** A row's issue as the command line keeps it: the validator's, or that of a row that cannot be
 * read (`problemIssue`), whose code is the sheet reader's; `warning`, a cell that is no account
 * field's, sets no row aside but with --strict. */
export type RowIssue = Omit<import('lpm-client-bulk').Issue, 'code' | 'level'> & {
  code: string;
  level: import('lpm-client-bulk').Issue['level'] | 'warning';
};
