// Modules without declarations of their own, for tsc (cli/tsconfig.json). cli-progress ships no
// types (and @types/cli-progress is no dependency): the bar is used as its README shows it.
declare module 'cli-progress';
