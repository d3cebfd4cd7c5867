// Loaded with `node --import` into an `lpm import` (by phases.mjs): timestamps (ms since the
// process started) of each journal write and sync (fs/promises' FileHandle appendFile and
// datasync), each request sent through node:http and its answer's head and end, and the exit;
// written as JSON to $LPM_PHASE at exit.
import { writeFileSync } from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';

const events = [];
const mark = (name) => events.push([name, performance.now()]);
const timed = (name, fn) => async (...args) => {
  mark(`${name}:start`);
  try {
    return await fn(...args);
  } finally {
    mark(`${name}:end`);
  }
};
const open = fsp.open;
fsp.open = async (...args) => {
  const handle = await open.apply(fsp, args);
  handle.appendFile = timed('write', handle.appendFile.bind(handle));
  handle.datasync = timed('sync', handle.datasync.bind(handle));
  return handle;
};
const request = http.request;
http.request = function (...args) {
  mark('request');
  const req = request.apply(this, args);
  req.on('response', (res) => {
    mark('head');
    res.on('end', () => mark('end'));
  });
  return req;
};
process.on('exit', () => {
  mark('exit');
  writeFileSync(process.env.LPM_PHASE, JSON.stringify(events));
});
