/// <reference lib="esnext.disposable" />
export * from "./lib.js";
