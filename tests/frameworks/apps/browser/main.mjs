// The browser app every bundler builds (webpack, Parcel, Rollup, Vite, esbuild) and the import
// map loads as it is: imports the package as an app does, with no configuration.
import * as lpm from 'lpm-client';
import { demo, fromQuery, show } from './demo.mjs';

demo(lpm, fromQuery()).then(show, (e) => show({ error: String((e && e.stack) || e) }));
